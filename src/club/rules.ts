// A club's settings read from what a user typed (/club): pairings and game types, every handle
// checked as FICS checks them. The rules themselves are src/game/club-rules.ts.
import { CLUB_GAME_TYPES, sameHandle, type ClubGameType, type Pairing } from '../game/club-rules.js';
import { parseHandle } from '../fics/validate.js';
import { err, ok, type Result } from '../result.js';

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
    if (sameHandle(first.value, second.value)) {
      return err(`"${part}" pairs ${first.value} with themselves.`);
    }
    const clash = pairings.find((p) =>
      [p.first, p.second].some((h) => sameHandle(h, first.value) || sameHandle(h, second.value)),
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
