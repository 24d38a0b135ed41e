// The sharding manager when GET /gateway/bot fails before any shard starts: a refused token stops
// it for good (EXIT_FATAL), whatever KIBITZ_SHARDS says; any other failure with KIBITZ_SHARDS=auto
// stops it with 1 (a supervisor may start it again), saying what failed. No shard starts either
// way. (With a shard count set and GET /gateway/bot failing otherwise, the shards start one per
// window: waves.test.ts.)
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { TOKEN_REJECTED } from '../../src/discord/bot.js';
import { EXIT_FATAL } from '../../src/shard.js';
import { World } from '../e2e/harness.js';
import { identifies, shardedEnd, startSharded } from './sharded.js';

let w: World | null = null;
afterEach(async () => {
  await w?.close();
  w = null;
});

const gatewayBotAnswers = (world: World): number[] =>
  world.fake.requests.filter((r) => r.method === 'GET' && r.path === '/gateway/bot').map((r) => r.status);

/** The fallback of a shard count set: untrue when the manager stops. */
const ONE_PER_WINDOW = /one shard per 5 s/;

describe('GET /gateway/bot answered 401 (the token reset in the developer portal)', () => {
  for (const shards of ['auto', 2] as const)
    it(`KIBITZ_SHARDS=${shards}: one line saying so, exit ${EXIT_FATAL}, no shard started`, async () => {
      const world = (w = await World.start());
      // From now on REST answers 401 {"message": "401: Unauthorized", "code": 0}, as Discord does.
      world.fake.revokeToken({ gateway: false });
      const end = await shardedEnd(startSharded(world, shards, { output: true }));
      expect(end.stderr).toBe(`Kibitz could not start: ${TOKEN_REJECTED}\n`);
      expect(end.exitCode).toBe(EXIT_FATAL);
      // Asked once: a 401 is not asked again, by the manager or by a shard.
      expect(gatewayBotAnswers(world)).toEqual([401]);
      expect(identifies(world)).toEqual([]);
      expect(end.stdout).not.toMatch(ONE_PER_WINDOW);
    });
});

describe('GET /gateway/bot failing otherwise, KIBITZ_SHARDS=auto', () => {
  it('503: one try (discord.js resends nothing at once), one line naming the 503, exit 1, no shard started', async () => {
    const world = (w = await World.start());
    // More 503s than one: a try sent again at once would meet one too (and the fake would list it:
    // World.close fails the test).
    world.fake.failNext({ method: 'GET', path: /^\/gateway\/bot$/ }, { kind: 'error', status: 503 }, 5);
    const end = await shardedEnd(startSharded(world, 'auto', { output: true }));
    expect(end.stderr).toBe(
      'Kibitz could not start: Discord did not say how many shards to run (KIBITZ_SHARDS=auto): ' +
        'GET /gateway/bot failed (HTTP 503: Service Unavailable). Start again later, or set KIBITZ_SHARDS to a number.\n',
    );
    expect(end.exitCode).toBe(1);
    expect(gatewayBotAnswers(world)).toEqual([503]);
    expect(identifies(world)).toEqual([]);
    expect(end.stdout).not.toMatch(ONE_PER_WINDOW);
  });

  it('connection refused: one line naming it, exit 1, no shard started', async () => {
    const world = (w = await World.start());
    // A port nothing listens on any more.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as { port: number };
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const end = await shardedEnd(
      startSharded(world, 'auto', {
        output: true,
        env: { DISCORD_API_BASE: `http://127.0.0.1:${port}/api` },
      }),
    );
    expect(end.stderr).toMatch(
      /^Kibitz could not start: Discord did not say how many shards to run \(KIBITZ_SHARDS=auto\): GET \/gateway\/bot failed \([^\n]*ECONNREFUSED[^\n]*\)\. Start again later, or set KIBITZ_SHARDS to a number\.\n$/,
    );
    expect(end.exitCode).toBe(1);
    expect(world.fake.requests).toEqual([]);
    expect(identifies(world)).toEqual([]);
    expect(end.stdout).not.toMatch(ONE_PER_WINDOW);
  });
});
