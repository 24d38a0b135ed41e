// The order the sharding manager starts shards in (src/shard.ts): Discord's "Max Concurrency".
import { describe, expect, it } from 'vitest';
import { identifyWaves } from '../src/shard.js';

describe('identifyWaves', () => {
  it('starts one shard per rate-limit key (shard % max_concurrency) at a time, buckets in order', () => {
    // Discord's example: 32 shards, max_concurrency 16: shards 0-15 together, then 16-31.
    const ids = Array.from({ length: 32 }, (_, id) => id);
    expect(identifyWaves(ids, 16)).toEqual([ids.slice(0, 16), ids.slice(16)]);
    expect(identifyWaves([0, 1, 2], 2)).toEqual([[0, 1], [2]]);
    expect(identifyWaves([0, 1, 2], 1)).toEqual([[0], [1], [2]]);
    expect(identifyWaves([0, 1, 2], 16)).toEqual([[0, 1, 2]]);
  });

  it('takes a machine’s own shards as given, and a bad max_concurrency as 1', () => {
    // Shards 1, 3 and 5 of a fleet with max_concurrency 2 all have key 1.
    expect(identifyWaves([1, 3, 5], 2)).toEqual([[1], [3], [5]]);
    expect(identifyWaves([4, 1, 6], 4)).toEqual([[4, 1, 6]]);
    expect(identifyWaves([0, 1], 0)).toEqual([[0], [1]]);
    expect(identifyWaves([0, 1], Number.NaN)).toEqual([[0], [1]]);
    expect(identifyWaves([], 16)).toEqual([]);
  });
});
