// Kibitzes and whispers from the fake FICS (freechess.org's line format) through the real bot: into
// the post's thread as they come, made inert, folded past the per-game pace, and into the final PGN
// at the ply they were said.
import { afterEach, describe, expect, it } from 'vitest';
import { SAID_PER_WINDOW } from '../../src/relay/said-lines.js';
import { World, fixture, scriptOf } from './harness.js';

const NO_EDIT_LIMIT = { rateLimits: { messageEdit: { limit: 10_000, windowMs: 1_000 } } };

let w: World | null = null;
afterEach(async () => {
  await w?.close();
  w = null;
});

describe('kibitzes in a thread', () => {
  it('go into the thread of a /observe kibitz:true post, escaped, paced, and into the PGN at their ply', async () => {
    const world = (w = await World.start({ discord: NO_EDIT_LIMIT }));
    const game = world.fics.addGame(scriptOf(fixture('lasker_flag#0')));
    await world.startBot();

    // Without a thread there is nowhere to put them: said so, and nothing is posted.
    const refused = await world.command('observe', { game, kibitz: true, thread: false }).reply();
    expect(refused).toMatchObject({
      ephemeral: true,
      content: expect.stringMatching(/^Kibitzes go into the game's thread/),
    });
    expect(await world.running.context.storage.livePosts.listLive()).toHaveLength(0);
    const reply = await world.command('observe', { game, kibitz: true }).reply();
    expect(reply.content).toMatch(/is live in its thread/);
    // With a thread, the board itself is the thread's first message.
    const [live] = await world.running.context.storage.livePosts.listLive();
    const threadId = live!.threadId!;
    expect(live!.messageChannelId).toBe(threadId);
    const post = world.fake.message(live!.messageId!)!;
    // The observer account asked to hear kibitzes (`help kibitz`: off, nothing is heard).
    expect(world.fics.commands().some((c) => /(^|\s)set kibitz 1$/.test(c))).toBe(true);

    const inThread = () =>
      world.fake.messagesIn(threadId).filter((m) => m.author.id === world.fake.bot.id && m.id !== post.id);
    const waitLines = (n: number, what: string) =>
      world.fake.waitFor(() => (inThread().length >= n ? inThread() : undefined), what, 15_000);
    const before = inThread().length;

    for (let ply = 1; ply <= 2; ply++) {
      const revisions = world.fake.message(post.id)!.revisions.length;
      world.fics.playMove(game);
      await world.waitForMessage(post.id, (m) => m.revisions.length > revisions, `ply ${ply}`);
    }
    world.fics.say(game, 'LectureBot(TD)(----)', 'Hello @everyone, *bold* <@123> [link](http://x)');
    world.fics.say(game, 'LurKing(C)(2442)', 'ply=19; eval=+0.20;', true);
    const lines = await waitLines(before + 2, 'the first two lines in the thread');
    const [kibitz, whisper] = lines.slice(before).map((m) => m.content);
    expect(kibitz).toBe(
      '**LectureBot** kibitzes: Hello @\u200beveryone, \\*bold\\* <@\u200b123\\> \\[link\\]\\(http://x\\)',
    );
    expect(whisper).toBe('**LurKing** whispers: ply=19; eval=+0.20;');
    const sent = world.fake
      .requestsTo('POST', '/channels/:channel_id/messages')
      .filter((r) => r.params.channel_id === threadId);
    expect(sent.length).toBeGreaterThanOrEqual(2);
    for (const request of sent) expect(request.body).toMatchObject({ allowed_mentions: { parse: [] } });

    // More than the pace allows in one window: the rest is folded into one line at the end.
    const extra = SAID_PER_WINDOW + 3;
    for (let i = 0; i < extra; i++) world.fics.say(game, 'Carol(1800)', `line ${i}`);
    const allowed = SAID_PER_WINDOW - 2;
    await waitLines(before + 2 + allowed, 'the lines the window has room for');
    const revisions = world.fake.message(post.id)!.revisions.length;
    world.fics.playAll(game);
    await world.waitForMessage(
      post.id,
      (m) => m.revisions.length > revisions && m.attachments.some((a) => a.filename.endsWith('.pgn')),
      'the final post',
    );
    const all = await waitLines(before + 2 + allowed + 1, 'the folded line');
    expect(all.at(-1)!.content).toBe(`… and ${extra - allowed} more lines`);
    expect(all.filter((m) => m.content.startsWith('**Carol**'))).toHaveLength(allowed);

    const final = world.fake.message(post.id)!;
    const pgn = final.attachments.find((a) => a.filename.endsWith('.pgn'))!.bytes.toString('utf8');
    // Said after Black's first move (ply 2): after `1. f3 e5`-like movetext's second move.
    const movetext = pgn.slice(pgn.indexOf('\n\n') + 2).replace(/\{ \[%clk [^}]*\} /g, '');
    expect(movetext).toMatch(
      /^1\. \S+ \S+ \{ LectureBot: Hello @everyone, \*bold\* <@123> \[link\]\(http:\/\/x\) \} \{ LurKing: ply=19; eval=\+0\.20; \} \{ Carol: line 0 \}/,
    );
    expect(movetext).toContain(`{ Carol: line ${extra - 1} }`);
  });
});
