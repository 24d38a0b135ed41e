// FICS TV: which game in progress a TV channel shows, and what the channel does next. Pure rules
// over a row of the server's `games` list (src/fics/games-list.ts has the same fields): the
// stronger the weaker player, the better (a 2400 against a 1200 is a mismatch, not a top game);
// blitz and standard above lightning, untimed last; rated above unrated; private and examined
// games never.
import type { GameNumber } from '../protocol/game-number.js';

/** What the rules read of one `games` row. */
export interface TvCandidate {
  game: GameNumber;
  kind: 'played' | 'examined' | 'setup';
  white: string;
  black: string;
  /** As shown: digits (maybe with a letter, `1834P`), `++++` (unregistered) or `----` (no rating). */
  whiteRating: string;
  blackRating: string;
  private: boolean;
  /** The games list's type name (`blitz`, `crazyhouse`, …); null for a letter this code does not know. */
  type: string | null;
  rated: boolean;
  initialMinutes: number;
  incrementSec: number;
}

/** What a TV channel may show: `chess` is every time control of ordinary chess; `any` all. */
export const TV_VARIANTS = [
  'chess',
  'crazyhouse',
  'bughouse',
  'atomic',
  'wild',
  'suicide',
  'losers',
  'any',
] as const;
export type TvVariant = (typeof TV_VARIANTS)[number];

export interface TvFilter {
  variant: TvVariant;
  /** Both players at least this rating (0: anyone). */
  minRating: number;
}

/** Highest rating a TV filter takes (FICS ratings stay well under it). */
export const MAX_TV_RATING = 4000;

/** FICS's time classes, by a game's expected length. */
export type TimeClass = 'lightning' | 'blitz' | 'standard' | 'untimed';

/** Rating points a time class adds to a game's score: a blitz or standard game is worth watching longer. */
const TIME_CLASS_BONUS: Readonly<Record<TimeClass, number>> = {
  blitz: 150,
  standard: 150,
  lightning: 0,
  untimed: -400,
};
/** Rating points a rated game adds over an unrated one. */
const RATED_BONUS = 100;

/** Games list types that are ordinary chess (the letter says the time class, not a variant). */
const CHESS_TYPES: ReadonlySet<string> = new Set([
  'blitz',
  'lightning',
  'standard',
  'untimed',
  'nonstandard',
]);

/** A shown rating as a number; 0 for `++++`, `----` and anything else without digits. */
export function ratingOf(shown: string): number {
  const digits = /^\d+/.exec(shown);
  return digits === null ? 0 : Number(digits[0]);
}

/**
 * FICS's classes (`help blitz`): expected length = initial minutes + 2/3 of the increment in
 * seconds (40 moves); under 3 minutes lightning, under 15 blitz, else standard; 0 0 untimed.
 */
export function timeClassOf(initialMinutes: number, incrementSec: number): TimeClass {
  if (initialMinutes === 0 && incrementSec === 0) return 'untimed';
  const expected = initialMinutes + (2 * incrementSec) / 3;
  return expected < 3 ? 'lightning' : expected < 15 ? 'blitz' : 'standard';
}

/** The variant a row is, in the TV's words; null when the type is unknown. */
export function tvVariantOf(type: string | null): Exclude<TvVariant, 'any'> | null {
  if (type === null) return null;
  if (CHESS_TYPES.has(type)) return 'chess';
  const variant = TV_VARIANTS.find((v) => v === type);
  return variant === undefined || variant === 'any' ? null : variant;
}

/**
 * How interesting a game is, in rating points: the players' strength with the weaker counted
 * twice, plus the time class's and rated bonuses. Null when the TV must not show it.
 */
export function tvScore(candidate: TvCandidate, filter: TvFilter): number | null {
  if (candidate.kind !== 'played' || candidate.private) return null;
  const variant = tvVariantOf(candidate.type);
  if (variant === null || (filter.variant !== 'any' && variant !== filter.variant)) return null;
  const white = ratingOf(candidate.whiteRating);
  const black = ratingOf(candidate.blackRating);
  const weaker = Math.min(white, black);
  if (weaker < filter.minRating) return null;
  const strength = (2 * weaker + Math.max(white, black)) / 3;
  const timeClass = timeClassOf(candidate.initialMinutes, candidate.incrementSec);
  return strength + TIME_CLASS_BONUS[timeClass] + (candidate.rated ? RATED_BONUS : 0);
}

/** The best game the filter allows, not in `excluded` (numbers); ties go to the lower number. */
export function pickTvGame<C extends TvCandidate>(
  candidates: readonly C[],
  filter: TvFilter,
  excluded: ReadonlySet<number>,
): C | null {
  let best: { candidate: C; score: number } | null = null;
  for (const candidate of candidates) {
    if (excluded.has(candidate.game)) continue;
    const score = tvScore(candidate, filter);
    if (score === null) continue;
    if (best === null || score > best.score || (score === best.score && candidate.game < best.candidate.game))
      best = { candidate, score };
  }
  return best?.candidate ?? null;
}

/** The channel's one-line note when a new game goes on: `Now showing: A (2100) vs B (2050), blitz 3+0`. */
export function nowShowing(candidate: TvCandidate): string {
  const timeClass = timeClassOf(candidate.initialMinutes, candidate.incrementSec);
  const variant = tvVariantOf(candidate.type);
  const kind = variant === null || variant === 'chess' ? timeClass : `${variant} ${timeClass}`;
  const clock = timeClass === 'untimed' ? '' : ` ${candidate.initialMinutes}+${candidate.incrementSec}`;
  return `Now showing: ${candidate.white} (${candidate.whiteRating}) vs ${candidate.black} (${candidate.blackRating}), ${candidate.rated ? '' : 'unrated '}${kind}${clock}`;
}

/** A TV channel looks for a game when it shows none and its wait after finding none is over. */
export function tvDue(showing: boolean, retryAt: number | null, now: number): boolean {
  return !showing && (retryAt === null || now >= retryAt);
}

/** What a TV channel knows when it looks for a game. */
export interface TvLook<C extends TvCandidate> {
  /** It has said already that nothing qualifies (said once until a game is shown). */
  saidNothing: boolean;
  now: number;
  retryMs: number;
  candidates: readonly C[];
  filter: TvFilter;
  /** Games it must not pick: posted in the server already, or the one that just ended. */
  excluded: ReadonlySet<number>;
}

/** What the channel does: show a game, or find none, say so once, and look again at `retryAt`. */
export type TvStep<C> = { kind: 'show'; game: C } | { kind: 'none'; say: boolean; retryAt: number };

export function tvStep<C extends TvCandidate>(look: TvLook<C>): TvStep<C> {
  const game = pickTvGame(look.candidates, look.filter, look.excluded);
  if (game !== null) return { kind: 'show', game };
  return { kind: 'none', say: !look.saidNothing, retryAt: look.now + look.retryMs };
}
