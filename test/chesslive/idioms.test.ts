// The grammar's idioms, written and read back: castling both ways, en passant, promotions and
// underpromotions, crazyhouse drops, chess960 castlings (king onto its rook's square included).
import { describe, expect, it } from 'vitest';
import type { GameRecord } from '../../src/game/record.js';
import type { FileVariant } from '../../src/game/variants.js';
import { parseChessLive, makeChessLive } from '../../src/chesslive/index.js';
import { gameFromSan, plyOf } from './build-game.js';
import { truthRecord, truthGames } from './fics-games.js';

function write(game: GameRecord): string {
  const written = makeChessLive(game);
  if (!written.ok) throw new Error(written.error);
  return written.value;
}

/** The MoveSpec fields of a written file (players and result left out). */
function specs(file: string): string[] {
  return file
    .split(';')
    .slice(2)
    .filter((f) => f.includes(':'));
}

function readBack(file: string, variant: FileVariant, startFen?: string) {
  const read = parseChessLive(file, { variant, ...(startFen !== undefined && { startFen }) });
  if (!read.ok) throw new Error(read.error.message);
  return read.value;
}

describe('standard idioms', () => {
  it('writes castling as king step then rook step, both ways, with O-O / O-O-O tags', () => {
    const sans = ['e4', 'e5', 'Nf3', 'Nc6', 'Bc4', 'Bc5', 'O-O', 'Nf6', 'd3', 'd6'];
    const more = ['Bg5', 'Bg4', 'Nc3', 'Qd7', 'Qd2', 'O-O-O'];
    const game = gameFromSan('chess', [...sans, ...more]);
    const fields = specs(write(game));
    expect(fields[6]).toBe('e1:g1:h1:f1/0/0/54/O-O');
    expect(fields[15]).toBe('e8:c8:a8:d8/0/0/45/O-O-O');
    const read = readBack(write(game), 'chess');
    expect(read.game.uci).toEqual(game.uci);
    expect(plyOf(read.game, 6)).toMatchObject({ san: 'O-O', uci: 'e1g1', clockMs: 54_000 });
    expect(plyOf(read.game, 15)).toMatchObject({ san: 'O-O-O', uci: 'e8c8' });
    expect(read.fen).toBe('2kr3r/pppq1ppp/2np1n2/2b1p1B1/2B1P1b1/2NP1N2/PPPQ1PPP/R4RK1 w - - 6 9');
  });

  it('writes en passant by copying the emptied start square onto the captured pawn', () => {
    const game = gameFromSan('chess', [
      'e4',
      'a6',
      'e5',
      'd5',
      'exd6',
      'h6',
      'a4',
      'b5',
      'a5',
      'b4',
      'c4',
      'bxc3',
    ]);
    const fields = specs(write(game));
    expect(fields[4]).toBe('e5:d6:e5:d5/0/0/56/ex');
    expect(fields[11]).toBe('b4:c3:b4:c4/0/0/49/bx');
    const read = readBack(write(game), 'chess');
    expect(read.game.san).toEqual(game.san);
    expect(read.fen).toBe('rnbqkbnr/2p1ppp1/p2P3p/P7/8/2p5/1P1P1PPP/RNBQKBNR w KQkq - 0 7');
  });

  it('writes promotions as the pawn step then a drop of the new piece; suffixes come back from the position', () => {
    const startFen = '1r5k/P1P5/8/8/8/8/8/K7 w - - 0 1';
    const game = gameFromSan('chess', ['axb8=N', 'Kg7', 'c8=R'], { startFen });
    expect(specs(write(game))).toEqual(['a7:b8:n:b8/0/0/60/ax', 'h8:g7/0/0/59/K', 'c7:c8:r:c8/0/0/58/']);
    const read = readBack(write(game), 'chess', startFen);
    expect(read.game.san.map((san, i) => `${san} ${read.game.uci[i]}`)).toEqual([
      'axb8=N a7b8n',
      'Kg7 h8g7',
      'c8=R c7c8r',
    ]);

    const checking = gameFromSan('chess', ['a8=Q+'], { startFen: '7k/P7/8/8/8/8/8/K7 w - - 0 1' });
    expect(specs(write(checking))).toEqual(['a7:a8:q:a8/0/0/60/']);
    const readChecking = readBack(write(checking), 'chess', '7k/P7/8/8/8/8/8/K7 w - - 0 1');
    expect(plyOf(readChecking.game, 0)).toMatchObject({ san: 'a8=Q+', uci: 'a7a8q' });
  });

  it('writes real FICS underpromotions and promotions that capture', () => {
    const m01 = truthGames.find((g) => g.id === 'fatics_master_seq/M01')!;
    const file = write(truthRecord(m01, false));
    expect(specs(file)).toContain('f7:f8:n:f8'); // f8=N+
    const z01 = truthGames.find((g) => g.id === 'lasker_crazyhouse/Z01')!;
    expect(specs(write(truthRecord(z01, false)))).toContain('d2:c1:n:c1'); // dxc1=N
  });

  it('tags disambiguated moves with the SAN before the square', () => {
    const m01 = truthGames.find((g) => g.id === 'fatics_master_seq/M01')!;
    const fields = specs(write(truthRecord(m01, true)));
    expect(fields).toContain('g1:f3/0/0/270/Ng');
    expect(fields).toContain('d1:g1/0/0/266/Rd');
  });
});

describe('crazyhouse drops', () => {
  it('writes a drop as piece id to square, in the mover’s colour, tagged N@ / P@', () => {
    const game = gameFromSan('crazyhouse', ['e4', 'Nf6', 'Nc3', 'Nxe4', 'Nxe4', 'P@e5', 'N@f6+', 'gxf6']);
    const fields = specs(write(game));
    expect(fields[5]).toBe('p:e5/0/0/55/P@');
    expect(fields[6]).toBe('n:f6/0/0/54/N@');
    const read = readBack(write(game), 'crazyhouse');
    expect([plyOf(read.game, 5), plyOf(read.game, 6)]).toMatchObject([
      { san: 'P@e5', uci: 'P@e5' },
      { san: 'N@f6+', uci: 'N@f6' },
    ]);
    expect(read.fen).toBe('rnbqkb1r/pppppp1p/5p2/4p3/4N3/8/PPPP1PPP/R1BQKBNR[n] w KQkq - 0 5');
  });

  it('refuses a drop of a piece the mover does not hold', () => {
    const read = parseChessLive('W;B;e2:e4;q:e5', { variant: 'crazyhouse' });
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.error.message).toMatch(/move 2 \(field 4\): no legal move for Black/);
  });
});

describe('chess960 castling', () => {
  const cases = [
    // King f1 lands on its rook's square g1: the rook is dropped on f1.
    [
      'O-O onto the rook square, from a 960 start',
      'rbbqnkrn/pppppppp/8/8/8/8/PPPPPPPP/RBBQNKRN w GAga - 0 1',
      'f1:g1:r:f1',
      'f1g1',
    ],
    ['O-O with king e1 landing on the rook on g1', '1k6/8/8/8/8/8/8/4K1R1 w G - 0 1', 'e1:g1:r:f1', 'e1g1'],
    ['O-O-O with king and rook swapping squares', '1k6/8/8/8/8/8/8/2RK4 w C - 0 1', 'd1:c1:r:d1', 'd1c1'],
    ['O-O-O from b1', '1k6/8/8/8/8/8/8/RK5R w AH - 0 1', 'b1:c1:a1:d1', 'b1a1'],
    ['O-O from b1, king passing its other rook', '1k6/8/8/8/8/8/8/RK5R w AH - 0 1', 'b1:g1:h1:f1', 'b1h1'],
    ['O-O where only the rook moves', '1k6/8/8/8/8/8/8/6KR w H - 0 1', 'h1:f1', 'g1h1'],
  ] as const;

  it.each(cases)('%s', (name, startFen, steps, uci) => {
    const game = gameFromSan('chess960', [name.startsWith('O-O-O') ? 'O-O-O' : 'O-O'], { startFen });
    const file = write(game);
    expect(specs(file)).toEqual([`${steps}/0/0/60/${name.startsWith('O-O-O') ? 'O-O-O' : 'O-O'}`]);
    const read = readBack(file, 'chess960', startFen);
    expect(read.game.uci[0]).toBe(uci);
    expect(read.game.san[0]).toBe(name.startsWith('O-O-O') ? 'O-O-O' : 'O-O');
  });

  it('accepts castling written as the king’s move, unless that is a legal king step', () => {
    const base = {
      white: 'W',
      black: 'B',
      variant: 'chess960' as const,
      clocksMs: [null],
      result: '*' as const,
      reason: null,
    };
    const startFen = '1k6/8/8/8/8/8/8/4K2R w H - 0 1';
    const kingMove = makeChessLive({ ...base, startFen, san: ['O-O'], uci: ['e1g1'] });
    expect(kingMove).toEqual({ ok: true, value: 'W;B;e1:g1:h1:f1' });
    expect(readBack('W;B;e1:g1:h1:f1', 'chess960', startFen).game.uci[0]).toBe('e1h1');
    const besideRook = '1k6/8/8/8/8/8/8/5K1R w H - 0 1';
    const step = makeChessLive({ ...base, startFen: besideRook, san: ['Kg1'], uci: ['f1g1'] });
    expect(step).toEqual({ ok: true, value: 'W;B;f1:g1' });
    const castle = makeChessLive({ ...base, startFen: besideRook, san: ['O-O'], uci: ['f1h1'] });
    expect(castle).toEqual({ ok: true, value: 'W;B;f1:g1:h1:f1' });
  });

  it('keeps both sides castling in a 960 game', () => {
    const startFen = 'rbbqnkrn/pppppppp/8/8/8/8/PPPPPPPP/RBBQNKRN w GAga - 0 1';
    const read = readBack(write(gameFromSan('chess960', ['O-O', 'O-O'], { startFen })), 'chess960', startFen);
    expect(read.fen).toBe('rbbqnrkn/pppppppp/8/8/8/8/PPPPPPPP/RBBQNRKN w - - 2 2');
  });
});

describe('Time field', () => {
  it('writes whole seconds rounded down, 0 for a negative clock, and reads seconds as ms', () => {
    const game = gameFromSan('chess', ['e4', 'e5']);
    game.clocksMs = [59_999, -1200];
    expect(specs(write(game))).toEqual(['e2:e4/0/0/59/', 'e7:e5/0/0/0/']);
    const read = parseChessLive('W;B;e2:e4/12/-35/12.5/;e7:e5/0/0/7');
    expect(read.ok && read.value.game.clocksMs).toEqual([12_500, 7000]);
  });

  it('writes a move with an unknown clock as bare steps, read back with a null clock', () => {
    const game = gameFromSan('chess', ['e4', 'e5'], { clocks: false });
    game.result = '1/2-1/2';
    game.reason = 'Game drawn by mutual agreement';
    const file = write(game);
    expect(file).toBe('W;B;e2:e4;e7:e5;=;Game drawn by mutual agreement');
    const read = readBack(file, 'chess');
    expect(read.game).toMatchObject({ result: '1/2-1/2', reason: 'Game drawn by mutual agreement' });
    expect(read.game.clocksMs).toEqual([null, null]);
  });
});

describe('whole files follow the grammar', () => {
  const square = '[a-z]\\d+';
  const step = `(?:${square}|[a-z]):${square}`;
  const move = `${step}(?::${step})*`;
  const spec = `${move}(?:/\\d+/[+-]?\\d+/\\d+(?:/[^;/]*)?)?`;
  const game = new RegExp(`^[^;]*;[^;]*;(?:(?:${spec};)*(?:${spec}|[+=-];[^;]*)|)$`);

  it.each(truthGames.map((g) => [g.id, g] as const))('%s', (_id, truth) => {
    expect(write(truthRecord(truth, true))).toMatch(game);
    expect(write(truthRecord(truth, false))).toMatch(game);
  });

  it('writes the result from White’s side', () => {
    const base = gameFromSan('chess', ['f3', 'e5', 'g4', 'Qh4#'], { clocks: false });
    expect(write({ ...base, result: '0-1', reason: 'W checkmated' })).toMatch(/;-;W checkmated$/);
    expect(write({ ...base, result: '1-0', reason: 'B resigns' })).toMatch(/;\+;B resigns$/);
    expect(write({ ...base, result: '*' })).toMatch(/;d8:h4$/);
    expect(write({ ...base, san: [], uci: [], clocksMs: [] })).toBe('W;B;');
  });

  it('refuses names and texts that contain ";" and moves that are not legal', () => {
    const base = gameFromSan('chess', ['e4'], { clocks: false });
    expect(makeChessLive({ ...base, white: 'A;B' })).toEqual({
      ok: false,
      error: 'White player "A;B" contains ";", which ends a field in a move file',
    });
    const illegal = makeChessLive({ ...base, san: ['e5'], uci: ['e2e5'] });
    expect(illegal.ok).toBe(false);
    if (!illegal.ok)
      expect(illegal.error).toMatch(/^move 1 \(e5\): UCI "e2e5" is not a legal move for White in rnbqkbnr/);
  });
});
