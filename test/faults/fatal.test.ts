// What no restart mends: a token reset in the developer portal (gateway close 4004, REST 401) and
// intents Discord refuses (4013, 4014). The bot says so in one fatal line, lets go of FICS and
// stops; under the sharding manager such a shard is not started again (a shard that fails otherwise is:
// respawn.test.ts).
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { EXIT_FATAL } from '../../src/shard.js';
import { World, shuffleScript } from '../e2e/harness.js';
import { identifies, startSharded } from './sharded.js';

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

describe('sharding', () => {
  it(`a shard closed at IDENTIFY with 4004, 4013 or 4014 is not started again: one IDENTIFY per shard, then exit ${EXIT_FATAL}`, async () => {
    // One manager run, one close code per shard (shard i is refused with codes[i]).
    const codes = [4004, 4013, 4014];
    // A large bot's max_concurrency: the three shards start at once.
    const world = (w = await World.start({ discord: { maxConcurrency: 16 } }));
    world.fake.refuseIdentify((shard) => (shard === null ? null : (codes[shard] ?? null)));
    const child = startSharded(world, codes.length);
    const [exitCode] = (await once(child, 'exit')) as [number | null];
    expect(exitCode).toBe(EXIT_FATAL);
    expect(
      identifies(world)
        .map((e) => e.shard)
        .sort(),
    ).toEqual([0, 1, 2]);
  }, 170_000);
});
