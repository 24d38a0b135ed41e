// Which source a game comes from. FICS numbers its games 1 to 999,999,999; ChessLive! sources are
// numbered above that range. The relay's maps, the stored posts and finished games, the buttons
// and the file names (`game-<n>.pgn`) are keyed by number, and a FICS game and a ChessLive! game
// may be live at once: with disjoint ranges a number names one game of one source, with no second
// key and no migration, and no FICS game is taken for a ChessLive! one. A snapshot names its
// ChessLive! source itself, so decisions about a game in hand ask the snapshot, not the number.
import { LARGEST_GAME_NUMBER } from '../protocol/game-number.js';
import type { GameSnapshot } from './snapshot.js';

/** Game number of the first configured ChessLive! source: one more than the largest FICS number. */
const FIRST_CHESSLIVE_GAME = LARGEST_GAME_NUMBER + 1;

/** The game number of the ChessLive! source at `index` (0-based, in configuration order). */
export function makeChessLiveGame(index: number): number {
  return FIRST_CHESSLIVE_GAME + index;
}

/** The index of the ChessLive! source a game number names, or null for a FICS number. */
export function parseChessLiveGame(game: number): number | null {
  return Number.isInteger(game) && game >= FIRST_CHESSLIVE_GAME ? game - FIRST_CHESSLIVE_GAME : null;
}

/** A ChessLive! game: its players are names from a file, not FICS handles. */
export function isChessLive(snapshot: Pick<GameSnapshot, 'source'>): boolean {
  return snapshot.source !== null;
}
