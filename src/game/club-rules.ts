// What a club wants posted: pure rules over a game's players, rating and type. A club is one per
// Discord server: members (FICS handles), a mode, optional pairings for a team match, filters.
// Nothing here knows Discord, storage or the wire.
import type { Variant } from '../game/variants.js';
import { parseHandle } from '../fics/validate.js';
import { err, ok, type Result } from '../result.js';

/** `all`: every game of a member; `members`: games between two members; `pairings`: listed pairings only. */
export type ClubMode = 'all' | 'members' | 'pairings';

export const CLUB_MODES: readonly { value: ClubMode; name: string }[] = [
  { value: 'all', name: 'every game of a member' },
  { value: 'members', name: 'only games between two members' },
  { value: 'pairings', name: 'only games between listed pairings' },
];

/** FICS game types a club may restrict itself to (`wild` covers every `wild/N`). */
export const CLUB_GAME_TYPES = [
  'lightning',
  'blitz',
  'standard',
  'untimed',
  'wild',
  'crazyhouse',
  'bughouse',
  'suicide',
  'atomic',
  'losers',
] as const;

export type ClubGameType = (typeof CLUB_GAME_TYPES)[number];

/** Two players who meet in a scheduled match; either may have White. */
export interface Pairing {
  first: string;
  second: string;
}

export interface ClubRules {
  mode: ClubMode;
  /** Only rated games. */
  ratedOnly: boolean;
  /** Only these types; null for every type. */
  types: readonly ClubGameType[] | null;
  members: readonly string[];
  pairings: readonly Pairing[];
}

/** What the rules read of a game. */
export interface GameFacts {
  white: string;
  black: string;
  rated: boolean | null;
  type: string | null;
  variant: Variant;
}

/** `undecided`: the rules need the rating or type, which the server has not said yet. */
export type ClubDecision = 'post' | 'skip' | 'undecided';

const same = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

/** The club's type for a game: variants by name, normal chess by its time class; null while unknown. */
export function clubGameType(game: Pick<GameFacts, 'type' | 'variant'>): ClubGameType | null {
  // A club names chess960 as FICS does: a wild type.
  if (game.variant === 'chess960') return 'wild';
  if (game.variant !== 'chess') return game.variant;
  const base = game.type?.split('/')[0]?.trim().toLowerCase() ?? '';
  return CLUB_GAME_TYPES.find((t) => t === base) ?? null;
}

export function isMember(rules: Pick<ClubRules, 'members'>, handle: string): boolean {
  return rules.members.some((m) => same(m, handle));
}

function paired(pairings: readonly Pairing[], white: string, black: string): boolean {
  return pairings.some(
    (p) => (same(p.first, white) && same(p.second, black)) || (same(p.first, black) && same(p.second, white)),
  );
}

/** Handles whose games the club needs to hear about: members, and in pairings mode both sides of each pairing. */
export function watchedHandles(rules: Pick<ClubRules, 'mode' | 'members' | 'pairings'>): string[] {
  const pairingPlayers = rules.mode === 'pairings' ? rules.pairings.flatMap((p) => [p.first, p.second]) : [];
  const seen = new Map<string, string>();
  for (const handle of [...rules.members, ...pairingPlayers]) {
    if (!seen.has(handle.toLowerCase())) seen.set(handle.toLowerCase(), handle);
  }
  return [...seen.values()];
}

export function decide(rules: ClubRules, game: GameFacts): ClubDecision {
  const players =
    rules.mode === 'pairings'
      ? paired(rules.pairings, game.white, game.black)
      : rules.mode === 'members'
        ? isMember(rules, game.white) && isMember(rules, game.black)
        : isMember(rules, game.white) || isMember(rules, game.black);
  if (!players) return 'skip';
  let undecided = false;
  if (rules.ratedOnly) {
    if (game.rated === false) return 'skip';
    if (game.rated === null) undecided = true;
  }
  if (rules.types !== null) {
    const type = clubGameType(game);
    if (type !== null && !rules.types.includes(type)) return 'skip';
    if (type === null) undecided = true;
  }
  return undecided ? 'undecided' : 'post';
}

/**
 * `Alice-Bob, Carol-Dave` (commas, semicolons or line breaks between pairings; `-` or ` vs `
 * inside one). `none` clears the list. Every handle is checked as FICS checks them.
 */
export function parsePairings(text: string): Result<Pairing[]> {
  const trimmed = text.trim();
  if (/^(none|clear|-)$/i.test(trimmed)) return ok([]);
  const pairings: Pairing[] = [];
  for (const raw of trimmed.split(/[,;\n]+/)) {
    const part = raw.trim();
    if (part === '') continue;
    const sides = part.split(/\s*-\s*|\s+vs\.?\s+/i);
    if (sides.length !== 2 || sides.some((side) => side.trim() === '')) {
      return err(
        `"${part}" is not a pairing: write two FICS handles joined by "-", e.g. Alice-Bob, Carol-Dave.`,
      );
    }
    const [first, second] = sides.map((s) => parseHandle(s.trim())) as [
      ReturnType<typeof parseHandle>,
      ReturnType<typeof parseHandle>,
    ];
    if (!first.ok) return err(`In "${part}": ${first.error.message}`);
    if (!second.ok) return err(`In "${part}": ${second.error.message}`);
    if (same(first.value, second.value)) {
      return err(`"${part}" pairs ${first.value} with themselves.`);
    }
    const clash = pairings.find((p) =>
      [p.first, p.second].some((h) => same(h, first.value) || same(h, second.value)),
    );
    if (clash !== undefined) {
      return err(
        `"${part}" names a player who is already in ${clash.first}-${clash.second}: each player has one pairing.`,
      );
    }
    pairings.push({ first: first.value, second: second.value });
  }
  if (pairings.length === 0) {
    return err('No pairings given: write them like Alice-Bob, Carol-Dave (or "none" to clear).');
  }
  return ok(pairings);
}

export function formatPairings(pairings: readonly Pairing[]): string {
  return pairings.map((p) => `${p.first}-${p.second}`).join(', ');
}

/** `blitz, standard` (commas or spaces); `all` for every type. */
export function parseGameTypes(text: string): Result<ClubGameType[] | null> {
  const words = text
    .toLowerCase()
    .split(/[\s,;]+/)
    .filter((w) => w !== '');
  if (words.length === 0 || (words.length === 1 && words[0] === 'all')) return ok(null);
  const types: ClubGameType[] = [];
  for (const word of words) {
    const type = CLUB_GAME_TYPES.find((t) => t === word);
    if (type === undefined) {
      return err(`"${word}" is not a FICS game type. Use some of: ${CLUB_GAME_TYPES.join(', ')} (or "all").`);
    }
    if (!types.includes(type)) types.push(type);
  }
  return ok(types);
}
