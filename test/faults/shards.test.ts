// Sharding: the guild -> shard rule, and a restart as two shard processes on one database. Each
// shard resumes only its own guilds' live posts and observes only their games on FICS; together
// they finish every game once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ownsGuild, shardOfGuild, shardScope, shareOf } from '../../src/shard.js';
import { IDENTIFY_WINDOW_MS } from '../fake-discord/gateway.js';
import { BotChild } from '../load/bot-child.js';
import type { LoadWorld } from '../load/world.js';
import { NOTHING_LOST, QUICK_FICS, allEnded, auditAll, smallWorld, startInProcessBot } from './harness.js';
import { built } from '../support/processes.js';
import { waitFor } from '../support/wait.js';

describe('guild -> shard', () => {
  it('is (guild_id >> 22) % shard_count, as Discord routes guilds', () => {
    // Discord's documentation example: 175928847299117063 has the timestamp 41944705796.
    expect(shardOfGuild('175928847299117063', 1)).toBe(0);
    expect(shardOfGuild('175928847299117063', 2)).toBe(0);
    expect(shardOfGuild('175928847299117063', 5)).toBe(1);
    expect(shardOfGuild('175928847299117063', 3)).toBe(2);
    expect(shardOfGuild('175928847299117063', 16)).toBe(4);
    expect(shardOfGuild('not a snowflake', 2)).toBeNull();
    expect(shardOfGuild('175928847299117063', 0)).toBeNull();
  });

  it('gives every guild to exactly one shard of a scope', () => {
    const ids = ['41771983423143937', '175928847299117063', '81384788765712384', '1573590724723605507'];
    for (const id of ids) {
      const owners = [0, 1, 2].filter((shard) => ownsGuild({ ids: [shard], count: 3 }, id));
      expect(owners).toEqual([shardOfGuild(id, 3)]);
      expect(ownsGuild(null, id)).toBe(true);
      expect(ownsGuild({ ids: [0, 1, 2], count: 3 }, id)).toBe(true);
    }
  });
});

let world: LoadWorld | null = null;
let children: BotChild[] = [];
let dir: string | null = null;

afterEach(async () => {
  for (const child of children) await child.kill();
  await world?.close();
  if (dir !== null) rmSync(dir, { recursive: true, force: true });
  children = [];
  world = null;
  dir = null;
});

describe('shard scope of a process', () => {
  it('comes from discord.js options: all shards is no scope, some shards is', () => {
    expect(shardScope({ shards: [0], shardCount: 1 })).toBeNull();
    expect(shardScope({ shards: [0, 1], shardCount: 2 })).toBeNull();
    expect(shardScope({ shards: 'auto', shardCount: 1 })).toBeNull();
    expect(shardScope({ shards: [1], shardCount: 4 })).toEqual({ ids: [1], count: 4 });
  });

  it('shares Discord’s global limit out among the shards', () => {
    expect(shareOf(50, null)).toBe(50);
    expect(shareOf(50, { ids: [1], count: 2 })).toBe(25);
    expect(shareOf(50, { ids: [0, 2], count: 4 })).toBe(25);
    expect(shareOf(50, { ids: [3], count: 64 })).toBe(1);
  });
});

describe('two shards on one database', () => {
  it('each resumes only its own guilds, and every game ends once', async () => {
    dir = mkdtempSync(join(tmpdir(), 'kibitz-shards-'));
    const db = join(dir, 'kibitz.db');
    // Shard 0 logs in with the registered account, the other shard as a guest: FICS tells them apart.
    world = await smallWorld({
      channels: 8,
      channelsPerGuild: 2,
      shards: 2,
      seed: 21,
      fics: { accounts: { Kibitzer: 'secret' } },
    });
    const account = { FICS_USER: 'Kibitzer', FICS_PASSWORD: 'secret' };
    const shardOf = (slot: number): number => shardOfGuild(world!.slots[slot]!.guildId, 2)!;
    expect(new Set(world.slots.map((_, i) => shardOf(i)))).toEqual(new Set([0, 1]));

    // One bot posts every game, then stops (its posts stay live in the database).
    const single = await startInProcessBot(world, db, account);
    await world.commandsRegistered();
    await world.observeAll(50);
    expect(world.observeFailures).toEqual([]);
    world.startPacing();
    await single.bot.stop();
    // The shards come after Discord's 5 s identify window of the single bot's session, as a real
    // restart does: within it, shard 0 (the same rate-limit key) would be refused and identify
    // again 5-6.5 s later, which is not what this test is about.
    world.discord.advanceClock(IDENTIFY_WINDOW_MS);

    // Two shard processes take over, started together (two rate-limit keys of the world's
    // max_concurrency 16).
    const shardEnv = world.botEnv(db, account);
    await Promise.all(
      [0, 1].map(async (shard) => {
        const env = { ...shardEnv, SHARDS: String(shard), SHARD_COUNT: '2' };
        children.push(
          await BotChild.start({ env, fics: QUICK_FICS, entry: built('test/load/bot-process.ts') }),
        );
      }),
    );
    const running = world.slots.filter((s) => s.game !== null && !s.game.ended);
    await waitFor(() => world!.allObserved(), 'both shards to observe their games again', 10_000);
    const observedBy = (name: (n: string) => boolean): number[] =>
      world!.fics
        .loggedIn()
        .filter((s) => name(s.name))
        .flatMap((s) => s.observed)
        .sort((a, b) => a - b);
    const gamesOf = (shard: number): number[] =>
      running
        .filter((s) => shardOf(s.index) === shard && s.game !== null && !s.game.ended)
        .map((s) => s.game!.number)
        .sort((a, b) => a - b);
    expect(observedBy((n) => n === 'Kibitzer')).toEqual(gamesOf(0));
    expect(observedBy((n) => n.startsWith('Guest'))).toEqual(gamesOf(1));

    await waitFor(() => allEnded(world!), 'every game to end', 20_000);
    const totals = await auditAll(world);
    expect(totals).toMatchObject({ finished: 8, audited: 8, ...NOTHING_LOST });
  });
});
