// The clock comments of a PGN, written without chessops' toLocaleString: the same text as
// chessops' makeComment for every clock, read back by chessops to the same milliseconds.
import { makeComment, parseComment } from 'chessops/pgn';
import { describe, expect, it } from 'vitest';
import { clockComment } from '../../src/game/pgn.js';

/** Clocks from none to over ten hours: the edges of each field, and a spread between them. */
const CLOCKS = [
  0,
  1,
  9,
  10,
  99,
  100,
  120,
  999,
  1_000,
  1_001,
  9_990,
  59_999,
  60_000,
  61_050,
  599_999,
  3_599_999,
  3_600_000,
  3_600_001,
  35_999_999,
  36_000_000,
  123_456_789,
  ...Array.from({ length: 2_000 }, (_, i) => (i * 7_919_993) % 40_000_000),
];

describe('clockComment', () => {
  it('writes every whole-millisecond clock as chessops does, and reads back to it', () => {
    for (const ms of CLOCKS) {
      expect(clockComment(ms), String(ms)).toBe(makeComment({ clock: ms / 1000 }));
      expect(Math.round(parseComment(clockComment(ms)).clock! * 1000), String(ms)).toBe(ms);
    }
  });

  it('writes a negative clock as 0:00:00, and a fraction of a millisecond as chessops rounds it', () => {
    expect(clockComment(-1_500)).toBe('[%clk 0:00:00]');
    expect(clockComment(1_234.6)).toBe(makeComment({ clock: 1.2346 }));
  });
});
