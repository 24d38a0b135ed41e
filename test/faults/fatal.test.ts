// What no restart mends: a token reset in the developer portal (gateway close 4004, REST 401) and
// intents Discord refuses (4013, 4014). The bot says so in one fatal line, lets go of FICS and
// stops; under the sharding manager such a shard is not started again.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { EXIT_FATAL, RESPAWN_FIRST_MS, RESPAWN_MAX_MS, respawnDelay } from '../../src/shard.js';
import { World, shuffleScript } from '../e2e/harness.js';

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
  await world.fake.waitFor(() => (reasons.length > 0 ? true : undefined), 5_000, 'the bot to give up');
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

describe('sharding', () => {
  it('starts a failed shard again after seconds, doubling to minutes; never one that failed for good', () => {
    expect(respawnDelay(1, 0)).toBe(RESPAWN_FIRST_MS);
    expect(respawnDelay(1, 1)).toBe(2 * RESPAWN_FIRST_MS);
    expect(respawnDelay(null, 3)).toBe(8 * RESPAWN_FIRST_MS);
    expect(respawnDelay(1, 30)).toBe(RESPAWN_MAX_MS);
    expect(respawnDelay(EXIT_FATAL, 0)).toBeNull();
  });

  for (const code of [4004, 4013, 4014]) {
    it(`a shard closed with ${code} at IDENTIFY is not started again: one IDENTIFY per shard, then exit ${EXIT_FATAL}`, async () => {
      const world = (w = await World.start());
      world.fake.refuseIdentify(code);
      const dir = mkdtempSync(join(tmpdir(), 'kibitz-sharded-'));
      try {
        const child = spawn(
          process.execPath,
          ['--import', 'tsx', fileURLToPath(new URL('../../src/sharded.ts', import.meta.url))],
          {
            env: {
              PATH: process.env.PATH ?? '',
              DISCORD_TOKEN: world.fake.token,
              DISCORD_API_BASE: world.fake.apiBase,
              KIBITZ_DB: join(dir, 'kibitz.db'),
              KIBITZ_SHARDS: '2',
              FICS_HOST: '127.0.0.1',
              FICS_PORT: String(world.fics.port),
              LOG_LEVEL: 'warn',
            },
            stdio: 'ignore',
          },
        );
        const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
        const [exitCode] = (await once(child, 'exit')) as [number | null];
        clearTimeout(killer);
        expect(exitCode).toBe(EXIT_FATAL);
        const identifies = world.fake.gatewayLog.filter((e) => e.direction === 'in' && e.op === 2);
        expect(identifies).toHaveLength(2);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }, 70_000);
  }
});
