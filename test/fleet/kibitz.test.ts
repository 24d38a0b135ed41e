// Kibitzes across a fleet: two bots (two shards of one token, each a machine of the fleet) on one
// PostgreSQL post the same game with kibitz:true. Only the lease holder observes it on FICS and
// hears its talk; the other machine's thread gets the lines through the fleet all the same.
import { afterEach, describe, expect, it } from 'vitest';
import type { BotHandle } from '../../src/app.js';
import { shardOfGuild } from '../../src/shard.js';
import type { LivePost } from '../../src/storage/live-posts.js';
import { World, fixture, scriptOf } from '../e2e/harness.js';
import { freshPostgresDatabase } from '../storage/backends.js';
import { gameId } from '../support/fics-values.js';

const NO_EDIT_LIMIT = { rateLimits: { messageEdit: { limit: 10_000, windowMs: 1_000 } } };
const SHARDS = 2;

let w: World | null = null;
let first: BotHandle | null = null;
afterEach(async () => {
  await first?.stop();
  first = null;
  await w?.close();
  w = null;
});

describe('kibitzes in a fleet', () => {
  it('reach the thread of a post on the machine that does not observe the game', async () => {
    const world = (w = await World.start({ discord: NO_EDIT_LIMIT }));
    const fleetDb = await freshPostgresDatabase();
    const shardA = shardOfGuild(world.guildId, SHARDS)!;
    // A second server on the other shard (ids grow with time: a few tries find one).
    let guildB = world.fake.createGuild({ name: 'Other Club' });
    for (let tries = 0; shardOfGuild(guildB.id, SHARDS) === shardA && tries < 64; tries++)
      guildB = world.fake.createGuild({ name: 'Other Club' });
    expect(shardOfGuild(guildB.id, SHARDS)).not.toBe(shardA);
    const channelB = world.fake.createChannel(guildB.id, { name: 'boards' });
    /** A machine running one shard: discord.js reads its shards from the environment when built. */
    const machine = async (shard: number): Promise<BotHandle> => {
      process.env.SHARDS = JSON.stringify([shard]);
      process.env.SHARD_COUNT = String(SHARDS);
      try {
        return await world.startBot({
          // Commands registered for every server (by the machine of shard 0), not for the world's alone.
          env: { KIBITZ_FLEET_DB: fleetDb, DISCORD_GUILD_ID: '', KIBITZ_SHARDS: String(SHARDS) },
        });
      } finally {
        delete process.env.SHARDS;
        delete process.env.SHARD_COUNT;
      }
    };
    const game = world.fics.addGame(scriptOf(fixture('lasker_flag#0')));
    first = await machine(shardA);
    const second = await machine(1 - shardA);
    const holderPool = first.context.fics;
    // Machine A posts the game first: it takes the lease and observes it on FICS.
    expect((await world.command('observe', { game, kibitz: true }).reply()).content).toMatch(
      /live in its thread/,
    );
    const replyB = await world.fake
      .command(guildB.id, channelB.id, 'observe', { game, kibitz: true })
      .reply();
    expect(replyB.content).toMatch(/live in its thread/);
    const [postA, postB] = [await livePostOf(first), await livePostOf(second)];
    // Only machine A observes the game on FICS.
    expect(holderPool.snapshot(gameId(game))).toBeDefined();
    expect(second.context.fics.snapshot(gameId(game))).toBeUndefined();

    const inThread = (post: LivePost) =>
      world.fake
        .messagesIn(post.threadId!)
        .filter((m) => m.author.id === world.fake.bot.id && m.id !== post.messageId)
        .map((m) => m.content);
    world.fics.say(game, 'LectureBot(TD)(----)', 'Can you find the best move? @everyone');
    world.fics.say(game, 'LurKing(C)(2442)', 'ply=19; eval=+0.20;', true);
    const expected = [
      '**LectureBot** kibitzes: Can you find the best move? @\u200beveryone',
      '**LurKing** whispers: ply=19; eval=+0.20;',
    ];
    // In both machines' threads: B's through the fleet, A's from its own FICS connection.
    for (const [post, where] of [
      [postB, "machine B's thread"],
      [postA, "machine A's thread"],
    ] as const) {
      const lines = await world.fake.waitFor(
        () => (inThread(post).length >= 2 ? inThread(post) : undefined),
        `the lines in ${where}`,
        20_000,
      );
      expect(lines).toEqual(expected);
    }
  });
});

/** A machine's one live post with its thread; stored just after the reply, so looked for a bounded number of times. */
async function livePostOf(bot: BotHandle): Promise<LivePost> {
  for (let tries = 0; tries < 400; tries++) {
    const [post] = await bot.context.storage.livePosts.listLive();
    if (post?.threadId != null) return post;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('no live post with a thread');
}
