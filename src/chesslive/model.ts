// The game as this module's file formats see it: players, rules, start position, moves with
// clocks, result. Built from a GameSnapshot, a ChessLive! move file or a PGN game.
import type { GameSnapshot } from '../game/snapshot.js';
import { fileVariantOf, type FileVariant } from '../game/variants.js';
import { err, ok, type Result } from '../result.js';

export type LiveResult = '1-0' | '0-1' | '1/2-1/2' | '*';

export interface LiveMove {
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

export interface LiveGame {
  white: string;
  black: string;
  variant: FileVariant;
  /** FEN the moves start from; absent for the variant's usual start (standard array, empty hands). */
  startFen?: string;
  moves: LiveMove[];
  result: LiveResult;
  /** Why the game ended (`GuestX resigns`), when known. */
  reason?: string;
}

/** The snapshot's game in this module's model, if its variant can be written as a move file. */
export function fromSnapshot(snap: GameSnapshot): Result<LiveGame> {
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
  const game: LiveGame = {
    white: snap.white,
    black: snap.black,
    variant,
    startFen: snap.startFen,
    moves,
    result: snap.result,
  };
  if (snap.reason !== null) game.reason = snap.reason;
  return ok(game);
}
