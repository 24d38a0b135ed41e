// `npm run bench` is not part of the tests: a short run here keeps the moves bench measuring what
// it says (it throws when the moves did not reach every post's queued edit).
import { describe, expect, it } from 'vitest';
import { benchMoves } from './moves.js';

describe('the moves bench', () => {
  it('takes each move from the bytes to its post, as deltas and as boards', async () => {
    const figures = await benchMoves(30, 1);
    expect(figures.move_main_thread_us).toBeGreaterThan(0);
    expect(figures.move_style12_main_thread_us).toBeGreaterThan(0);
  });
});
