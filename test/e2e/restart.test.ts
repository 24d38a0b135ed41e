// A bot stopped mid-game and started again on the same database picks up its live posts: it keeps
// editing the same messages, and marks the games that ended meanwhile as ended offline.
import BetterSqlite3 from 'better-sqlite3';
import { PermissionFlagsBits } from 'discord.js';
import { afterEach, expect, it } from 'vitest';
import type { FakeMessage } from '../fake-discord/index.js';
import { expectImageShows } from './images.js';
import { World, addBughousePair, boardPng, embedOf, fixture, scriptOf } from './harness.js';

let w: World | null = null;
afterEach(async () => {
  await w?.close();
  w = null;
});

it('resumes editing the same message after a restart; a game that ended meanwhile is marked ended offline', async () => {
  const world = (w = await World.start({
    dbFile: true,
    discord: { rateLimits: { messageEdit: { limit: 10_000, windowMs: 1_000 } } },
  }));
  const players = (white: string, black: string) => ({ white, black });
  const a = world.fics.addGame(scriptOf(fixture('fatics_master_seq#0'), players('Alekhine', 'Botvinnik')));
  const b = world.fics.addGame(scriptOf(fixture('fatics_master_seq#3'), players('Capablanca', 'Euwe')));
  const d = world.fics.addGame(scriptOf(fixture('lasker_master_seq#0'), players('Fischer', 'Spassky')));
  await world.startBot();
  const posts: FakeMessage[] = [];
  for (const game of [a, b, d]) {
    const reply = await world.command('observe', { game }).reply();
    expect(reply.content).toMatch(/is live here/);
    posts.push(world.livePosts().at(-1)!);
  }
  const [postA, postB, postD] = posts as [FakeMessage, FakeMessage, FakeMessage];
  world.fics.playMoves(a, 2);
  await world.waitForMessage(postA.id, (m) => m.revisions.length === 2, 'the edit of game A');
  await world.relayIdle();

  // Killed without ending anything; meanwhile A goes on, B ends and its number goes to a new
  // game of other players, D ends.
  await world.stopBot();
  world.fics.playMoves(a, 3);
  world.fics.endGame(b, '1-0', 'Euwe resigns');
  const c = world.fics.addGame(scriptOf(fixture('lasker_flag#0'), players('Karpov', 'Kasparov')));
  expect(c).toBe(b);
  world.fics.endGame(d, '0-1', 'Fischer forfeits by disconnection');
  const postRequests = world.fake.requestsTo('POST', '/channels/:channel_id/messages').length;

  await world.startBot();
  // A: the same message catches up with the moves played while the bot was down.
  const caughtUp = await world.waitForMessage(
    postA.id,
    (m) => embedOf(m).description.endsWith('3. Qe2'),
    'game A resumed',
  );
  await expectImageShows(boardPng(caughtUp), world.fics.game(a)!.fen);
  // B and D: marked ended offline, buttons gone, the last picture kept.
  for (const post of [postB, postD]) {
    const offline = await world.waitForMessage(post.id, (m) => embedOf(m).footer !== null, 'an offline end');
    expect(embedOf(offline).footer).toBe('ended while offline');
    expect(offline.components).toEqual([]);
    expect(boardPng(offline).equals(boardPng(post))).toBe(true);
  }
  // The game that now has B's number is not Kibitz's business: observed to check, then let go.
  await world.fics.waitFor(() => world.fics.observers(c).length === 0, 'the new game released');

  // Live again: the next move edits the same message, and no message was posted anew.
  const revisions = world.fake.message(postA.id)!.revisions.length;
  world.fics.playMove(a);
  const next = await world.waitForMessage(postA.id, (m) => m.revisions.length > revisions, 'a move after');
  await expectImageShows(boardPng(next), world.fics.game(a)!.fen);
  expect(world.fake.requestsTo('POST', '/channels/:channel_id/messages')).toHaveLength(postRequests);
  expect(world.livePosts().map((m) => m.id)).toEqual([postA.id, postB.id, postD.id]);
  const storage = world.running.context.storage;
  expect((await storage.livePosts.listLive()).map((p) => p.messageId)).toEqual([postA.id]);
});

/** A bughouse post live when the bot stops, both its games ended before it starts again. */
async function bughouseEndedOffline(world: World, beforeStart: () => void = () => undefined) {
  const [ga, gb] = addBughousePair(world);
  await world.startBot();
  const reply = await world.command('observe', { game: ga }).reply();
  expect(reply.content).toMatch(/is live here/);
  const post = await world.waitForMessage(
    world.livePosts().at(-1)!.id,
    (m) => m.attachments.some((f) => f.filename === 'partner.png'),
    'the post with both boards',
  );
  await world.relayIdle();

  await world.stopBot();
  world.fics.endGame(ga, '1-0', 'Black resigns');
  world.fics.endGame(gb, '0-1', 'White resigns');
  beforeStart();
  await world.startBot();
  const offline = await world.waitForMessage(post.id, (m) => embedOf(m).footer !== null, 'an offline end');
  expect(embedOf(offline).footer).toBe('ended while offline');
  // Both pictures kept, each still in its embed: none shows as a loose file under the message.
  const pictures = (m: FakeMessage) => (m.embeds as { image?: { url: string } }[]).map((e) => e.image?.url);
  expect(pictures(offline)).toEqual(['attachment://board.png', 'attachment://partner.png']);
  expect(offline.attachments.map((f) => f.filename)).toEqual(['board.png', 'partner.png']);
  const [own, partner] = offline.embeds as { title?: string; color?: number }[];
  // The pair in the colour of an unknown end, as the game's own embed.
  expect(partner!.color).toBe(own!.color);
  expect(world.fake.state.loosePictures).toEqual([]);
  const reads = world.fake.requestsTo('GET', '/channels/:channel_id/messages/:message_id');
  return { post, partnerTitle: partner!.title, reads };
}

it('a bughouse game that ended while the bot was stopped keeps both boards in their embeds, reading nothing', async () => {
  const world = (w = await World.start({
    dbFile: true,
    discord: { rateLimits: { messageEdit: { limit: 10_000, windowMs: 1_000 } } },
  }));
  const { partnerTitle, reads } = await bughouseEndedOffline(world);
  // The post's stored pair made the partner's embed: the message was not read back.
  expect(reads).toEqual([]);
  expect(partnerTitle).toBe('Partner board');
});

it('a bughouse post stored before its pair was keeps both boards by reading its message once', async () => {
  const world = (w = await World.start({
    dbFile: true,
    discord: { rateLimits: { messageEdit: { limit: 10_000, windowMs: 1_000 } } },
  }));
  const { post, partnerTitle, reads } = await bughouseEndedOffline(world, () => {
    // As migration 6 leaves a post stored before it.
    const db = new BetterSqlite3(world.dbPath);
    db.prepare('UPDATE live_posts SET pair = NULL').run();
    db.close();
  });
  expect(reads.map((r) => r.params)).toEqual([expect.objectContaining({ message_id: post.id })]);
  expect(partnerTitle).toBe((post.embeds[1] as { title?: string }).title);
});

it('a game that ended while the bot was stopped is ended in a channel it cannot read the history of', async () => {
  const world = (w = await World.start({ dbFile: true }));
  const game = world.fics.addGame(scriptOf(fixture('fatics_master_seq#0')));
  await world.startBot();
  const reply = await world.command('observe', { game }).reply();
  expect(reply.content).toMatch(/is live here/);
  const post = world.livePosts().at(-1)!;
  await world.relayIdle();

  await world.stopBot();
  world.fics.endGame(game, '1-0', 'Black resigns');
  // Read Message History is asked for, not checked: the end must not need it.
  world.fake.setOverwrite(world.channelId, {
    id: world.fake.botRole(world.guildId).id,
    type: 'role',
    deny: PermissionFlagsBits.ReadMessageHistory,
  });
  await world.startBot();
  const offline = await world.waitForMessage(post.id, (m) => embedOf(m).footer !== null, 'an offline end');
  expect(embedOf(offline).footer).toBe('ended while offline');
  expect(boardPng(offline).equals(boardPng(post))).toBe(true);
});
