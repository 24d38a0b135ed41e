// The sharding manager's rules (src/shard.ts): the order it starts shards in (Discord's "Max
// Concurrency") and when it starts a failed one again.
import { describe, expect, it } from 'vitest';
import { EXIT_FATAL, RESPAWN_FIRST_MS, RESPAWN_MAX_MS, identifyWaves, respawnDelay } from '../src/shard.js';

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

describe('respawnDelay', () => {
  it('starts a failed shard again after seconds, doubling to minutes; never one that failed for good', () => {
    expect(respawnDelay(1, 0)).toBe(RESPAWN_FIRST_MS);
    expect(respawnDelay(1, 1)).toBe(2 * RESPAWN_FIRST_MS);
    expect(respawnDelay(null, 3)).toBe(8 * RESPAWN_FIRST_MS);
    expect(respawnDelay(1, 30)).toBe(RESPAWN_MAX_MS);
    expect(respawnDelay(EXIT_FATAL, 0)).toBeNull();
  });
});
