// Kibitzes across a fleet: two bots (two shards of one token, each a machine of the fleet) on one
// PostgreSQL post the same game with kibitz:true. Only the lease holder observes it on FICS and
// hears its talk; the other machine's thread gets the lines through the fleet all the same. When
// the holder dies, the other machine takes the game over and hears the talk itself, its list of
// lines going on from the dead holder's (every final PGN has them all).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import type { BotHandle } from '../../src/app.js';
import { shardOfGuild } from '../../src/shard.js';
import type { LivePost } from '../../src/storage/live-posts.js';
import { FAST_FICS, World, fixture, scriptOf } from '../e2e/harness.js';
import { BotChild } from '../load/bot-child.js';
import { freshPostgresDatabase } from '../storage/backends.js';
import { gameId } from '../support/fics-values.js';
import { built } from '../support/processes.js';
import { moveLeaseEnd } from './leases.js';

const NO_EDIT_LIMIT = { rateLimits: { messageEdit: { limit: 10_000, windowMs: 1_000 } } };
/** A machine that dies is a process of its own, the bot compiled (test/support/processes.ts). */
const BOT = built('test/load/bot-process.ts');
/** As in fleet.test.ts (a renewal every 1.7 s: none late on a loaded machine); the test ends it on the database's clock. */
const LEASE_MS = 5_000;

let w: World | null = null;
/** Machines running in this process, the world's last one (w.bot) aside. */
let bots: BotHandle[] = [];
let child: BotChild | null = null;
let dir: string | null = null;
let db: pg.Pool | null = null;
afterEach(async () => {
  for (const bot of bots) await bot.stop();
  bots = [];
  await child?.kill();
  child = null;
  await db?.end();
  db = null;
  await w?.close();
  w = null;
  if (dir !== null) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

/**
 * A world whose server is on one shard (A), another server with a channel on each other shard,
 * and a fleet database: machine i runs shard i.
 */
async function fleetWorld(shards: number) {
  const world = (w = await World.start({ discord: NO_EDIT_LIMIT }));
  const fleetDb = await freshPostgresDatabase();
  const shardA = shardOfGuild(world.guildId, shards)!;
  const channels = new Map<number, { guildId: string; channelId: string }>();
  // Ids grow with time: a few tries find a server on each shard.
  for (let tries = 0; channels.size < shards - 1 && tries < 64; tries++) {
    const guild = world.fake.createGuild({ name: `Other Club ${tries}` });
    const shard = shardOfGuild(guild.id, shards)!;
    if (shard === shardA || channels.has(shard)) continue;
    channels.set(shard, {
      guildId: guild.id,
      channelId: world.fake.createChannel(guild.id, { name: 'boards' }).id,
    });
  }
  expect(channels.size).toBe(shards - 1);
  /** Commands registered for every server (by the machine of shard 0), not for the world's alone. */
  const fleetEnv = (env: Record<string, string> = {}) => ({
    KIBITZ_FLEET_DB: fleetDb,
    DISCORD_GUILD_ID: '',
    KIBITZ_SHARDS: String(shards),
    ...env,
  });
  /** A machine running one shard in this process: discord.js reads its shards from the environment when built. */
  const machine = async (shard: number, env: Record<string, string> = {}): Promise<BotHandle> => {
    process.env.SHARDS = JSON.stringify([shard]);
    process.env.SHARD_COUNT = String(shards);
    try {
      const bot = await world.startBot({ env: fleetEnv(env) });
      bots.push(bot);
      return bot;
    } finally {
      delete process.env.SHARDS;
      delete process.env.SHARD_COUNT;
    }
  };
  /** `/observe game kibitz:true` in the channel on `shard` (not A's). */
  const observeOn = (shard: number, game: number) => {
    const { guildId, channelId } = channels.get(shard)!;
    return world.fake.command(guildId, channelId, 'observe', { game, kibitz: true }).reply();
  };
  return { world, fleetDb, shardA, fleetEnv, machine, observeOn };
}

/** The bot's lines in a post's thread, the post itself left out. */
function threadLines(world: World, post: { threadId: string; messageId: string }): string[] {
  return world.fake
    .messagesIn(post.threadId)
    .filter((m) => m.author.id === world.fake.bot.id && m.id !== post.messageId)
    .map((m) => m.content);
}

async function waitForLines(
  world: World,
  post: { threadId: string; messageId: string },
  n: number,
  where: string,
) {
  return world.fake.waitFor(
    () => (threadLines(world, post).length >= n ? threadLines(world, post) : undefined),
    `${n} lines in ${where}`,
    20_000,
  );
}

describe('kibitzes in a fleet', () => {
  it('reach the thread of a post on the machine that does not observe the game', async () => {
    const { world, shardA, machine, observeOn } = await fleetWorld(2);
    const game = world.fics.addGame(scriptOf(fixture('lasker_flag#0')));
    const first = await machine(shardA);
    const second = await machine(1 - shardA);
    const holderPool = first.context.fics;
    // Machine A posts the game first: it takes the lease and observes it on FICS.
    expect((await world.command('observe', { game, kibitz: true }).reply()).content).toMatch(
      /live in its thread/,
    );
    expect((await observeOn(1 - shardA, game)).content).toMatch(/live in its thread/);
    const [postA, postB] = [await livePostOf(first), await livePostOf(second)];
    // Only machine A observes the game on FICS.
    expect(holderPool.snapshot(gameId(game))).toBeDefined();
    expect(second.context.fics.snapshot(gameId(game))).toBeUndefined();

    world.fics.say(game, 'LectureBot(TD)(----)', 'Can you find the best move? @everyone');
    world.fics.say(game, 'LurKing(C)(2442)', 'ply=19; eval=+0.20;', true);
    const expected = [
      '**LectureBot** kibitzes: Can you find the best move? @\u200beveryone',
      '**LurKing** whispers: ply=19; eval=+0.20;',
    ];
    // In both machines' threads: B's through the fleet, A's from its own FICS connection.
    expect(await waitForLines(world, postB, 2, "machine B's thread")).toEqual(expected);
    expect(await waitForLines(world, postA, 2, "machine A's thread")).toEqual(expected);
  });

  it('after the holder dies, reach each thread once, from the new holder’s FICS login or through the fleet; the end too', async () => {
    // Three machines: A holds the game and dies; of B and C, the first to renew after A's lease
    // ends takes the game over and hears its talk on FICS, the other gets it through the fleet.
    const { world, fleetDb, shardA, fleetEnv, machine, observeOn } = await fleetWorld(3);
    const [shardB, shardC] = [0, 1, 2].filter((shard) => shard !== shardA) as [number, number];
    const game = world.fics.addGame(scriptOf(fixture('lasker_flag#0')));
    // Machine A is a process of its own so that it can die as a machine does: SIGKILL, its lease
    // not given back, its sockets closed by the kernel.
    dir = mkdtempSync(join(tmpdir(), 'kibitz-fleet-kibitz-'));
    child = await BotChild.start({
      entry: BOT,
      fics: FAST_FICS,
      env: fleetEnv({
        DISCORD_TOKEN: world.fake.token,
        DISCORD_API_BASE: world.fake.apiBase,
        KIBITZ_DB: join(dir, 'machine-a.db'),
        FICS_HOST: '127.0.0.1',
        FICS_PORT: String(world.fics.port),
        KIBITZ_WEB_PORT: 'off',
        LOG_LEVEL: 'warn',
        SHARDS: JSON.stringify([shardA]),
        SHARD_COUNT: '3',
        KIBITZ_FLEET_LEASE_MS: String(LEASE_MS),
      }),
    });
    await world.fics.waitFor(() => world.fics.loggedIn().length === 1, "machine A's FICS login", 20_000);
    const sessionsOfA = new Set(world.fics.loggedIn().map((s) => s.id));
    // Machines B and C in this process (their pools, relays and storage at hand).
    const lease = { KIBITZ_FLEET_LEASE_MS: String(LEASE_MS) };
    const others = [await machine(shardB, lease), await machine(shardC, lease)] as const;
    await world.fake.waitFor(
      () => (world.fake.commands().some((c) => c.name === 'observe') ? true : undefined),
      'the commands registered',
    );

    expect((await world.command('observe', { game, kibitz: true }).reply()).content).toMatch(
      /live in its thread/,
    );
    for (const shard of [shardB, shardC])
      expect((await observeOn(shard, game)).content).toMatch(/live in its thread/);
    const posts = [await livePostOf(others[0]), await livePostOf(others[1])] as const;
    const threadA = [...world.fake.state.channels.values()].find(
      (c) => c.thread !== null && c.parentId === world.channelId,
    )!;
    const postA = { threadId: threadA.id, messageId: world.livePosts(threadA.id)[0]!.id };
    // Machine A holds the lease and alone observes the game on FICS.
    db = new pg.Pool({ connectionString: fleetDb, max: 1 });
    const leaseHolder = async () =>
      (await db!.query<{ holder: string }>('SELECT holder FROM fleet_leases WHERE game = $1', [game])).rows[0]
        ?.holder;
    const holderA = (await leaseHolder())!;
    expect(holderA.split(':')[1]).toBe(String(child.pid));
    expect(world.fics.observers(game).every((id) => sessionsOfA.has(id))).toBe(true);
    for (const bot of others) expect(bot.context.fics.snapshot(gameId(game))).toBeUndefined();

    world.fics.say(game, 'LectureBot(TD)(----)', 'Can you find the best move? @everyone');
    world.fics.say(game, 'LurKing(C)(2442)', 'ply=19; eval=+0.20;', true);
    const before = [
      '**LectureBot** kibitzes: Can you find the best move? @\u200beveryone',
      '**LurKing** whispers: ply=19; eval=+0.20;',
    ];
    for (const [post, where] of [
      ...posts.map((post, i) => [post, `machine ${'BC'[i]}'s thread`] as const),
      [postA, "machine A's thread"] as const,
    ])
      expect(await waitForLines(world, post, 2, where)).toEqual(before);

    // Machine A dies. Its lease ends now on the database's clock instead of LEASE_MS later.
    await child.kill();
    child = null;
    await moveLeaseEnd(db, { holder: holderA });
    await world.fics.waitFor(
      () => world.fics.loggedIn().every((s) => !sessionsOfA.has(s.id)),
      "machine A's FICS logins to go",
      10_000,
    );
    // B or C takes the lease over and observes the game on its own FICS login, once.
    const taker = () => others.findIndex((bot) => bot.context.fics.snapshot(gameId(game)) !== undefined);
    await world.fics.waitFor(
      () => world.fics.observers(game).length > 0 && taker() >= 0,
      'a survivor to observe the game',
      20_000,
    );
    const [observer, ...more] = world.fics.observers(game);
    expect(more).toEqual([]);
    expect(sessionsOfA.has(observer!)).toBe(false);
    const observes = world.fics
      .commands(observer)
      .filter((line) => /^\$*(?:\d+ )?observe (\d+)\s*$/.exec(line.trim())?.[1] === String(game));
    expect(observes).toHaveLength(1);
    // The lease is this process's now (B's or C's).
    expect((await leaseHolder())?.split(':')[1]).toBe(String(process.pid));
    const reader = others[1 - taker()]!;
    expect(reader.context.fics.snapshot(gameId(game))).toBeUndefined();

    world.fics.say(game, 'Carol(1800)', 'after the takeover *here* @here');
    world.fics.say(game, 'LurKing(C)(2442)', 'ply=20; eval=+0.35;', true);
    const after = [
      '**Carol** kibitzes: after the takeover \\*here\\* @\u200bhere',
      '**LurKing** whispers: ply=20; eval=+0.35;',
    ];
    const where = (i: number) => `the ${i === taker() ? 'new holder' : 'reader'}'s thread`;
    for (const [i, post] of posts.entries())
      expect(await waitForLines(world, post, 4, where(i))).toEqual([...before, ...after]);

    // The end reaches both posts: their final edits with the PGN.
    const revisions = posts.map((post) => world.fake.message(post.messageId)!.revisions.length);
    world.fics.playAll(game);
    for (const [i, post] of posts.entries())
      await world.waitForMessage(
        post.messageId,
        (m) => m.revisions.length > revisions[i]! && m.attachments.some((a) => a.filename.endsWith('.pgn')),
        `the final post in ${where(i)}`,
        20_000,
      );
    for (const bot of others) await bot.context.relay.idle();
    // Nothing more came with the end: each line once, those before the takeover not again.
    for (const post of posts) expect(threadLines(world, post)).toEqual([...before, ...after]);
    // Both final PGNs keep every line once, in order: the new holder carried the dead one's over.
    for (const post of posts)
      expect(pgnComments(world, post.messageId)).toEqual([
        'LectureBot: Can you find the best move? @everyone',
        'LurKing: ply=19; eval=+0.20;',
        'Carol: after the takeover *here* @here',
        'LurKing: ply=20; eval=+0.35;',
      ]);
  });
});

/** The comments of a post's PGN file, clocks left out: what was said in the game. */
function pgnComments(world: World, messageId: string): string[] {
  const pgn = world.fake.message(messageId)!.attachments.find((a) => a.filename.endsWith('.pgn'))!;
  const movetext = pgn.bytes.toString('utf8').split('\n\n').slice(1).join('\n\n');
  return [...movetext.matchAll(/\{ ([^}]*) \}/g)].map((m) => m[1]!).filter((c) => !c.startsWith('[%'));
}

/** A machine's one live post with its thread; stored just after the reply, so looked for a bounded number of times. */
async function livePostOf(bot: BotHandle): Promise<LivePost & { threadId: string; messageId: string }> {
  for (let tries = 0; tries < 400; tries++) {
    const [post] = await bot.context.storage.livePosts.listLive();
    if (post?.threadId != null && post.messageId != null)
      return post as LivePost & { threadId: string; messageId: string };
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('no live post with a thread');
}
