// MoveSteps: the ChessLive! way of writing a move as board edits without side effects.
// `from:to` copies a square (even an empty one) to another and clears the source; `x:to` puts a
// piece of type x on a square. Castling, en passant and promotion are spelled out step by step.
import type { Board } from 'chessops/board';
import { castlingSide } from 'chessops/chess';
import type { Position } from 'chessops/chess';
import { isDrop } from 'chessops/types';
import type { Color, Move, Role, Square } from 'chessops/types';
import { kingCastlesTo, makeSquare, roleToChar, rookCastlesTo } from 'chessops/util';

export type MoveStep = { from: Square; to: Square } | { drop: Role; to: Square };

/**
 * The steps for a legal move in `pos` (before the move). Castling moves the king first; when the
 * king lands on its rook's square (chess960) the rook is gone and is dropped on its square instead.
 */
export function stepsFor(pos: Position, move: Move): MoveStep[] {
  if (isDrop(move)) return [{ drop: move.role, to: move.to }];
  const side = castlingSide(pos, move);
  if (side) {
    const rookFrom = pos.castles.rook[pos.turn][side] ?? move.to;
    const kingTo = kingCastlesTo(pos.turn, side);
    const rookTo = rookCastlesTo(pos.turn, side);
    const steps: MoveStep[] = [];
    if (move.from !== kingTo) steps.push({ from: move.from, to: kingTo });
    if (rookFrom === kingTo) steps.push({ drop: 'rook', to: rookTo });
    else if (rookFrom !== rookTo) steps.push({ from: rookFrom, to: rookTo });
    return steps;
  }
  const steps: MoveStep[] = [{ from: move.from, to: move.to }];
  if (move.promotion) steps.push({ drop: move.promotion, to: move.to });
  if (pos.board.pawn.has(move.from) && move.to === pos.epSquare) {
    // The idiom `b5:c6:b5:c5`: copying the now empty start square clears the captured pawn.
    const capturedAt = move.to + (pos.turn === 'white' ? -8 : 8);
    steps.push({ from: move.from, to: capturedAt });
  }
  return steps;
}

/** The board after the steps. A dropped piece takes the mover's colour: piece ids are lower case. */
export function applySteps(board: Board, steps: readonly MoveStep[], mover: Color): Board {
  const after = board.clone();
  for (const step of steps) {
    if ('drop' in step) {
      after.set(step.to, { role: step.drop, color: mover });
    } else {
      // Copy, then clear the source: literally, so `e2:e2` empties e2.
      const piece = after.get(step.from);
      if (piece) after.set(step.to, piece);
      else after.take(step.to);
      after.take(step.from);
    }
  }
  return after;
}

export function formatSteps(steps: readonly MoveStep[]): string {
  return steps
    .map((step) =>
      'drop' in step
        ? `${roleToChar(step.drop)}:${makeSquare(step.to)}`
        : `${makeSquare(step.from)}:${makeSquare(step.to)}`,
    )
    .join(':');
}

/** Same pieces on the same squares (the crazyhouse "promoted" mark is not part of a board here). */
export function sameBoard(a: Board, b: Board): boolean {
  return (
    a.white.equals(b.white) &&
    a.black.equals(b.black) &&
    a.pawn.equals(b.pawn) &&
    a.knight.equals(b.knight) &&
    a.bishop.equals(b.bishop) &&
    a.rook.equals(b.rook) &&
    a.queen.equals(b.queen) &&
    a.king.equals(b.king)
  );
}

/** Squares whose contents differ between two boards. */
export function changedSquares(a: Board, b: Board): Set<Square> {
  const changed = new Set<Square>();
  for (const sq of a.occupied.union(b.occupied)) {
    const pa = a.get(sq);
    const pb = b.get(sq);
    if (pa?.role !== pb?.role || pa?.color !== pb?.color) changed.add(sq);
  }
  return changed;
}
