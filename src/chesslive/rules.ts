// A move file's game replayed by the rules of its variant (src/game/moves.ts).
import type { Move } from 'chessops/types';
import { parseUciMove, play, replayFen, sideName, startReplay, type Replay } from '../game/moves.js';
import { err, ok, type Result } from '../result.js';
import type { LiveGame, LiveMove } from './model.js';

/** The legal move for a game's move `index` (0-based), or an error naming it and the position. */
export function gameMove(replay: Replay, m: LiveMove, index: number): Result<Move> {
  const move = parseUciMove(replay, m.uci);
  if (move) return ok(move);
  return err(
    `move ${index + 1} (${m.san}): UCI "${m.uci}" is not a legal move for ${sideName(replay)} in ${replayFen(replay)}`,
  );
}

/** Replays a game's UCI moves from its start; the error names the first move that is not legal. */
export function replayGame(game: LiveGame): Result<Replay> {
  const start = startReplay(game.variant, game.startFen);
  if (!start.ok) return start;
  const replay = start.value;
  for (const [i, m] of game.moves.entries()) {
    const move = gameMove(replay, m, i);
    if (!move.ok) return move;
    play(replay, move.value);
  }
  return ok(replay);
}
