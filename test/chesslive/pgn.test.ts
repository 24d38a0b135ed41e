// PGN in and out, and games taken from a GameSnapshot.
import { describe, expect, it } from 'vitest';
import type { GameSnapshot } from '../../src/game/snapshot.js';
import { makeChessLive, parseChessLive } from '../../src/chesslive/index.js';
import { makePgn, parsePgn } from '../../src/game/pgn.js';
import { replayRecord, type GameRecord } from '../../src/game/record.js';
import { variantFromType } from '../../src/game/variants.js';
import { replayFen } from '../../src/game/moves.js';
import { gameFromSan } from './build-game.js';
import { truthRecord, truthGames } from './fics-games.js';
import { gameId } from '../support/fics-values.js';

function pgnOf(game: GameRecord): string {
  const pgn = makePgn(game);
  if (!pgn.ok) throw new Error(pgn.error);
  return pgn.value;
}

function onlyGame(text: string): GameRecord {
  const games = parsePgn(text);
  if (!games.ok) throw new Error(games.error);
  expect(games.value).toHaveLength(1);
  return games.value[0]!;
}

describe('PGN round trip of real FICS games', () => {
  it.each(truthGames.map((g) => [g.id, g] as const))('%s', (_id, truth) => {
    const game = truthRecord(truth, true);
    game.clocksMs = game.uci.map((_, i) => (i * 7919) % 400_000); // ms survive [%clk]
    const back = onlyGame(pgnOf(game));
    expect(back).toEqual(game);
  });
});

describe('ChessLive! <-> PGN', () => {
  it('gives the same move file after a trip through PGN', () => {
    for (const truth of truthGames.filter((g) => g.variant !== 'bughouse')) {
      const file = makeChessLive(truthRecord(truth, true));
      if (!file.ok) throw new Error(file.error);
      const read = parseChessLive(file.value, { variant: truth.variant });
      if (!read.ok) throw new Error(read.error.message);
      expect(makeChessLive(onlyGame(pgnOf(read.value.game)))).toEqual(file);
    }
  });

  it('reads a FICS-style PGN: clocks, the end reason, the final position', () => {
    const game = onlyGame(`[Event "FICS rated blitz game"]
[White "GuestA"]
[Black "GuestB"]
[Result "0-1"]

1. f3 {[%clk 0:02:59.9]} e5 {[%clk 0:02:58]} 2. g4 Qh4# {[%clk 0:02:57.25]} {GuestA checkmated} 0-1
`);
    expect(game).toEqual({
      white: 'GuestA',
      black: 'GuestB',
      variant: 'chess',
      result: '0-1',
      reason: 'GuestA checkmated',
      san: ['f3', 'e5', 'g4', 'Qh4#'],
      uci: ['f2f3', 'e7e5', 'g2g4', 'd8h4'],
      clocksMs: [179_900, 178_000, null, 177_250],
    });
    const replay = replayRecord(game);
    expect(replay.ok && replayFen(replay.value)).toBe(
      'rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3',
    );
  });

  it('writes chess960 and crazyhouse with Variant and FEN headers and reads them back', () => {
    const startFen = 'rbbqnkrn/pppppppp/8/8/8/8/PPPPPPPP/RBBQNKRN w GAga - 0 1';
    const fr = gameFromSan('chess960', ['O-O', 'O-O'], { startFen });
    const text = pgnOf(fr);
    expect(text).toContain('[Variant "Chess960"]');
    expect(pgnOf({ ...fr, result: '1-0', reason: 'B resigns' })).toContain('[Termination "B resigns"]');
    expect(text).toContain(`[FEN "${startFen}"]`);
    expect(onlyGame(text)).toEqual(fr);
    const zh = gameFromSan('crazyhouse', ['e4', 'd5', 'exd5', 'Qxd5', 'P@e4', 'P@e5'], { clocks: false });
    expect(pgnOf(zh)).toContain('[Variant "Crazyhouse"]');
    expect(onlyGame(pgnOf(zh))).toEqual(zh);
  });

  it('reads every game of a PGN file', () => {
    const games = parsePgn('[White "A"]\n\n1. e4 *\n\n[White "C"]\n\n1. d4 d5 1/2-1/2\n');
    expect(games.ok && games.value.map((g) => [g.white, g.uci.length, g.result])).toEqual([
      ['A', 1, '*'],
      ['C', 2, '1/2-1/2'],
    ]);
  });

  it.each([
    ['', 'no PGN game found'],
    [
      '1. e4 e5 2. Ke3 *',
      'PGN game 1: ply 3 (2. Ke3): not a legal move for White in rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2',
    ],
    [
      '[White "A"]\n\n1. e4 e5 2. Nf9 {a comment; with Nf9} *',
      'line 3: "Nf9" is not a move, comment or result',
    ],
    ['some garbage', 'line 1: "some" is not a move, comment or result'],
    ['[White "A]\n\n1. e4 *', 'line 1: "[White "A]" is not a PGN header ([Name "value"])'],
    ['[Result "2-0"]\n\n1. e4', 'line 1: Result "2-0" is not 1-0, 0-1, 1/2-1/2 or *'],
    [
      '[Variant "Atomic"]\n\n1. e4 *',
      'PGN game 1: variant "Atomic" is not one of chess, chess960, crazyhouse, bughouse',
    ],
    ['[FEN "8/8/8 w - - 0 1"]\n\n*', /^PGN game 1: start FEN "8\/8\/8 w - - 0 1" is not a FEN/],
  ])('refuses %j', (text, message) => {
    const games = parsePgn(text);
    expect(games.ok).toBe(false);
    if (!games.ok) expect(games.error).toMatch(message);
  });
});

function snapshot(overrides: Partial<GameSnapshot>): GameSnapshot {
  return {
    key: '12:1',
    game: gameId(12),
    white: 'GuestA',
    black: 'GuestB',
    whiteRating: null,
    blackRating: null,
    variant: 'chess',
    rated: false,
    type: 'blitz',
    initialMinutes: 3,
    incrementSec: 0,
    startFen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
    san: ['e4', 'e5'],
    uci: ['e2e4', 'e7e5'],
    moveTimesMs: [0, 1200],
    clocksMs: [180_000, 178_800],
    fen: 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2',
    sideToMove: 'white',
    whiteClockMs: 180_000,
    blackClockMs: 178_800,
    clockTicking: true,
    holdings: null,
    partnerGame: null,
    check: false,
    flip: false,
    result: '1-0',
    reason: 'GuestB resigns',
    ended: true,
    complete: true,
    needs: null,
    source: null,
    mode: 'played',
    opening: null,
    ...overrides,
  };
}

describe('a snapshot is a game record', () => {
  it('is written as it is: players, moves with clocks, result and reason', () => {
    expect(makeChessLive(snapshot({}))).toEqual({
      ok: true,
      value: 'GuestA;GuestB;e2:e4/0/0/180/;e7:e5/0/0/178/;+;GuestB resigns',
    });
    const pgn = makePgn(snapshot({}));
    expect(pgn.ok && pgn.value).toContain('1. e4 { [%clk 0:03:00] } e5 { [%clk 0:02:58.8] } 1-0');
  });

  it('of a FICS wild/fr game is chess960; variants whose moves have side effects are refused', () => {
    const fr = snapshot({
      variant: variantFromType('wild/fr'),
      type: 'wild/fr',
      startFen: 'rbbqnkrn/pppppppp/8/8/8/8/PPPPPPPP/RBBQNKRN w KQkq - 0 1',
      san: ['O-O'],
      uci: ['f1g1'],
      clocksMs: [null],
      result: '*',
      reason: null,
    });
    expect(fr.variant).toBe('chess960');
    expect(makeChessLive(fr)).toEqual({ ok: true, value: 'GuestA;GuestB;f1:g1:r:f1' });
    expect(makeChessLive(snapshot({ variant: 'atomic' }))).toEqual({
      ok: false,
      error: 'variant atomic cannot be written as a move file',
    });
    expect(makeChessLive(snapshot({ uci: ['e2e4'] })).ok).toBe(false);
  });
});
