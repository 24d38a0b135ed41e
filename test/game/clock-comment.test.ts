import { makeComment } from 'chessops/pgn';
import { describe, expect, it } from 'vitest';
import { clockComment } from '../../src/game/pgn.js';

describe('clockComment', () => {
  it('writes a clock exactly as chessops does, for whole milliseconds from 0 to 30 hours', () => {
    const samples = [0, 1, 5, 10, 50, 100, 120, 999, 1000, 1001, 1010, 1100, 59_999, 60_000, 3_599_999];
    samples.push(3_600_000, 3_723_456, 36_000_000, 108_000_000);
    // A deterministic sweep: every step of 7,919 ms below 30 hours, and each of its neighbours.
    for (let ms = 0; ms < 108_000_000; ms += 7_919_013) samples.push(ms, ms + 1, ms + 10, ms + 100);
    for (let ms = 0; ms < 200_000; ms += 97) samples.push(ms);
    for (const ms of samples) expect(clockComment(ms)).toBe(makeComment({ clock: ms / 1000 }));
  });

  it('writes a fallen clock as 0:00:00, and a clock of no whole millisecond as chessops does', () => {
    expect(clockComment(-1500)).toBe('[%clk 0:00:00]');
    expect(clockComment(1234.5)).toBe(makeComment({ clock: 1.2345 }));
  });
});
