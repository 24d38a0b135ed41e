// A game's clocks over its moves as a chart scene (render/chart.ts), for the picture of a whole
// game that its final post carries.
import { parseFen } from 'chessops/fen';
import type { ChartScene } from '../../render/chart.js';
import { recordStartFen, type GameRecord } from './record.js';
import type { GameSnapshot } from './snapshot.js';

/** What a chart needs of a game. */
type ChartGame = Pick<GameSnapshot, 'white' | 'black' | 'startFen' | 'clocksMs'> & {
  /** Both clocks at the start, where the history starts at the game's start. */
  initialClockMs: number | null;
  evaluations?: (number | null)[];
};

/** The chart of a game's clocks; null when no clock of it is known (nothing to draw). */
function chartScene(game: ChartGame): ChartScene | null {
  if (!game.clocksMs.some((ms) => ms !== null)) return null;
  const setup = parseFen(game.startFen);
  return {
    white: game.white,
    black: game.black,
    firstMover: setup.isOk ? setup.value.turn : 'white',
    firstMoveNumber: setup.isOk ? setup.value.fullmoves : 1,
    clocksMs: game.clocksMs,
    initialClockMs: game.initialClockMs,
    ...(game.evaluations === undefined ? {} : { evaluations: game.evaluations }),
  };
}

/**
 * A snapshot's chart: its clocks start from the time control when its history is whole; with an
 * engine's evaluations (White's advantage in pawns after each ply) when it was analysed.
 */
export function snapshotChartScene(snap: GameSnapshot, evaluations?: (number | null)[]): ChartScene | null {
  const initialClockMs = snap.complete && snap.initialMinutes !== null ? snap.initialMinutes * 60_000 : null;
  return chartScene({ ...snap, initialClockMs, ...(evaluations === undefined ? {} : { evaluations }) });
}

/** A game read from a PGN or ChessLive! file: the clocks its moves carry. */
export function recordChartScene(record: GameRecord): ChartScene | null {
  return chartScene({ ...record, startFen: recordStartFen(record), initialClockMs: null });
}
