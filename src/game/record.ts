// A game's record: players, variant, start position, moves with clocks, result. What a PGN or
// ChessLive! file holds and what is written to one. A FICS game's snapshot extends it, so a
// snapshot is written as it is.
import { makeFen } from 'chessops/fen';
import type { Move } from 'chessops/types';
import { defaultPosition } from 'chessops/variant';
import type { GameResult } from '../protocol/events.js';
import { err, ok, type Result } from '../result.js';
import { parseUciMove, play, replayFen, sideName, startReplay, type Replay } from './moves.js';
import { fitsMoveFile, rulesFor, type Variant } from './variants.js';

export interface GameRecord {
  white: string;
  black: string;
  variant: Variant;
  /** FEN the moves start from; absent for the variant's usual start (standard array, empty hands). */
  startFen?: string;
  /** Each ply's SAN as chessops writes it, except pawn drops, written `P@e4` as FICS does. */
  san: string[];
  /**
   * Each ply's UCI: promotions `e7e8q`, drops `N@d5`; castling as the king's move (`e1g1`) except
   * in chess960 files, where it is the king taking its own rook (`f1g1` for a king on f1, rook on
   * g1). Chess960 moves are read in either form.
   */
  uci: string[];
  /** The mover's remaining clock after each ply, ms, where known. */
  clocksMs: (number | null)[];
  result: GameResult;
  /** Why the game ended (`GuestX resigns`); null while it runs or when unknown. */
  reason: string | null;
}

/** The FEN a record's moves start from: its own, or its variant's usual start. */
export function recordStartFen(record: Pick<GameRecord, 'variant' | 'startFen'>): string {
  return record.startFen ?? makeFen(defaultPosition(rulesFor(record.variant)).toSetup());
}

/**
 * Replays a record's UCI moves from its start, calling `visit` with each legal move before it is
 * played; the error names the first move that is not legal, or why the record cannot be replayed.
 */
export function replayRecord(
  game: GameRecord,
  visit: (replay: Replay, move: Move, ply: number) => void = () => {},
): Result<Replay> {
  if (!fitsMoveFile(game.variant)) return err(`variant ${game.variant} cannot be written as a move file`);
  if (game.san.length !== game.uci.length) {
    return err(`the game has ${game.san.length} SAN moves but ${game.uci.length} UCI moves`);
  }
  const start = startReplay(game.variant, game.startFen);
  if (!start.ok) return start;
  const replay = start.value;
  for (const [i, uci] of game.uci.entries()) {
    const move = parseUciMove(replay, uci);
    if (!move) {
      return err(
        `move ${i + 1} (${game.san[i]}): UCI "${uci}" is not a legal move for ${sideName(replay)} in ${replayFen(replay)}`,
      );
    }
    visit(replay, move, i);
    play(replay, move);
  }
  return ok(replay);
}
