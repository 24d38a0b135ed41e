// /settings through the real bot: a server's kibitz default reaches /observe without `kibitz:` and
// survives a restart (the opt-in is kept with the post), and a server's theme colours its post's
// pictures (live board, final GIF) and the live page its link opens.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { themeByName } from '../../render/theme.js';
import { count, decodeGif, decodePng, hex, same, type Decoded } from '../render/pixels.js';
import { START_FEN } from './images.js';
import { World, boardPng, fixture, scriptOf } from './harness.js';

const NO_EDIT_LIMIT = { rateLimits: { messageEdit: { limit: 10_000, windowMs: 1_000 } } };
const PUBLIC_URL = 'https://kibitz.example.org';
const grey = themeByName('grey');
const brown = themeByName('brown');

let w: World | null = null;
afterEach(async () => {
  await w?.close();
  w = null;
});

/** Pixels of a picture in exactly this colour. */
const inColour = (image: Decoded, colour: string): number =>
  count(image, { x: 0, y: 0, w: image.width, h: image.height }, same(hex(colour)));

describe('/settings', () => {
  it('needs Manage Server, and says what is set', async () => {
    const world = (w = await World.start());
    await world.startBot();
    const refused = await world.command('settings show').reply();
    expect(refused).toMatchObject({ ephemeral: true, content: expect.stringMatching(/Manage Server/) });
    const owner = { user: world.fake.owner };
    expect((await world.command('settings show', {}, owner).reply()).content).toBe(
      'Board theme: **brown**. Kibitzes by default: **off**.',
    );
    const set = await world.command('settings theme', { theme: 'grey' }, owner).reply();
    expect(set).toMatchObject({
      ephemeral: true,
      content: expect.stringMatching(/^Board theme: \*\*grey\*\*/),
    });
    expect((await world.command('settings show', {}, owner).reply()).content).toBe(
      'Board theme: **grey**. Kibitzes by default: **off**.',
    );
    // Registered for admins only (Manage Server, bit 5; sent as the schema's integer, register.ts).
    const registered = [...world.fake.state.commands.values()].flat().find((c) => c.name === 'settings');
    expect(String(registered?.default_member_permissions)).toBe('32');
  });

  it('kibitz on: /observe without kibitz: makes a thread and the talk goes there, also after a restart', async () => {
    const world = (w = await World.start({ dbFile: true, discord: NO_EDIT_LIMIT }));
    const game = world.fics.addGame(scriptOf(fixture('lasker_flag#0')));
    await world.startBot();
    const owner = { user: world.fake.owner };
    const set = await world.command('settings kibitz', { kibitz: 'on' }, owner).reply();
    expect(set.content).toMatch(/Kibitzes by default: \*\*on\*\*/);

    expect((await world.command('observe', { game }).reply()).content).toMatch(/is live in its thread/);
    const [live] = await world.running.context.storage.livePosts.listLive();
    const threadId = live!.threadId!;
    expect(threadId).not.toBeNull();
    const post = live!.messageId!;
    const said = () =>
      world.fake
        .messagesIn(threadId)
        .filter((m) => m.author.id === world.fake.bot.id && m.id !== post)
        .map((m) => m.content);
    const waitSaid = (text: string) =>
      world.fake.waitFor(() => (said().includes(text) ? true : undefined), text, 15_000);

    world.fics.say(game, 'LectureBot(TD)(----)', 'Can you find the best move?');
    await waitSaid('**LectureBot** kibitzes: Can you find the best move?');

    await world.stopBot();
    world.fics.playMove(game);
    await world.startBot();
    // Resumed: the move played while it was down reaches the same message, then talk follows.
    await world.waitForMessage(post, (m) => m.revisions.length >= 2, 'the post resumed');
    world.fics.say(game, 'LurKing(C)(2442)', 'ply=1; eval=+0.30;', true);
    await waitSaid('**LurKing** whispers: ply=1; eval=+0.30;');
  });

  it("kibitz on: a club member's game posted unasked in a thread carries the talk", async () => {
    const world = (w = await World.start({ discord: NO_EDIT_LIMIT }));
    await world.startBot();
    const owner = { user: world.fake.owner };
    await world.command('settings kibitz', { kibitz: 'on' }, owner).reply();
    await world.command('club channel', { thread: true }, owner).reply();
    await world.command('club add', { handle: 'Alice' }, owner).reply();
    const game = world.fics.addGame(scriptOf(fixture('lasker_flag#0'), { white: 'Alice', black: 'Xavier' }));
    const storage = world.running.context.storage;
    const live = await vi.waitFor(
      async () => {
        const post = (await storage.livePosts.listLive()).find((p) => p.threadId !== null);
        if (post === undefined) throw new Error('no club post in a thread yet');
        return post;
      },
      { timeout: 15_000, interval: 50 },
    );
    expect(live.options.kibitz).toBe(true);
    world.fics.say(game, 'Xavier(1500)', 'good luck');
    await world.fake.waitFor(
      () =>
        world.fake.messagesIn(live.threadId!).some((m) => m.content === '**Xavier** kibitzes: good luck')
          ? true
          : undefined,
      'the kibitz in the club thread',
      15_000,
    );
  });

  it('theme grey: the live board, the final GIF and the live page are grey', async () => {
    const world = (w = await World.start({ discord: NO_EDIT_LIMIT }));
    const game = world.fics.addGame(scriptOf(fixture('lasker_flag#0')));
    const bot = await world.startBot({ env: { KIBITZ_WEB_PORT: '0', KIBITZ_PUBLIC_URL: PUBLIC_URL } });
    const owner = { user: world.fake.owner };
    await world.command('settings theme', { theme: 'grey' }, owner).reply();
    expect((await world.command('observe', { game }).reply()).content).toMatch(/is live here/);
    const post = world.livePosts().at(-1)!;

    const board = await decodePng(boardPng(post));
    expect(inColour(board, grey.dark)).toBeGreaterThan(1000);
    expect(inColour(board, brown.dark)).toBe(0);

    // /position in this server is drawn in its theme too (after the post: the renderer is warm, as
    // /position answers after drawing, within Discord's 3 s).
    const position = await world.command('position', { fen: START_FEN }).reply();
    const drawn = await decodePng(position.files[0]!.bytes);
    expect(inColour(drawn, grey.dark)).toBeGreaterThan(1000);
    expect(inColour(drawn, brown.dark)).toBe(0);

    // The post's "Watch live" link opens the page in the same colours.
    const link = (post.components as { components?: { label?: string; url?: string }[] }[])
      .flatMap((row) => row.components ?? [])
      .find((c) => c.label === 'Watch live')!.url!;
    expect(link).toMatch(/^https:\/\/kibitz\.example\.org\/g\/[A-Za-z0-9_-]{22}\?theme=grey$/);
    const local = link.replace(PUBLIC_URL, bot.web!.url);
    const page = await (await fetch(local)).text();
    expect(page).toContain('data-theme="grey"');
    expect(page).toContain('<link rel="stylesheet" href="/assets/themes.css">');
    const css = await (await fetch(`${bot.web!.url}/assets/themes.css`)).text();
    expect(css).toContain(
      `.live[data-theme="grey"] cg-board { background: repeating-conic-gradient(${grey.dark} 0 25%, ${grey.light} 0 50%)`,
    );
    const preview = await decodePng(
      Buffer.from(await (await fetch(local.replace('?', '.png?'))).arrayBuffer()),
    );
    expect(inColour(preview, grey.dark)).toBeGreaterThan(1000);

    const revisions = world.fake.message(post.id)!.revisions.length;
    world.fics.playAll(game);
    const final = await world.waitForMessage(
      post.id,
      (m) => m.revisions.length > revisions && m.attachments.some((a) => a.filename.endsWith('.gif')),
      'the final post',
    );
    const gif = decodeGif(final.attachments.find((a) => a.filename.endsWith('.gif'))!.bytes);
    expect(inColour(gif.frames[0]!, grey.light)).toBeGreaterThan(1000);
    expect(inColour(gif.frames[0]!, brown.light)).toBe(0);
  });
});
