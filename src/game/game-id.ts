// Which source a game comes from. FICS numbers its games 1 to 999,999,999; ChessLive! sources are
// numbered above that range. The relay's maps, the stored posts and finished games, the buttons
// and the file names (`game-<n>.pgn`) are keyed by number, and a FICS game and a ChessLive! game
// may be live at once: with disjoint ranges a number names one game of one source, with no second
// key and no migration, and no FICS game is taken for a ChessLive! one. A snapshot names its
// ChessLive! source itself, so decisions about a game in hand ask the snapshot, not the number.
import { isGameNumber, LARGEST_GAME_NUMBER, type GameNumber } from '../protocol/game-number.js';
import { err, ok, type Result } from '../result.js';
import type { GameSnapshot } from './snapshot.js';

declare const chessLive: unique symbol;
/** The number of a configured ChessLive! source's game: made only by makeChessLiveGame (and parseGameId). */
export type ChessLiveGame = number & { readonly [chessLive]: 'ChessLiveGame' };

/**
 * A game of any source, as the feeds, the relay, the web page, clubs and the fleet know it: a FICS
 * GameNumber or a ChessLive! game. A raw number (an option, a button, a row, a path) becomes one
 * only through parseGameId.
 */
export type GameId = GameNumber | ChessLiveGame;

/** The largest FICS game number, for those that only need the bound (Discord's game options). */
export { LARGEST_GAME_NUMBER };

/** Game number of the first configured ChessLive! source: one more than the largest FICS number. */
const FIRST_CHESSLIVE_GAME = LARGEST_GAME_NUMBER + 1;
/** As many ChessLive! numbers as FICS ones: 10 digits at most, far below any configuration. */
export const LARGEST_GAME_ID = FIRST_CHESSLIVE_GAME + LARGEST_GAME_NUMBER - 1;
const DIGITS = /^[0-9]{1,10}$/;

/** The game number of the ChessLive! source at `index` (0-based, in configuration order). */
export function makeChessLiveGame(index: number): ChessLiveGame {
  return (FIRST_CHESSLIVE_GAME + index) as ChessLiveGame;
}

/** The index of the ChessLive! source a game names, or null for a FICS game. */
export function parseChessLiveGame(game: GameId): number | null {
  return isFicsGame(game) ? null : game - FIRST_CHESSLIVE_GAME;
}

/** A FICS game (the FICS pool can observe it), not a ChessLive! one. */
export function isFicsGame(game: GameId): game is GameNumber {
  return game <= LARGEST_GAME_NUMBER;
}

/** What was not a game id, as it came. */
export interface GameIdError {
  readonly kind: 'not-a-game-id';
  readonly input: string;
}

/** A number or a string of digits from outside (an option, a custom id, a row, a path) as a game id. */
export function parseGameId(input: unknown): Result<GameId, GameIdError> {
  const value =
    typeof input === 'number' ? input : typeof input === 'string' && DIGITS.test(input) ? Number(input) : NaN;
  if (isGameNumber(value)) return ok(value);
  if (Number.isInteger(value) && value >= FIRST_CHESSLIVE_GAME && value <= LARGEST_GAME_ID) {
    return ok(makeChessLiveGame(value - FIRST_CHESSLIVE_GAME));
  }
  return err({ kind: 'not-a-game-id', input: String(input).slice(0, 40) });
}

/** A ChessLive! game: its players are names from a file, not FICS handles. */
export function isChessLive(snapshot: Pick<GameSnapshot, 'source'>): boolean {
  return snapshot.source !== null;
}
