// Reading: precise errors for malformed files, and files that are still being written.
import { describe, expect, it } from 'vitest';
import { HEAVY_TEST_MS } from '../support/bounds.js';
import { parseChessLive, makeChessLive } from '../../src/chesslive/index.js';
import { CHESSLIVE_NAME_MAX, CHESSLIVE_REASON_MAX, ChessLiveReader } from '../../src/chesslive/read.js';
import { truthRecord, truthGames } from './fics-games.js';

function errorOf(text: string, options: Parameters<typeof parseChessLive>[1] = {}) {
  const read = parseChessLive(text, options);
  if (read.ok) throw new Error(`expected an error for ${JSON.stringify(text)}`);
  return read.error;
}

describe('malformed files', () => {
  it.each([
    ['W;B;e2:e4;e7:e5;i9:e4', 'line 1, column 17: move 3 (field 5): square "i9" is not on the board'],
    [
      'W;B;e2:e4;e7:e5;g1:f3:',
      'line 1, column 17: move 3 (field 5): Move "g1:f3:" has 3 ":"-separated parts; each MoveStep is From:Square, so it needs an even number',
    ],
    [
      'W;B;e2:E4',
      'line 1, column 8: move 1 (field 3): "E4" is not a square (a lower-case letter and a number)',
    ],
    ['W;B;x:e4', 'line 1, column 5: move 1 (field 3): piece id "x" is not one of p, n, b, r, q, k'],
    [
      'W;B;e2:e4/0/0',
      'line 1, column 5: move 1 (field 3): "e2:e4/0/0" has 3 "/"-separated parts; a MoveSpec is Move, Move/Depth/Score/Time or Move/Depth/Score/Time/SANtag',
    ],
    ['W;B;e2:e4/x/0/10/', 'line 1, column 11: move 1 (field 3): Depth "x" is not a number'],
    ['W;B;e2:e4/0/+-3/10/', 'line 1, column 13: move 1 (field 3): Score "+-3" is not a signed number'],
    ['W;B;e2:e4/0/0/-5/', 'line 1, column 15: move 1 (field 3): Time "-5" is not a number of seconds'],
    ['W;B;e2:e4;;e7:e5', 'line 1, column 11: move 2 (field 4): empty MoveSpec'],
    ['W;B;e2:e4;+', 'line 1, column 12: field 5: result "+" needs ";" and a text after it'],
    ['W;B;e2:e4;+;White wins;e7:e5', 'line 1, column 24: field 6: nothing may follow the result text'],
    ['Alice', 'line 1, column 6: field 2: the file ends before "WhitePlayer;BlackPlayer;"'],
    ['W;B;\ne2:e4;\r\ne7:e9', 'line 3, column 4: move 2 (field 4): square "e9" is not on the board'],
  ])('%j', (text, message) => {
    expect(errorOf(text).message).toBe(message);
  });

  it('names the move that no legal move explains, the side to move and the position', () => {
    const error = errorOf('W;B;e2:e4;e7:e5;g1:f3;b8:c6;f1:c4;g8:f6;d1:h6');
    expect(error).toMatchObject({ line: 1, column: 41, field: 9, move: 7 });
    expect(error.message).toBe(
      'line 1, column 41: move 7 (field 9): no legal move for White gives the board after "d1:h6" ' +
        '(position r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4)',
    );
  });

  it('refuses half an idiom: castling without the rook step, en passant without the capture', () => {
    expect(errorOf('W;B;e2:e4;e7:e5;g1:f3;b8:c6;f1:c4;g8:f6;e1:g1').move).toBe(7);
    expect(errorOf('W;B;e2:e4;a7:a6;e4:e5;d7:d5;e5:d6').move).toBe(5);
    expect(parseChessLive('W;B;e2:e4;a7:a6;e4:e5;d7:d5;e5:d6:e5:d5').ok).toBe(true);
  });

  it('refuses a drop in standard chess and a bad start FEN', () => {
    expect(errorOf('W;B;e2:e4;e7:e5;n:d4').message).toMatch(
      /^line 1, column 17: move 3 \(field 5\): no legal move for White/,
    );
    expect(errorOf('W;B;e2:e4', { startFen: 'not a fen' }).message).toMatch(
      /^line 1, column 1: start FEN "not a fen" is not a FEN/,
    );
  });

  it('accepts white space around MoveSpecs, a final ";" and a final line break', () => {
    const read = parseChessLive('W;B; e2:e4/0/0/60/ ;\n e7:e5 ;\n');
    expect(read.ok && read.value.game.san).toEqual(['e4', 'e5']);
  });
});

describe('growing files', () => {
  const truth = truthGames.find((g) => g.id === 'lasker_crazyhouse/Z03')!;
  const written = makeChessLive(truthRecord(truth, true));
  if (!written.ok) throw new Error(written.error);
  const file = written.value;

  it(
    'gives the complete moves so far at every length of the file, and the unread tail',
    { timeout: HEAVY_TEST_MS },
    () => {
      for (let length = 0; length <= file.length; length++) {
        const text = file.slice(0, length);
        const read = parseChessLive(text, { variant: 'crazyhouse', growing: true });
        if (!read.ok) throw new Error(`at length ${length}: ${read.error.message}`);
        const fields = text.split(';');
        const complete = Math.max(0, fields.length - 3);
        const resultAt = fields.findIndex((f, i) => i >= 2 && /^[+=-]$/.test(f) && i < fields.length - 1);
        const moves = resultAt >= 0 ? resultAt - 2 : complete;
        expect(read.value.completeMoves).toBe(moves);
        expect(read.value.game.uci).toEqual(truth.uci.slice(0, moves));
        if (resultAt < 0) expect(read.value.pending).toBe(fields.at(-1));
      }
    },
  );

  it('read piece by piece and a few fields at a time, gives what a whole read of the text so far gives', () => {
    const reader = new ChessLiveReader({ variant: 'crazyhouse' });
    let at = 0;
    for (let piece = 1; at < file.length; piece = (piece * 7 + 3) % 61) {
      reader.append(file.slice(at, at + piece));
      at += piece;
      while (reader.advance(2));
      expect(reader.read()).toEqual(
        parseChessLive(file.slice(0, at), { variant: 'crazyhouse', growing: true }),
      );
    }
    reader.end();
    while (reader.advance(2));
    expect(reader.read()).toEqual(parseChessLive(file, { variant: 'crazyhouse' }));
  });

  it('reads each field once however often it is asked', () => {
    const reader = new ChessLiveReader();
    reader.append('W;B;e2:e4;e7:e5;');
    expect(reader.advance(3)).toBe(true);
    expect(reader.advance(3)).toBe(false);
    expect(reader.advance(3)).toBe(false);
    reader.append('g1:f3;');
    expect(reader.advance(3)).toBe(false);
    const read = reader.read();
    expect(read.ok && read.value.game.san).toEqual(['e4', 'e5', 'Nf3']);
  });

  it('keeps a MoveSpec whose Time may still be growing out until its ";" arrives', () => {
    const read = parseChessLive('W;B;e2:e4/0/0/17', { growing: true });
    expect(read.ok && read.value).toMatchObject({ completeMoves: 0, pending: 'e2:e4/0/0/17' });
    const header = parseChessLive('Whi', { growing: true });
    expect(header.ok && header.value).toMatchObject({
      completeMoves: 0,
      pending: 'Whi',
      game: { white: '' },
    });
  });

  it('reports the result once its ";" has arrived, with the text so far', () => {
    const read = parseChessLive('W;B;e2:e4;+;Black res', { growing: true });
    expect(read.ok && read.value.game).toMatchObject({ result: '1-0', reason: 'Black res' });
  });

  it('still reports a malformed complete field', () => {
    expect(errorOf('W;B;e2:e4;e7:e9;g1:f', { growing: true }).message).toBe(
      'line 1, column 14: move 2 (field 4): square "e9" is not on the board',
    );
  });
});

describe('field text that looks like something else', () => {
  it('does not take an object key for a result', () => {
    expect(errorOf('W;B;constructor;x').message).toBe(
      'line 1, column 5: move 1 (field 3): Move "constructor" has 1 ":"-separated parts; each MoveStep is From:Square, so it needs an even number',
    );
  });
});

describe('long texts', () => {
  it('cuts player names and the result text to their documented lengths', () => {
    const long = 'N'.repeat(700_000);
    const read = parseChessLive(`${long};Bob;e2:e4;+;${long}`);
    if (!read.ok) throw new Error(read.error.message);
    expect(read.value.game.white).toBe(`${'N'.repeat(CHESSLIVE_NAME_MAX - 1)}…`);
    expect(read.value.game.black).toBe('Bob');
    expect(read.value.game.reason).toBe(`${'N'.repeat(CHESSLIVE_REASON_MAX - 1)}…`);
  });
});
