// A shard process that ends for a reason a restart may mend (a crash) is started again by the
// sharding manager after a pause that doubles (src/shard.ts, respawnDelay).
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, expect, it } from 'vitest';
import { RESPAWN_FIRST_MS } from '../../src/shard.js';
import { World } from '../e2e/harness.js';
import { IDENTIFY_WINDOW_MS } from '../fake-discord/gateway.js';
import { identifies, readies, startSharded } from './sharded.js';

let w: World | null = null;
afterEach(async () => {
  await w?.close();
  w = null;
});

it('a shard process that dies otherwise is started again, after 2 s, then 4 s', async () => {
  const world = (w = await World.start());
  const manager = startSharded(world, 1);
  /** When each shard process was killed (real time, as the fake's log). */
  const killedAt: number[] = [];
  try {
    for (let round = 1; round <= 3; round++) {
      await world.fake.waitFor(
        () => (readies(world).length >= round && world.fake.connected ? true : undefined),
        `READY ${round}`,
        30_000,
      );
      if (round === 3) break;
      // The restarted shard's IDENTIFY must not fall in the dead one's 5 s window: Discord (and
      // the fake) would refuse it and discord.js would try again 5 s later, which would hide a
      // shorter pause than the manager's. The fake's clock passes the window; the log stays real.
      world.fake.advanceClock(IDENTIFY_WINDOW_MS);
      const shard = Number(execFileSync('pgrep', ['-P', String(manager.pid)], { encoding: 'utf8' }).trim());
      killedAt.push(Date.now());
      // The shard process, as a crash would end it.
      process.kill(shard, 'SIGKILL');
      await world.fake.waitFor(
        () => (world.fake.connected ? undefined : true),
        'the shard to be gone',
        10_000,
      );
    }
    expect(world.fake.refusedIdentifies).toEqual([]);
    const at = identifies(world).map((e) => e.at);
    expect(at).toHaveLength(3);
    // From each death to the next shard's IDENTIFY: at least the pause, doubled the second time.
    expect(at[1]! - killedAt[0]!).toBeGreaterThanOrEqual(RESPAWN_FIRST_MS);
    expect(at[2]! - killedAt[1]!).toBeGreaterThanOrEqual(2 * RESPAWN_FIRST_MS);
  } finally {
    manager.kill('SIGTERM');
    await once(manager, 'exit');
  }
}, 170_000);
