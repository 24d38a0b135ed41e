// Scenes from what people type or paste: a FEN, or a Style 12 line as FICS sends it. Shared by
// the render CLI and /position; bad input is an error value naming what is wrong.
import { InvalidFen, parseFen } from 'chessops/fen';
import type { BoardScene, RenderResult } from '../../render/scene.js';
import { decodeStyle12 } from '../protocol/style12.js';
import { verboseToUci } from './moves.js';
import { fenOfSetup, setupFromStyle12 } from './position.js';

/** The position of a `<12>` line, its players and clocks, oriented by its flip field. */
export function style12Scene(line: string): RenderResult<BoardScene> {
  const board = decodeStyle12(line.trim());
  if (board.kind !== 'style12') return { ok: false, error: `not a Style 12 line: ${board.reason}` };
  const setup = setupFromStyle12(board, null);
  if (!setup) return { ok: false, error: 'the Style 12 ranks do not make a board' };
  return {
    ok: true,
    value: {
      fen: fenOfSetup(setup),
      orientation: board.flip ? 'black' : 'white',
      lastMove: board.verboseMove
        ? verboseToUci(board.verboseMove, board.sideToMove === 'white' ? 'black' : 'white')
        : null,
      lastSan: board.san,
      white: { name: board.white, clockMs: board.whiteClockMs },
      black: { name: board.black, clockMs: board.blackClockMs },
    },
  };
}

/** What is wrong with a FEN, in words (chessops names it with a code such as `ERR_TURN`). */
const FEN_FAULTS: Record<InvalidFen, string> = {
  [InvalidFen.Fen]: 'it does not have the fields of a FEN',
  [InvalidFen.Board]:
    'the pieces are wrong: eight ranks from 8 to 1 separated by "/", each of 8 squares (pnbrqk for Black, PNBRQK for White, a digit for empty squares)',
  [InvalidFen.Pockets]: 'the pieces in hand (in brackets) are wrong: only pnbrq and PNBRQ',
  [InvalidFen.Turn]: 'the side to move is neither "w" nor "b"',
  [InvalidFen.Castling]: 'the castling rights are neither "-" nor letters from KQkq',
  [InvalidFen.EpSquare]: 'the en passant square is neither "-" nor a square such as "e3"',
  [InvalidFen.RemainingChecks]: 'the remaining checks (three-check) are wrong',
  [InvalidFen.Halfmoves]: 'the halfmove clock is not a whole number',
  [InvalidFen.Fullmoves]: 'the move number is not a whole number from 1',
};

/** A FEN's position, White at the bottom. The FEN is checked here, with the renderer's wording. */
export function fenScene(fen: string): RenderResult<BoardScene> {
  const parsed = parseFen(fen.trim());
  if (parsed.isErr) {
    const fault = FEN_FAULTS[parsed.error.message as InvalidFen] ?? 'it cannot be read';
    return { ok: false, error: `invalid FEN "${fen}": ${fault}` };
  }
  return {
    ok: true,
    value: {
      fen: fen.trim(),
      // A FEN with [pockets] is a crazyhouse position.
      rules: parsed.value.pockets !== undefined ? 'crazyhouse' : 'chess',
      orientation: 'white',
      white: { name: 'White' },
      black: { name: 'Black' },
    },
  };
}
