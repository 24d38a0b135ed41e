// A game's record: players, rules, start position, moves with clocks, result. What a PGN or
// ChessLive! file holds and what is written to one; a FICS game's snapshot gives one.
import { makeFen } from 'chessops/fen';
import type { Move } from 'chessops/types';
import { defaultPosition } from 'chessops/variant';
import type { GameResult } from '../protocol/events.js';
import { err, ok, type Result } from '../result.js';
import { parseUciMove, play, replayFen, sideName, startReplay, type Replay } from './moves.js';
import type { GameSnapshot } from './snapshot.js';
import { fileRules, fileVariantOf, type FileVariant } from './variants.js';

export interface RecordMove {
  /** SAN as chessops writes it, except pawn drops, written `P@e4` as FICS does. */
  san: string;
  /**
   * UCI: promotions `e7e8q`, drops `N@d5`; castling as the king's move (`e1g1`) except in
   * chess960, where it is the king taking its own rook (`f1g1` for a king on f1, rook on g1).
   */
  uci: string;
  /** The mover's remaining clock after the move, ms; null or absent when unknown. */
  clockMs?: number | null;
}

export interface GameRecord {
  white: string;
  black: string;
  variant: FileVariant;
  /** FEN the moves start from; absent for the variant's usual start (standard array, empty hands). */
  startFen?: string;
  moves: RecordMove[];
  result: GameResult;
  /** Why the game ended (`GuestX resigns`), when known. */
  reason?: string;
}

/** The FEN a record's moves start from: its own, or its variant's usual start. */
export function recordStartFen(record: GameRecord): string {
  return record.startFen ?? makeFen(defaultPosition(fileRules(record.variant)).toSetup());
}

/** The snapshot's game as a record, if its variant can be written to a move file. */
export function recordFromSnapshot(snap: GameSnapshot): Result<GameRecord> {
  const variant = fileVariantOf(snap.variant, snap.type);
  if (variant === null) return err(`variant ${snap.variant} cannot be written as a move file`);
  if (snap.san.length !== snap.uci.length) {
    return err(
      `snapshot of game ${snap.key} has ${snap.san.length} SAN moves but ${snap.uci.length} UCI moves`,
    );
  }
  const moves = snap.uci.map((uci, i) => ({
    san: snap.san[i] ?? '',
    uci,
    clockMs: snap.clocksMs[i] ?? null,
  }));
  const record: GameRecord = {
    white: snap.white,
    black: snap.black,
    variant,
    startFen: snap.startFen,
    moves,
    result: snap.result,
  };
  if (snap.reason !== null) record.reason = snap.reason;
  return ok(record);
}

/** The legal move for a game's move `index` (0-based), or an error naming it and the position. */
export function gameMove(replay: Replay, m: RecordMove, index: number): Result<Move> {
  const move = parseUciMove(replay, m.uci);
  if (move) return ok(move);
  return err(
    `move ${index + 1} (${m.san}): UCI "${m.uci}" is not a legal move for ${sideName(replay)} in ${replayFen(replay)}`,
  );
}

/** Replays a game's UCI moves from its start; the error names the first move that is not legal. */
export function replayRecord(game: GameRecord): Result<Replay> {
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
