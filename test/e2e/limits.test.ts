// Every message Kibitz builds fits Discord's limits whatever the input, and the final edit of a
// game always lands: the fake Discord refuses, as Discord does, an embed over its limits (50035)
// and a file too large (40005).
import { afterEach, describe, expect, it } from 'vitest';
import { DiscordPostPort } from '../../src/discord/live-port.js';
import { BOARD_IMAGE, PARTNER_IMAGE, type LiveMessage } from '../../src/relay/message.js';
import { EMBED_LIMITS } from '../fake-discord/index.js';
import { World, boardPng, buttonIds, embedOf, shuffleScript } from './harness.js';
import { expectImageShows } from './images.js';

const NO_EDIT_LIMIT = { rateLimits: { messageEdit: { limit: 10_000, windowMs: 1_000 } } };

let w: World | null = null;
afterEach(async () => {
  await w?.close();
  w = null;
});

type Embed = { title: string; description: string; footer: { text: string } };

function embedTexts(message: { embeds: unknown[] }): Embed {
  return message.embeds[0] as Embed;
}

describe('message limits', () => {
  it('the largest possible post and final edit are cut to fit, with an ellipsis', async () => {
    const world = (w = await World.start());
    await world.startBot();
    const port = new DiscordPostPort(world.running.client);
    const long = (n: number, c = 'x'): string => c.repeat(n);
    // Surrogate pairs right at the cut: never split.
    const board = {
      name: BOARD_IMAGE,
      data: Buffer.alloc(50_000, 1),
      description: `FEN: ${long(5_000, 'd')}`,
    };
    const huge: LiveMessage = {
      title: `Game 1: ${'♞'.repeat(10)}${'😀'.repeat(3_000)}`,
      lines: [long(3_000, 'a'), `${long(5_000, 'b')}\n\u0007`, long(10_000, '😀')],
      image: board,
      files: [],
      live: true,
      footer: null,
    };
    const where = await port.post(1, world.channelId, huge, `${long(300, 'T')}\nthread`);
    const thread = world.fake.message(where.messageId)!;
    const posted = embedTexts(thread);
    expect(posted.title.length).toBeLessThanOrEqual(EMBED_LIMITS.title);
    expect(posted.title.length).toBeGreaterThanOrEqual(EMBED_LIMITS.title - 1);
    expect(posted.title.endsWith('…')).toBe(true);
    expect(posted.description.length).toBeLessThanOrEqual(EMBED_LIMITS.description);
    expect(posted.description.endsWith('…')).toBe(true);
    expect(world.fake.state.channels.get(where.messageChannelId)!.name).toHaveLength(100);

    const final: LiveMessage = {
      ...huge,
      files: [
        { name: 'game-1.pgn', data: Buffer.alloc(2_000_000, 'e') },
        { name: 'game-1.gif', data: Buffer.alloc(8 * 1024 * 1024, 0), description: `FEN: ${long(2_000)}` },
      ],
      live: false,
      footer: `1-0 · ${long(3_000, 'r')}`,
      // A bughouse game's partner board: a second embed, whose title counts in the 6,000 too.
      partner: {
        title: `Partner board · ${long(3_000, 'p')}`,
        image: { name: PARTNER_IMAGE, data: Buffer.alloc(1_000, 1), description: `FEN: ${long(2_000)}` },
      },
    };
    await port.edit(1, where.messageChannelId, where.messageId, final);
    const edited = world.fake.message(where.messageId)!;
    const texts = embedTexts(edited);
    expect(texts.footer.text.endsWith('…')).toBe(true);
    // Alt text is cut to Discord's 1,024 characters too.
    for (const file of [
      thread.attachments[0]!,
      ...edited.attachments.filter((a) => a.filename !== 'game-1.pgn'),
    ]) {
      expect(file.description).toHaveLength(1_024);
      expect(file.description!.endsWith('…')).toBe(true);
    }
    const partner = edited.embeds[1] as { title: string };
    expect(partner.title).toHaveLength(EMBED_LIMITS.title);
    expect(
      texts.title.length + texts.description.length + texts.footer.text.length + partner.title.length,
    ).toBeLessThanOrEqual(EMBED_LIMITS.total);
    expect(edited.attachments.map((a) => a.filename)).toEqual([
      BOARD_IMAGE,
      PARTNER_IMAGE,
      'game-1.pgn',
      'game-1.gif',
    ]);
    expect(buttonIds(edited)).toEqual(['clip:1']);
  });

  it('a 3,000-character end text from FICS still ends the post, cut to fit', async () => {
    const world = (w = await World.start({ discord: NO_EDIT_LIMIT }));
    const game = world.fics.addGame(shuffleScript(10));
    await world.startBot();
    await world.command('observe', { game }).reply();
    const [post] = world.livePosts();
    world.fics.playMoves(game, 10);
    world.fics.endGame(game, '1-0', `Mirror resigns ${'because '.repeat(375)}`);
    const ended = await world.waitForMessage(post!.id, (m) => embedOf(m).footer !== null, 'the final edit');
    const footer = embedOf(ended).footer!;
    expect(footer.startsWith('1-0 · Mirror resigns because')).toBe(true);
    expect(footer.endsWith('…')).toBe(true);
    expect(footer.length).toBeLessThanOrEqual(1_024);
  });
});

describe('a final edit refused for its size', () => {
  const sent = [BOARD_IMAGE, 'game-1.pgn', 'game-1-clocks.png'];
  for (const [refusals, without] of [
    [1, 'the clock chart'],
    [2, 'the clock chart and the PGN'],
  ] as const) {
    const files = sent.slice(0, sent.length - refusals);
    it(`refused ${refusals} times goes again without ${without}: the result and the final board still show`, async () => {
      const world = (w = await World.start({ discord: NO_EDIT_LIMIT }));
      const game = world.fics.addGame(shuffleScript(12));
      await world.startBot();
      await world.command('observe', { game }).reply();
      const [post] = world.livePosts();
      const san = world.fics.playMoves(game, 12).at(-1)!;
      const fen = world.fics.game(game)!.fen;
      await world.waitForMessage(post!.id, (m) => embedOf(m).description.endsWith(san), 'the last move');
      await world.relayIdle();
      world.fake.failNext(
        { method: 'PATCH', path: `/channels/${world.channelId}/messages/${post!.id}` },
        { kind: 'error', status: 413, code: 40005, message: 'Request entity too large' },
        refusals,
      );
      world.fics.endGame(game, '1/2-1/2', 'Game drawn by repetition');
      const ended = await world.waitForMessage(post!.id, (m) => embedOf(m).footer !== null, 'the final edit');
      expect(embedOf(ended).footer).toBe('½-½ · Game drawn by repetition');
      expect(ended.attachments.map((a) => a.filename)).toEqual(files);
      await expectImageShows(boardPng(ended), fen, 'white', true);
      const refused = world.fake.requests.filter(
        (r) => r.path.endsWith(`/messages/${post!.id}`) && r.status === 413,
      );
      // Each refusal takes the last file off: the chart, then the PGN.
      expect(refused.map((r) => r.files.map((f) => f.filename))).toEqual(
        Array.from({ length: refusals }, (_, i) => sent.slice(0, sent.length - i)),
      );
      // No GIF follows a final that was cut: it would be refused again.
      await world.relayIdle();
      expect(world.fake.message(post!.id)!.attachments.map((a) => a.filename)).toEqual(files);
    });
  }

  it('a GIF refused for its size is given up: the final edit before it stays', async () => {
    const world = (w = await World.start({ discord: NO_EDIT_LIMIT }));
    const game = world.fics.addGame(shuffleScript(12));
    await world.startBot();
    await world.command('observe', { game }).reply();
    const [post] = world.livePosts();
    world.fics.playMoves(game, 12);
    world.fake.failNext(
      { method: 'PATCH', path: `/channels/${world.channelId}/messages/${post!.id}`, file: 'game-1.gif' },
      { kind: 'error', status: 413, code: 40005, message: 'Request entity too large' },
    );
    world.fics.endGame(game, '1/2-1/2', 'Game drawn by repetition');
    await world.waitForMessage(post!.id, (m) => embedOf(m).footer !== null, 'the final edit');
    await world.relayIdle();
    const refused = world.fake.requests.filter(
      (r) => r.path.endsWith(`/messages/${post!.id}`) && r.status === 413,
    );
    expect(refused.map((r) => r.files.map((f) => f.filename))).toEqual([[...sent, 'game-1.gif']]);
    expect(world.fake.message(post!.id)!.attachments.map((a) => a.filename)).toEqual(sent);
    expect(embedOf(world.fake.message(post!.id)!).footer).toBe('½-½ · Game drawn by repetition');
  });
});
