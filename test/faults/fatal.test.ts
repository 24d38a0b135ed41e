// What no restart mends: a token reset in the developer portal (gateway close 4004, REST 401) and
// intents Discord refuses (4013, 4014). The bot says so in one fatal line, lets go of FICS and
// stops; under the sharding manager such a shard is not started again.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EXIT_FATAL, RESPAWN_FIRST_MS, RESPAWN_MAX_MS, respawnDelay } from '../../src/shard.js';
import { World, shuffleScript } from '../e2e/harness.js';
import { built } from '../support/processes.js';

let w: World | null = null;
afterEach(async () => {
  await w?.close();
  w = null;
});

const fatalLines = (world: World): { msg: string }[] =>
  world.logLines.map((l) => JSON.parse(l) as { level: number; msg: string }).filter((l) => l.level === 60);

/**
 * A bot relaying a game, then `revoke`: the bot must give up with exactly one fatal line matching
 * `reason` and log out of FICS.
 */
async function expectGivesUp(revoke: (world: World, game: number) => void, reason: RegExp): Promise<void> {
  const world = (w = await World.start());
  const game = world.fics.addGame(shuffleScript(40));
  const reasons: string[] = [];
  await world.startBot({ onFatal: (text) => reasons.push(text) });
  await world.command('observe', { game }).reply();
  expect(world.fics.connected).toBe(1);
  revoke(world, game);
  await world.fake.waitFor(() => (reasons.length > 0 ? true : undefined), 'the bot to give up', 5_000);
  expect(reasons).toEqual([expect.stringMatching(reason)]);
  expect(fatalLines(world).map((l) => l.msg)).toEqual(reasons);
  await world.fics.waitFor(() => world.fics.connected === 0, 'the bot to log out of FICS');
}

describe('a revoked token', () => {
  it('gateway closed with 4004: one fatal line, FICS let go, the bot stopped', () =>
    expectGivesUp(
      (world) => world.fake.revokeToken(),
      /^Discord closed the gateway with 4004 Authentication failed: the token is no longer valid/,
    ));

  it('REST answering 401 to the bot token: the same', () =>
    expectGivesUp((world, game) => {
      world.fake.revokeToken({ gateway: false });
      world.fics.playMove(game);
    }, /^Discord answered 401 Unauthorized to the bot token on PATCH/));
});

/** The sharding manager (compiled) against the world's fakes, `shards` shards; killed with SIGKILL after 150 s. */
function startSharded(world: World, shards: number, dir: string): ChildProcess {
  const child = spawn(process.execPath, [built('src/sharded.ts')], {
    env: {
      PATH: process.env.PATH ?? '',
      DISCORD_TOKEN: world.fake.token,
      DISCORD_API_BASE: world.fake.apiBase,
      KIBITZ_DB: join(dir, 'kibitz.db'),
      KIBITZ_SHARDS: String(shards),
      FICS_HOST: '127.0.0.1',
      FICS_PORT: String(world.fics.port),
      LOG_LEVEL: 'warn',
    },
    stdio: 'ignore',
  });
  // A bound, not a speed check: the manager and its shards (started under tsx then) took more than
  // 60 s with the suite run twice at once on two cores.
  const killer = setTimeout(() => child.kill('SIGKILL'), 150_000);
  child.once('exit', () => clearTimeout(killer));
  return child;
}

const identifies = (world: World) => world.fake.gatewayLog.filter((e) => e.direction === 'in' && e.op === 2);
/** Sessions let in: an IDENTIFY the fake refused (Invalid Session) has no READY. */
const readies = (world: World) =>
  world.fake.gatewayLog.filter((e) => e.direction === 'out' && e.t === 'READY');

let dir: string | null = null;
afterEach(() => {
  if (dir !== null) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

describe('sharding', () => {
  it('starts a failed shard again after seconds, doubling to minutes; never one that failed for good', () => {
    expect(respawnDelay(1, 0)).toBe(RESPAWN_FIRST_MS);
    expect(respawnDelay(1, 1)).toBe(2 * RESPAWN_FIRST_MS);
    expect(respawnDelay(null, 3)).toBe(8 * RESPAWN_FIRST_MS);
    expect(respawnDelay(1, 30)).toBe(RESPAWN_MAX_MS);
    expect(respawnDelay(EXIT_FATAL, 0)).toBeNull();
  });

  it(`a shard closed at IDENTIFY with 4004, 4013 or 4014 is not started again: one IDENTIFY per shard, then exit ${EXIT_FATAL}`, async () => {
    // One manager run, one close code per shard (shard i is refused with codes[i]).
    const codes = [4004, 4013, 4014];
    // A large bot's max_concurrency: the three shards start at once.
    const world = (w = await World.start({ discord: { maxConcurrency: 16 } }));
    world.fake.refuseIdentify((shard) => (shard === null ? null : (codes[shard] ?? null)));
    dir = mkdtempSync(join(tmpdir(), 'kibitz-sharded-'));
    const child = startSharded(world, codes.length, dir);
    const [exitCode] = (await once(child, 'exit')) as [number | null];
    expect(exitCode).toBe(EXIT_FATAL);
    expect(
      identifies(world)
        .map((e) => e.shard)
        .sort(),
    ).toEqual([0, 1, 2]);
  }, 170_000);

  it('starts the shards of different rate-limit keys together, one IDENTIFY per key per 5 s', async () => {
    // max_concurrency 2: shards 0 and 1 (keys 0 and 1) at once, shard 2 (key 0 again) 5 s later.
    const world = (w = await World.start({ discord: { maxConcurrency: 2 } }));
    // READY waits for two IDENTIFYs: a manager that waits for shard 0 before starting shard 1 stalls.
    world.fake.holdReady(2);
    dir = mkdtempSync(join(tmpdir(), 'kibitz-sharded-'));
    const manager = startSharded(world, 3, dir);
    try {
      await world.fake.waitFor(
        () => (readies(world).length >= 3 ? true : undefined),
        'three shards READY',
        120_000,
      );
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

  it('a shard process that dies otherwise is started again, after 2 s, then 4 s', async () => {
    const world = (w = await World.start());
    dir = mkdtempSync(join(tmpdir(), 'kibitz-sharded-'));
    const manager = startSharded(world, 1, dir);
    try {
      for (let round = 1; round <= 3; round++) {
        await world.fake.waitFor(
          () => (readies(world).length >= round && world.fake.connected ? true : undefined),
          `READY ${round}`,
          30_000,
        );
        if (round === 3) break;
        // The shard process, as a crash would end it.
        const shard = Number(execFileSync('pgrep', ['-P', String(manager.pid)], { encoding: 'utf8' }).trim());
        process.kill(shard, 'SIGKILL');
        await world.fake.waitFor(
          () => (world.fake.connected ? undefined : true),
          'the shard to be gone',
          10_000,
        );
      }
      const at = readies(world).map((e) => e.at);
      expect(at).toHaveLength(3);
      expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(RESPAWN_FIRST_MS);
      expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(2 * RESPAWN_FIRST_MS);
    } finally {
      manager.kill('SIGTERM');
      await once(manager, 'exit');
    }
  }, 170_000);
});
