// The game as this module's file formats see it: players, rules, start position, moves with
// clocks, result. Built from a GameSnapshot, a ChessLive! move file or a PGN game.
import type { GameSnapshot } from '../game/snapshot.js';

/**
 * Rules the move files can carry. `bughouse` is one board of a bughouse pair: drops of any piece
 * are allowed because the pieces in hand come from the partner board, which one file does not show.
 */
export type LiveVariant = 'chess' | 'chess960' | 'crazyhouse' | 'bughouse';

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
  variant: LiveVariant;
  /** FEN the moves start from; absent for the variant's usual start (standard array, empty hands). */
  startFen?: string;
  moves: LiveMove[];
  result: LiveResult;
  /** Why the game ended (`GuestX resigns`), when known. */
  reason?: string;
}

/** Errors as values at this module's boundary. */
export type Result<T, E = string> = { ok: true; value: T } | { ok: false; error: E };

export const ok = <T>(value: T): { ok: true; value: T } => ({ ok: true, value });
export const err = <E>(error: E): { ok: false; error: E } => ({ ok: false, error });

/**
 * The snapshot's game in this module's model. FICS `wild/fr` is chess960; other wild types keep
 * standard rules from their start position; suicide, atomic and losers are refused because their
 * moves have effects (explosions, forced captures) these formats do not describe.
 */
export function fromSnapshot(snap: GameSnapshot): Result<LiveGame> {
  let variant: LiveVariant;
  switch (snap.variant) {
    case 'chess':
    case 'crazyhouse':
    case 'bughouse':
      variant = snap.variant;
      break;
    case 'wild':
      variant = snap.type === 'wild/fr' ? 'chess960' : 'chess';
      break;
    default:
      return err(`variant ${snap.variant} cannot be written as a move file`);
  }
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
