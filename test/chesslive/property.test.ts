// Random legal games made with chessops alone survive ChessLive! and PGN round trips.
import fc from 'fast-check';
import { castlingSide } from 'chessops/chess';
import type { Position } from 'chessops/chess';
import { makeFen } from 'chessops/fen';
import { makeSanAndPlay } from 'chessops/san';
import { SquareSet } from 'chessops/squareSet';
import type { Move, Role } from 'chessops/types';
import { describe, expect, it } from 'vitest';
import type { GameRecord } from '../../src/game/record.js';
import type { FileVariant } from '../../src/game/variants.js';
import { makeChessLive, parseChessLive } from '../../src/chesslive/index.js';
import { makePgn, parsePgn } from '../../src/game/pgn.js';
import { startPosition, uciOf } from './build-game.js';

/** Chess960 start position number n (0..959), by Scharnagl's numbering. */
function chess960Fen(n: number): string {
  const rank: string[] = Array<string>(8).fill('');
  rank[(n % 4) * 2 + 1] = 'b';
  n = Math.floor(n / 4);
  rank[(n % 4) * 2] = 'b';
  n = Math.floor(n / 4);
  const free = () => rank.flatMap((p, i) => (p === '' ? [i] : []));
  rank[free()[n % 6]!] = 'q';
  n = Math.floor(n / 6);
  const knights = [
    [0, 1],
    [0, 2],
    [0, 3],
    [0, 4],
    [1, 2],
    [1, 3],
    [1, 4],
    [2, 3],
    [2, 4],
    [3, 4],
  ][n]!;
  const beforeKnights = free();
  for (const k of knights) rank[beforeKnights[k]!] = 'n';
  const [r1, k, r2] = free() as [number, number, number];
  rank[r1] = 'r';
  rank[k] = 'k';
  rank[r2] = 'r';
  const black = rank.join('');
  return `${black}/pppppppp/8/8/8/8/PPPPPPPP/${black.toUpperCase()} w KQkq - 0 1`;
}

function legalMoves(pos: Position): Move[] {
  const moves: Move[] = [];
  for (const [from, dests] of pos.allDests()) {
    for (const to of dests) {
      if (pos.board.pawn.has(from) && SquareSet.backranks().has(to)) {
        for (const promotion of ['queen', 'rook', 'bishop', 'knight'] as Role[])
          moves.push({ from, to, promotion });
      } else moves.push({ from, to });
    }
  }
  const hand = pos.pockets?.[pos.turn];
  for (const role of ['pawn', 'knight', 'bishop', 'rook', 'queen'] as Role[]) {
    if (!hand || hand[role] <= 0) continue;
    for (const to of pos.dropDests())
      if (role !== 'pawn' || !SquareSet.backranks().has(to)) moves.push({ role, to });
  }
  return moves;
}

interface Generated {
  /** The game's variant, as a move file reader is told it. */
  variant: FileVariant;
  game: GameRecord;
  fen: string;
}

/** A random game: each choice picks a legal move, castling whenever the choice is a multiple of 3. */
function randomGame(variant: FileVariant, startFen: string | undefined, choices: number[]): Generated {
  const pos = startPosition(variant, startFen);
  const game: GameRecord = {
    white: 'White',
    black: 'Black',
    variant,
    san: [],
    uci: [],
    clocksMs: [],
    result: '*',
    reason: null,
  };
  for (const [i, choice] of choices.entries()) {
    const legal = legalMoves(pos);
    if (legal.length === 0) break;
    const castles = legal.filter((m) => castlingSide(pos, m));
    const pool = castles.length > 0 && choice % 3 === 0 ? castles : legal;
    const move = pool[choice % pool.length]!;
    const uci = uciOf(pos, move, variant);
    const san = makeSanAndPlay(pos, move);
    game.san.push(san.startsWith('@') ? `P${san}` : san);
    game.uci.push(uci);
    game.clocksMs.push(i % 5 === 4 ? null : choice * 1000);
  }
  if (startFen !== undefined) game.startFen = startFen;
  return { game, variant, fen: makeFen(pos.toSetup()) };
}

const arbitraryGame = fc
  .oneof(
    fc.record({ variant: fc.constant<FileVariant>('chess'), start: fc.constant(undefined) }),
    fc.record({ variant: fc.constant<FileVariant>('crazyhouse'), start: fc.constant(undefined) }),
    fc.record({
      variant: fc.constant<FileVariant>('chess960'),
      start: fc.integer({ min: 0, max: 959 }).map(chess960Fen),
    }),
  )
  .chain(({ variant, start }) =>
    fc
      .array(fc.nat({ max: 9999 }), { minLength: 0, maxLength: 100, size: 'max' })
      .map((choices) => randomGame(variant, start, choices)),
  );

describe('random legal games', () => {
  it('read back from their move file with the same SAN, UCI, clocks and final position', () => {
    fc.assert(
      fc.property(arbitraryGame, ({ game, variant, fen }) => {
        const file = makeChessLive(game);
        if (!file.ok) throw new Error(file.error);
        const read = parseChessLive(file.value, {
          variant,
          ...(game.startFen !== undefined && { startFen: game.startFen }),
        });
        if (!read.ok) throw new Error(`${read.error.message}\n${file.value}`);
        expect(read.value.game).toEqual(game);
        expect(read.value.fen).toBe(fen);
        expect(makeChessLive(read.value.game)).toEqual(file);
      }),
      { numRuns: 60 },
    );
  });

  it('read back from PGN unchanged', () => {
    fc.assert(
      fc.property(arbitraryGame, ({ game }) => {
        const pgn = makePgn(game);
        if (!pgn.ok) throw new Error(pgn.error);
        const back = parsePgn(pgn.value);
        if (!back.ok) throw new Error(back.error);
        expect(back.value).toEqual([game]);
      }),
      { numRuns: 40 },
    );
  });

  it('cut anywhere, a growing file gives a prefix of the moves', () => {
    fc.assert(
      fc.property(arbitraryGame, fc.double({ min: 0, max: 1, noNaN: true }), ({ game, variant }, cut) => {
        const file = makeChessLive(game);
        if (!file.ok) throw new Error(file.error);
        const text = file.value.slice(0, Math.floor(cut * file.value.length));
        const read = parseChessLive(text, {
          variant,
          growing: true,
          ...(game.startFen !== undefined && { startFen: game.startFen }),
        });
        if (!read.ok) throw new Error(read.error.message);
        const complete = Math.max(0, text.split(';').length - 3);
        expect(read.value.game).toMatchObject({
          san: game.san.slice(0, complete),
          uci: game.uci.slice(0, complete),
          clocksMs: game.clocksMs.slice(0, complete),
        });
      }),
      { numRuns: 60 },
    );
  });
});
