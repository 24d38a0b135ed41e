import { describe, expect, it } from 'vitest';
import { backoffDelay, DEFAULT_BACKOFF } from '../src/backoff.js';

describe('backoffDelay', () => {
  it('doubles from 1 s up to a minute, each delay somewhere in its upper half', () => {
    const bounds = [0, 1, 2, 3, 4, 5, 6, 7, 20].map((attempt) => [
      backoffDelay(DEFAULT_BACKOFF, attempt, () => 0.999_999),
      backoffDelay(DEFAULT_BACKOFF, attempt, () => 0),
    ]);
    expect(bounds).toEqual([
      [500, 1_000],
      [1_000, 2_000],
      [2_000, 4_000],
      [4_000, 8_000],
      [8_000, 16_000],
      [16_000, 32_000],
      [30_000, 60_000],
      [30_000, 60_000],
      [30_000, 60_000],
    ]);
  });

  it('spreads connections dropped together', () => {
    const delays = new Set(Array.from({ length: 50 }, () => backoffDelay(DEFAULT_BACKOFF, 3)));
    expect(delays.size).toBeGreaterThan(10);
  });
});
