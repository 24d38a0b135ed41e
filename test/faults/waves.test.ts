// The sharding manager starts shards as Discord's identify rule allows (gateway docs, "Max
// Concurrency"): one IDENTIFY per rate-limit key (shard % max_concurrency) per 5 s, keys together.
import { once } from 'node:events';
import { afterEach, expect, it } from 'vitest';
import { World } from '../e2e/harness.js';
import { identifies, readies, shardsReady, startSharded } from './sharded.js';

let w: World | null = null;
afterEach(async () => {
  await w?.close();
  w = null;
});

it('starts the shards of different rate-limit keys together, one IDENTIFY per key per 5 s', async () => {
  // max_concurrency 2: shards 0 and 1 (keys 0 and 1) at once, shard 2 (key 0 again) 5 s later.
  const world = (w = await World.start({ discord: { maxConcurrency: 2 } }));
  // READY waits for two IDENTIFYs: a manager that waits for shard 0 before starting shard 1 stalls.
  world.fake.holdReady(2);
  const manager = startSharded(world, 3);
  try {
    await shardsReady(world, 3);
    const [first, second, third] = identifies(world);
    expect([first?.shard, second?.shard].sort()).toEqual([0, 1]);
    expect(third?.shard).toBe(2);
    // The fake answers an IDENTIFY of a key used less than 5 s before with Invalid Session.
    expect(world.fake.refusedIdentifies).toEqual([]);
    // Shard 2 waited for the first wave to be up.
    const log = world.fake.gatewayLog;
    expect(log.indexOf(third!)).toBeGreaterThan(log.indexOf(readies(world)[1]!));
    expect(identifies(world)).toHaveLength(3);
  } finally {
    manager.kill('SIGTERM');
    await once(manager, 'exit');
  }
}, 170_000);

it('when GET /gateway/bot fails, starts the shards one per 5 s window, as if max_concurrency were 1', async () => {
  // Discord would allow 16 at once, but the manager cannot know: Discord answered 503 to its one
  // try (discord.js resends nothing at once: src/discord/client.ts).
  const world = (w = await World.start({ discord: { maxConcurrency: 16 } }));
  world.fake.failNext({ method: 'GET', path: /^\/gateway\/bot$/ }, { kind: 'error', status: 503 });
  const manager = startSharded(world, 2);
  try {
    await shardsReady(world, 2);
    expect(world.fake.requests.filter((r) => r.path === '/gateway/bot')[0]?.status).toBe(503);
    const [first, second] = identifies(world);
    expect([first?.shard, second?.shard]).toEqual([0, 1]);
    // Shard 1 waited for the window after shard 0's IDENTIFY, though its key differs.
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(5_000);
    expect(world.fake.refusedIdentifies).toEqual([]);
  } finally {
    manager.kill('SIGTERM');
    await once(manager, 'exit');
  }
}, 170_000);
