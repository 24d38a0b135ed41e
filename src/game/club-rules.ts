// What a club wants posted: pure rules over a game's players, rating and type. A club is one per
// Discord server: members (FICS handles), a mode, optional pairings for a team match, filters.
// Nothing here knows Discord, storage or the wire; the storage of clubs reads these types, so they
// sit below it. Reading the settings from user text is src/club/rules.ts.
import { FICS_GAME_TYPES, type FicsGameType, type Variant } from './variants.js';

/** `all`: every game of a member; `members`: games between two members; `pairings`: listed pairings only. */
export type ClubMode = 'all' | 'members' | 'pairings';

export const CLUB_MODES: readonly { value: ClubMode; name: string }[] = [
  { value: 'all', name: 'every game of a member' },
  { value: 'members', name: 'only games between two members' },
  { value: 'pairings', name: 'only games between listed pairings' },
];

/** FICS game types a club may restrict itself to (`wild` covers every `wild/N`). */
export const CLUB_GAME_TYPES = FICS_GAME_TYPES;

export type ClubGameType = FicsGameType;

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

/** FICS compares handles without case. */
export const sameHandle = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

/** The club's type for a game: variants by name, normal chess by its time class; null while unknown. */
export function clubGameType(game: Pick<GameFacts, 'type' | 'variant'>): ClubGameType | null {
  // A club names chess960 as FICS does: a wild type.
  if (game.variant === 'chess960') return 'wild';
  if (game.variant !== 'chess') return game.variant;
  const base = game.type?.split('/')[0]?.trim().toLowerCase() ?? '';
  return CLUB_GAME_TYPES.find((t) => t === base) ?? null;
}

export function isMember(rules: Pick<ClubRules, 'members'>, handle: string): boolean {
  return rules.members.some((m) => sameHandle(m, handle));
}

function paired(pairings: readonly Pairing[], white: string, black: string): boolean {
  return pairings.some(
    (p) =>
      (sameHandle(p.first, white) && sameHandle(p.second, black)) ||
      (sameHandle(p.first, black) && sameHandle(p.second, white)),
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
