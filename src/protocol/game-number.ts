// Game numbers: FICS numbers its games from 1 and reuses small numbers, so a game number is 1 to
// 9 digits. Anything else (0, negative, a 16-digit number that no longer fits a double exactly)
// is a garbled line: the decoders refuse it instead of inventing a game.

/** A game number inside a regular expression, as one capturing group. */
export const GAME_NUMBER = String.raw`([1-9]\d{0,8})`;

export const LARGEST_GAME_NUMBER = 999_999_999;

declare const checked: unique symbol;
/**
 * A positive whole number that FICS can take as a game number: made only through isGameNumber, by
 * the decoders (server lines) and parseGameNumber (src/fics/validate.ts, user text and stored rows).
 */
export type GameNumber = number & { readonly [checked]: 'GameNumber' };

export function isGameNumber(n: number): n is GameNumber {
  return Number.isInteger(n) && n >= 1 && n <= LARGEST_GAME_NUMBER;
}

/** The game number a GAME_NUMBER group matched: 1 to 9 digits, no leading 0, so one by construction. */
export function matchedGameNumber(digits: string): GameNumber {
  return Number(digits) as GameNumber;
}
