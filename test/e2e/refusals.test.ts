// Discord refusing the bot's live posts, through the real bot (FICS fake -> relay -> discord.js ->
// Discord fake): header-less 429s (a banned IP), refusals for good (message deleted, channel or
// permission gone) and what the bot then sends to Discord and to FICS.
import { afterEach, describe, expect, it } from 'vitest';
import type { FakeMessage, RecordedRequest } from '../fake-discord/index.js';
import { World, embedOf, shuffleScript } from './harness.js';
import { gameId, handle } from '../support/fics-values.js';
import { ManualClock } from '../support/manual-clock.js';

const EDIT_ROUTE = '/channels/:channel_id/messages/:message_id';
/** Discord's own edit bucket is not what these tests are about. */
const NO_EDIT_LIMIT = { rateLimits: { messageEdit: { limit: 10_000, windowMs: 1_000 } } };

let w: World | null = null;
afterEach(async () => {
  await w?.close();
  w = null;
});

async function observe(world: World, game: number, channelId = world.channelId): Promise<FakeMessage> {
  const reply = await world.command('observe', { game }, {}, channelId).reply();
  expect(reply.content).toMatch(new RegExp(`^Game ${game}, .* is live here`));
  return world.livePosts(channelId).at(-1)!;
}

function requestsFor(world: World, messageId: string, afterSeq: number): RecordedRequest[] {
  return world.fake.requests.filter((r) => r.seq > afterSeq && r.path.endsWith(`/messages/${messageId}`));
}

const lastSeq = (world: World): number => world.fake.requests.at(-1)?.seq ?? 0;

/** Plain-text notices of the bot in the channel (not boards, not interaction replies). */
function notices(world: World): string[] {
  return world.livePosts().flatMap((m) => (m.embeds.length === 0 ? [m.content] : []));
}

describe('header-less 429s (a banned IP)', () => {
  it('on every edit of three live boards for 10 s: at most 10 requests in those 10 s, one warning, then edits resume by themselves', async () => {
    const world = (w = await World.start({ discord: NO_EDIT_LIMIT }));
    const games = ['A', 'B', 'C'].map((name) =>
      world.fics.addGame(shuffleScript(400, { white: `White${name}`, black: `Black${name}` })),
    );
    // One channel per board: a channel's own edit bucket (5 per 5 s) is not what holds them back.
    const channels = games.map((_, i) => world.fake.createChannel(world.guildId, { name: `boards-${i}` }).id);
    // The bot's edits are paced and paused by a clock the test moves: 10 s of it take no 10 s.
    const clock = new ManualClock();
    await world.startBot({ editClock: clock });
    const { fics, relay } = world.running.context;
    /** Plies the bot has read of each game; null until the games are live. */
    let plies: number[] | null = null;
    /**
     * Moves the clock on, once the bot has read every move played and every edit given its turn
     * has been answered: what happened by then happened before the clock moved.
     */
    const step = async (ms: number, what: string): Promise<void> => {
      await world.fake.waitFor(
        () =>
          (plies === null ||
            games.every((game, i) => fics.snapshot(gameId(game))!.san.length === plies![i])) &&
          relay.scheduleFigures().inFlight === 0,
        what,
      );
      await clock.advance(ms);
    };
    /** Moves the clock on by tenths of a second until `promise` settles (a minute of it at most). */
    const advancingUntil = async <T>(promise: Promise<T>, what: string): Promise<T> => {
      let settled = false;
      const result = promise.finally(() => (settled = true));
      for (let waited = 0; waited < 60_000 && !settled; waited += 100) await step(100, what);
      return result;
    };
    const posts: FakeMessage[] = [];
    for (const [i, game] of games.entries())
      posts.push(await advancingUntil(observe(world, game, channels[i]), 'the post'));
    await advancingUntil(world.relayIdle(), 'the relay idle');
    plies = games.map((game) => fics.snapshot(gameId(game))!.san.length);

    world.fake.failNext({ method: 'PATCH', route: EDIT_ROUTE }, { kind: 'blocked' }, 1_000_000);
    const before = lastSeq(world);
    // A move every 100 ms: without restraint each would be an edit, and each refusal a retry at once.
    let moves = 0;
    const started = clock.now();
    while (clock.now() - started < 10_000) {
      for (const [i, game] of games.entries()) {
        world.fics.playMove(game);
        plies[i]!++;
      }
      moves += games.length;
      await step(100, 'the moves read and the edits answered');
    }
    await step(0, 'the last edits answered');
    const window = world.fake.requests.filter((r) => r.seq > before);
    console.info(
      `figure: ${window.length} requests reached Discord in 10 s of header-less 429s on every edit of 3 boards, ${moves} moves played (counted, asserted at most 10)`,
    );
    expect(moves).toBe(300);
    expect(window.length).toBeGreaterThan(0);
    expect(window.length).toBeLessThanOrEqual(10);
    expect(window.every((r) => r.status === 429 && r.method === 'PATCH')).toBe(true);
    const warnings = world.logLines.filter((l) => l.includes('board edits paused bot-wide'));
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0]!)).toMatchObject({ level: 40, cause: 'a 429 without Retry-After' });

    // The ban lifts: every board catches up with its newest position without anyone doing anything
    // but the clock going on (the longest pause is over within a minute of it).
    world.fake.clearFaults();
    const newest = games.map((game, i) => {
      plies[i]!++;
      return world.fics.playMove(game);
    });
    const caughtUp = (): boolean =>
      posts.every((post, i) => embedOf(world.fake.message(post.id)!).description.endsWith(newest[i]!));
    for (let waited = 0; waited < 60_000 && !caughtUp(); waited += 1_000)
      await step(1_000, 'the edits answered');
    await step(0, 'the last edits answered');
    expect(caughtUp()).toBe(true);
    expect(world.fake.bans).toBe(0);
  });
});

describe('refusals for good', () => {
  it('a deleted live message: no request for it after the 10008, unobserved, the cap slot free, the channel told once', async () => {
    const world = (w = await World.start({ discord: NO_EDIT_LIMIT }));
    const game = world.fics.addGame(shuffleScript(60));
    const other = world.fics.addGame(shuffleScript(60, { white: 'Other', black: 'Player' }));
    await world.startBot({ env: { KIBITZ_MAX_LIVE_PER_GUILD: '1' } });
    const post = await observe(world, game);
    const full = await world.command('observe', { game: other }).reply();
    expect(full.content).toMatch(/already relays 1 live games, its limit/);

    world.fake.deleteMessage(post.id);
    world.fics.playMove(game);
    // Moves already on their way: sent by FICS before it hears the unobserve, held on the way
    // until after it, so that they reach a bot whose post has ended.
    world.fics.stall(true);
    world.fics.playMoves(game, 3);
    const refused = await world.fake.waitForRequest(
      (r) => r.path.endsWith(`/messages/${post.id}`) && r.status === 404,
    );
    expect(refused.response).toMatchObject({ code: 10008 });
    await world.fics.waitFor(
      () => world.fics.commands().some((c) => c.endsWith(`unobserve ${game}`)),
      'the bot to unobserve the game',
    );
    const unobservedAfterMs = Date.now() - refused.at;
    world.fics.stall(false);
    // The guild's one slot is free again. FICS answers in order, so once the other game is
    // observed the bot has read the three moves; once the relay is idle it has handled them.
    await observe(world, other);
    await world.relayIdle();
    expect(requestsFor(world, post.id, refused.seq)).toEqual([]);
    expect(notices(world)).toEqual([
      `The live board of game ${game} (Shuffler vs Mirror) stopped: the board message was deleted.`,
    ]);
    expect(await world.running.context.storage.livePosts.get(1)).toMatchObject({
      state: 'ended',
      endReason: 'the board message was deleted',
    });
    console.info(`figure: FICS unobserve ${unobservedAfterMs} ms after the 10008 (measured, not asserted)`);
  });

  it('each refusal for good is sent once, ends the post with its reason, and is told only where it can be', async () => {
    const world = (w = await World.start({ discord: NO_EDIT_LIMIT }));
    await world.startBot();
    const cases = [
      { status: 404, code: 10003, reason: 'the channel was deleted', told: false },
      { status: 404, code: 10004, reason: 'Kibitz is no longer in this server', told: false },
      { status: 403, code: 50001, reason: 'Kibitz can no longer see this channel', told: false },
      { status: 400, code: 50083, reason: 'the thread was archived', told: false },
      { status: 403, code: 50013, reason: 'Kibitz lacks a permission it needs in this channel', told: true },
      { status: 400, code: 50006, reason: 'Discord refused it (400, code 50006)', told: false },
    ];
    for (const [i, c] of cases.entries()) {
      const game = world.fics.addGame(shuffleScript(60, { white: `White${i}`, black: `Black${i}` }));
      const post = await observe(world, game);
      await world.relayIdle();
      const told = notices(world).length;
      world.fake.failNext(
        { method: 'PATCH', path: `/channels/${world.channelId}/messages/${post.id}` },
        { kind: 'error', status: c.status, code: c.code, message: 'refused' },
      );
      world.fics.playMove(game);
      const refused = await world.fake.waitForRequest(
        (r) => r.path.endsWith(`/messages/${post.id}`) && r.status === c.status,
      );
      await world.fics.waitFor(
        () => world.fics.commands().some((cmd) => cmd.endsWith(`unobserve ${game}`)),
        `unobserve after ${c.code}`,
      );
      await world.relayIdle();
      expect(requestsFor(world, post.id, refused.seq), `requests after ${c.code}`).toEqual([]);
      const stored = await world.running.context.storage.livePosts.listLiveByGame(gameId(game));
      expect(stored, `live posts after ${c.code}`).toEqual([]);
      const ended = await world.running.context.storage.livePosts.get(i + 1);
      expect(ended).toMatchObject({ state: 'ended', endReason: c.reason });
      expect(notices(world).length - told, `notices after ${c.code}`).toBe(c.told ? 1 : 0);
    }
    expect(world.fake.invalidRequests()).toBe(2);
  });
});

describe('the bot removed from a guild', () => {
  it('ends its live posts, sends nothing more to its channels, stops following for it, and restores it when added back', async () => {
    const world = (w = await World.start({ discord: NO_EDIT_LIMIT, dbFile: true }));
    const fake = world.fake;
    const other = fake.createGuild({ name: 'Other club' });
    const otherChannel = fake.createChannel(other.id, { name: 'marker' });
    await world.startBot();
    const manager = { user: fake.owner };
    expect((await world.command('follow', { player: 'Carlsen' }, manager).reply()).content).toMatch(
      /^Following/,
    );
    // Commands are registered in the world's guild only: the other guild's follow goes in directly.
    const { storage, fics } = world.running.context;
    await storage.follows.add({
      guildId: other.id,
      channelId: otherChannel.id,
      handle: 'Marker',
      createdBy: fake.owner.id,
    });
    await fics.follow(handle('Marker'));

    const first = world.fics.addGame(shuffleScript(60, { white: 'Carlsen', black: 'Nepo' }));
    await fake.waitFor(() => world.livePosts()[0], 'the followed game');
    await world.relayIdle();

    fake.removeBot(world.guildId);
    await world.fics.waitFor(
      () => world.fics.commands().some((c) => c.endsWith(`unobserve ${first}`)),
      'the bot to unobserve the removed guild’s game',
    );
    const removedAt = lastSeq(world);
    world.fics.playMoves(first, 3);
    // Carlsen's next game, then a game only the other guild follows: once that one is posted, the
    // bot has heard of Carlsen's too (FICS sends in order).
    const next = world.fics.addGame(shuffleScript(60, { white: 'Carlsen', black: 'Ding' }));
    world.fics.addGame(shuffleScript(60, { white: 'Marker', black: 'Someone' }));
    await fake.waitFor(() => world.livePosts(otherChannel.id)[0], 'the other guild’s game');
    await world.relayIdle();

    const toRemoved = fake.requests.filter(
      (r) => r.seq > removedAt && r.path.startsWith(`/channels/${world.channelId}`),
    );
    expect(toRemoved).toEqual([]);
    expect(world.fics.commands().filter((c) => c.endsWith(`observe ${next}`))).toEqual([]);
    expect(await storage.livePosts.listLiveInGuild(world.guildId)).toEqual([]);
    expect(await storage.livePosts.get(1)).toMatchObject({
      state: 'ended',
      endReason: 'Kibitz was removed from this server',
    });
    // Kept, inactive.
    expect((await storage.follows.listForGuild(world.guildId)).map((f) => f.handle)).toEqual(['Carlsen']);
    expect(await storage.follows.handles()).toEqual(['Marker']);

    // Added back: the follow applies again.
    fake.addBot(world.guildId);
    await fake.waitFor(
      () => (storage.interest.wantedBy(['Carlsen']).length === 1 ? true : undefined),
      'the follow back',
      5_000,
    );
    world.fics.endGame(next);
    const again = world.fics.addGame(shuffleScript(60, { white: 'Carlsen', black: 'Giri' }));
    const post = await fake.waitFor(
      () => world.livePosts().find((m) => embedOf(m).title.startsWith(`Game ${again}: Carlsen`)),
      'Carlsen’s game after the bot came back',
      5_000,
    );
    expect(embedOf(post).title).toMatch(new RegExp(`^Game ${again}: Carlsen .*vs Giri`));
  });

  it('while the bot was not running: the guild missing from READY is treated as removed', async () => {
    const world = (w = await World.start({ discord: NO_EDIT_LIMIT, dbFile: true }));
    const game = world.fics.addGame(shuffleScript(60));
    await world.startBot();
    await observe(world, game);
    await world.relayIdle();
    await world.stopBot();
    world.fake.removeBot(world.guildId);
    const stoppedAt = lastSeq(world);
    await world.startBot();
    await world.relayIdle();
    const storage = world.running.context.storage;
    expect(await storage.livePosts.get(1)).toMatchObject({
      state: 'ended',
      endReason: 'Kibitz was removed from this server',
    });
    expect(world.fics.commands().filter((c) => c.endsWith(`observe ${game}`))).toHaveLength(1);
    expect(
      world.fake.requests.filter(
        (r) => r.seq > stoppedAt && r.path.startsWith(`/channels/${world.channelId}`),
      ),
    ).toEqual([]);
  });
});
