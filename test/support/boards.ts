// Builds server lines from chessops positions, for tests that script games.
import type { Position } from 'chessops/chess';
import { makeBoardFen } from 'chessops/fen';

export interface BoardLineOptions {
  game: number;
  white: string;
  black: string;
  /** Plies played so far, to number the move. */
  ply: number;
  verbose?: string;
  san?: string;
  whiteMs?: number;
  blackMs?: number;
  relation?: number;
}

/** A `<12>` line (33 tokens, ms clocks, as FatICS and freechess.org send them). */
export function style12Line(pos: Position, o: BoardLineOptions): string {
  const ranks = makeBoardFen(pos.board)
    .replace(/~/g, '')
    .replace(/\d/g, (n) => '-'.repeat(Number(n)))
    .split('/');
  const castles = pos.castles.castlingRights;
  const has = (sq: number): number => (castles.has(sq) ? 1 : 0);
  return [
    '<12>',
    ...ranks,
    pos.turn === 'white' ? 'W' : 'B',
    pos.epSquare === undefined ? -1 : pos.epSquare % 8,
    has(7),
    has(0),
    has(63),
    has(56),
    pos.halfmoves,
    o.game,
    o.white,
    o.black,
    o.relation ?? 0,
    5,
    0,
    39,
    39,
    o.whiteMs ?? 300_000,
    o.blackMs ?? 300_000,
    Math.floor(o.ply / 2) + 1,
    o.verbose ?? 'none',
    '(0:01.000)',
    o.san ?? 'none',
    0,
    1,
    0,
  ].join(' ');
}
