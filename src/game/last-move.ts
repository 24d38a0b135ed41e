// Whether a UCI move can be the one that led to a position: the move a board picture marks as the
// last. The position before it is not known (a capture leaves no trace), so this checks what the
// position does show: the mover's piece on the destination, the origin empty, and a path from one to
// the other as that piece moves.
import { attacks, pawnAttacks } from 'chessops/attacks';
import { parseFen } from 'chessops/fen';
import { isDrop, type Color, type Role } from 'chessops/types';
import { makeSquare, opposite, parseUci, squareFile, squareRank } from 'chessops/util';
import type { Board } from 'chessops/board';
import { err, ok, type Result } from '../result.js';

/** Ok when `uci` can be the last move played to reach `fen`; else why not, in words. */
export function checkLastMove(fen: string, uci: string): Result<void> {
  const setup = parseFen(fen.trim());
  if (setup.isErr) return err(`invalid FEN "${fen}"`);
  const move = parseUci(uci);
  if (!move) return err(`invalid last move "${uci}" (expected UCI like e2e4)`);
  const { board } = setup.value;
  const mover = opposite(setup.value.turn);
  const cannot = (why: string) => err(`last move ${uci} cannot have led to this position: ${why}`);
  const piece = board.get(move.to);
  if (piece === undefined || piece.color !== mover)
    return cannot(`no ${mover} piece on ${makeSquare(move.to)}`);
  if (isDrop(move)) {
    return piece.role === move.role
      ? ok(undefined)
      : cannot(`the piece on ${makeSquare(move.to)} is a ${piece.role}`);
  }
  if (board.occupied.has(move.from)) return cannot(`${makeSquare(move.from)} is not empty`);
  if (move.promotion !== undefined && piece.role !== move.promotion) {
    return cannot(`the piece on ${makeSquare(move.to)} is a ${piece.role}, not a ${move.promotion}`);
  }
  const role: Role = move.promotion === undefined ? piece.role : 'pawn';
  const reaches =
    role === 'pawn'
      ? pawnReaches(board, mover, move.from, move.to, move.promotion !== undefined)
      : role === 'king'
        ? attacks(piece, move.from, board.occupied).has(move.to) || castled(board, mover, move.from, move.to)
        : attacks(piece, move.from, board.occupied).has(move.to);
  return reaches
    ? ok(undefined)
    : cannot(`a ${role} cannot move from ${makeSquare(move.from)} to ${makeSquare(move.to)}`);
}

/** A pawn's step, double step from its first rank, or capture; a promotion ends on the last rank. */
function pawnReaches(board: Board, color: Color, from: number, to: number, promotes: boolean): boolean {
  const forward = color === 'white' ? 8 : -8;
  const lastRank = color === 'white' ? 7 : 0;
  if ((squareRank(to) === lastRank) !== promotes) return false;
  if (pawnAttacks(color, from).has(to)) return true;
  if (to === from + forward) return true;
  const firstRank = color === 'white' ? 1 : 6;
  return squareRank(from) === firstRank && to === from + 2 * forward && !board.occupied.has(from + forward);
}

/** Castling written as the king's move (e1g1): two files along its home rank, its rook beside it. */
function castled(board: Board, color: Color, from: number, to: number): boolean {
  const home = color === 'white' ? 0 : 7;
  if (squareRank(from) !== home || squareRank(to) !== home || Math.abs(from - to) !== 2) return false;
  const rook = board.get((from + to) / 2);
  return rook?.role === 'rook' && rook.color === color && squareFile(from) === 4;
}
