// Engine evaluation through the real bot, the fake FICS server and the fake Discord: asked for per
// post, shown after the board edit of its position (never holding it up), and said plainly where
// there is none (operator off, no engine installed, a variant the engine does not play).
import { afterEach, describe, expect, it } from 'vitest';
import { OUTCOME_COLOURS } from '../../src/discord/live-port.js';
import type { FakeMessage } from '../fake-discord/index.js';
import { chartColours } from '../../render/chart.js';
import { parseHex, themeByName } from '../../render/theme.js';
import { decodePng } from '../render/pixels.js';
import { describeWith, stockfishNeed } from '../support/require.js';
import { World, boardPng, buttonIds, embedOf, fixture, scriptOf } from './harness.js';

const NO_EDIT_LIMIT = { rateLimits: { messageEdit: { limit: 10_000, windowMs: 1_000 } } };
/** The shortest analysis the configuration allows: what is checked is where it shows, not its depth. */
const ENGINE_ON = { KIBITZ_ENGINE: 'on', KIBITZ_ENGINE_MOVETIME_MS: '50' };

const ARROW = parseHex(themeByName('brown').arrow);

let w: World | null = null;
afterEach(async () => {
  await w?.close();
  w = null;
});

type Revision = FakeMessage['revisions'][number];
const textOf = (r: Revision | FakeMessage): string => embedOf(r).description;
/** An evaluation as the embed writes it: `Engine: +0.3 · best Nf3 (depth 12)`. */
const EVALUATED = /^Engine: (#-?\d+|[+-]?\d+(\.\d)?) · best \S+ \(depth \d+\)$/m;

describeWith(stockfishNeed())('engine on', () => {
  it('each board edit goes out first; its evaluation, bar and arrow follow in a later edit', async () => {
    const world = (w = await World.start({ discord: NO_EDIT_LIMIT }));
    const script = fixture('lasker_flag#0');
    const game = world.fics.addGame(scriptOf(script));
    await world.startBot({ env: ENGINE_ON });

    const reply = await world.command('observe', { game, eval: true, arrow: true }).reply();
    expect(reply.content).toMatch(/is live here/);
    const [post] = world.livePosts();
    expect(buttonIds(post!)).toEqual(['flip:1', 'pgn:1', 'stop:1', 'engine:1', 'arrow:1']);
    // The first message goes out before any evaluation exists.
    expect(textOf(post!.revisions[0]!)).toMatch(/^Engine: thinking…$/m);
    const first = await world.waitForMessage(
      post!.id,
      (m) => EVALUATED.test(textOf(m)),
      'the first evaluation',
      15_000,
    );
    const withBar = await decodePng(boardPng(first));
    const plainWidth = (await decodePng(boardPng(post!.revisions[0]!))).width;
    expect(withBar.width).toBeGreaterThan(plainWidth);
    // The best move as an arrow: the theme's arrow colour, found nowhere in a board without one.
    const arrowPixels = (image: { rgba: Uint8ClampedArray }): number => {
      let n = 0;
      for (let i = 0; i < image.rgba.length; i += 4)
        if (image.rgba[i] === ARROW[0] && image.rgba[i + 1] === ARROW[1] && image.rgba[i + 2] === ARROW[2])
          n++;
      return n;
    };
    expect(arrowPixels(withBar)).toBeGreaterThan(100);
    expect(arrowPixels(await decodePng(boardPng(post!.revisions[0]!)))).toBe(0);

    for (let ply = 1; ply <= 3; ply++) {
      const before = world.fake.message(post!.id)!.revisions.length;
      const san = world.fics.playMove(game);
      const evaluated = await world.waitForMessage(
        post!.id,
        (m) => m.revisions.slice(before).some((r) => textOf(r).includes(san) && EVALUATED.test(textOf(r))),
        `the evaluation after ply ${ply}`,
        15_000,
      );
      const after = evaluated.revisions.slice(before);
      const boardEdit = after.findIndex((r) => textOf(r).includes(san));
      const evaluationEdit = after.findIndex((r) => textOf(r).includes(san) && EVALUATED.test(textOf(r)));
      // The move's first edit has no evaluation of its position yet; the evaluation comes later.
      expect(boardEdit).toBeGreaterThanOrEqual(0);
      expect(textOf(after[boardEdit]!)).toMatch(/^Engine: thinking…/m);
      expect(evaluationEdit).toBeGreaterThan(boardEdit);
    }

    // Every position shown was evaluated, kept by ply for the end-of-game chart.
    const relay = world.running.context.relay;
    const [livePost] = await world.running.context.storage.livePosts.listLive();
    const byPly = relay.evaluations(livePost!.gameKey);
    expect([...byPly.keys()].sort()).toEqual([0, 1, 2, 3]);
    expect([...byPly.values()].every((e) => 'cp' in e.score || 'mate' in e.score)).toBe(true);

    // Engine off again: the next edit has no engine line and no bar.
    const revisions = world.fake.message(post!.id)!.revisions.length;
    expect((await world.fake.button(post!.id, 'engine:1').callback()).type).toBe(6);
    const off = await world.waitForMessage(post!.id, (m) => m.revisions.length > revisions, 'the engine off');
    expect(textOf(off)).not.toMatch(/Engine:/);
    expect((await decodePng(boardPng(off))).width).toBe(plainWidth);
    expect(buttonIds(off)).toEqual(['flip:1', 'pgn:1', 'stop:1', 'engine:1']);

    // The end: the final post's clock chart also draws the evaluations kept by ply.
    world.fics.endGame(game, '0-1', `${script.white} forfeits on time`);
    const ended = await world.waitForMessage(post!.id, (m) => embedOf(m).footer !== null, 'the final edit');
    const chart = ended.attachments.find((a) => a.filename === `game-${game}-clocks.png`);
    expect(chart).toBeDefined();
    const line = parseHex(chartColours().evaluation);
    const image = await decodePng(chart!.bytes);
    let evaluationPixels = 0;
    for (let i = 0; i < image.rgba.length; i += 4)
      if (image.rgba[i] === line[0] && image.rgba[i + 1] === line[1] && image.rgba[i + 2] === line[2])
        evaluationPixels++;
    expect(evaluationPixels).toBeGreaterThan(50);
  });

  it('with the live page linked: two rows of buttons, five at most in each; posted, edited, ended', async () => {
    const world = (w = await World.start({ discord: NO_EDIT_LIMIT }));
    const script = fixture('lasker_flag#0');
    const game = world.fics.addGame(scriptOf(script));
    const env = { ...ENGINE_ON, KIBITZ_WEB_PORT: '0', KIBITZ_PUBLIC_URL: 'https://kibitz.example.org' };
    await world.startBot({ env });

    const reply = await world.command('observe', { game, eval: true, arrow: true }).reply();
    expect(reply.content).toMatch(/is live here/);
    const [post] = world.livePosts();
    const rows = (m: { components: unknown[] }) =>
      (m.components as { components: { custom_id?: string; label: string }[] }[]).map((row) =>
        row.components.map((c) => c.custom_id ?? c.label),
      );
    expect(rows(post!)).toEqual([
      ['flip:1', 'pgn:1', 'stop:1', 'Watch live'],
      ['engine:1', 'arrow:1'],
    ]);

    // The title opens the live page; the colour says live; the time of the position is given.
    const embed = (m: { embeds: unknown[] }) =>
      m.embeds[0] as { title: string; url?: string; color?: number; timestamp?: string };
    expect(embed(post!).url).toMatch(/^https:\/\/kibitz\.example\.org\/g\/./);
    expect(embed(post!).color).toBe(OUTCOME_COLOURS.live);
    expect(Number.isNaN(Date.parse(embed(post!).timestamp ?? ''))).toBe(false);

    // Only the requester or a member with Manage Messages may change the post's engine.
    const stranger = world.fake.createUser('stranger');
    world.fake.addMember(world.guildId, stranger.id);
    for (const id of ['engine:1', 'arrow:1']) {
      const refused = await world.fake.button(post!.id, id, { user: stranger }).reply();
      expect(refused.ephemeral).toBe(true);
      expect(refused.content).toMatch(
        /Only the member who posted this game, or someone with Manage Messages/,
      );
    }
    expect(world.running.context.relay.engineChoice(1)).toEqual({ eval: true, arrow: true });

    const before = post!.revisions.length;
    const san = world.fics.playMove(game);
    const edited = await world.waitForMessage(
      post!.id,
      (m) => m.revisions.slice(before).some((r) => textOf(r).includes(san)),
      'the edit after a move',
    );
    expect(rows(edited)).toEqual(rows(post!));

    world.fics.endGame(game, '0-1', `${script.white} forfeits on time`);
    const ended = await world.waitForMessage(post!.id, (m) => embedOf(m).footer !== null, 'the final edit');
    // The final edit: the Clip button and the link to lichess's analysis board are left.
    expect(rows(ended)).toEqual([['clip:1', 'Analyse on lichess']]);
    expect(embed(ended).title).toMatch(/ · 0-1$/);
    expect(embed(ended).color).toBe(OUTCOME_COLOURS.black);
    // Discord's schema refused nothing the bot sent (the fake checks every body: schema.ts).
    expect(world.fake.requests.filter((r) => r.status === 400)).toEqual([]);
  });

  it('says plainly that there is no evaluation for crazyhouse', async () => {
    const world = (w = await World.start({ discord: NO_EDIT_LIMIT }));
    const game = world.fics.addGame(scriptOf(fixture('lasker_crazyhouse#1')));
    await world.startBot({ env: ENGINE_ON });
    await world.command('observe', { game, eval: true }).reply();
    const [post] = world.livePosts();
    expect(textOf(post!.revisions[0]!)).toMatch(
      /^Engine: no evaluation for crazyhouse \(this engine plays standard chess and Chess960 only\)\.$/m,
    );
  });
});

describe('engine unavailable', () => {
  it('off by default: the eval option says the operator has not enabled it, and posts have no Engine button', async () => {
    const world = (w = await World.start());
    const game = world.fics.addGame(scriptOf(fixture('lasker_flag#0')));
    await world.startBot();
    const refused = await world.command('observe', { game, eval: true }).reply();
    expect(refused.ephemeral).toBe(true);
    expect(refused.content).toMatch(/operator has not enabled the engine \(KIBITZ_ENGINE\)/);
    expect(world.livePosts()).toHaveLength(0);
    await world.command('observe', { game }).reply();
    expect(buttonIds(world.livePosts()[0]!)).toEqual(['flip:1', 'pgn:1', 'stop:1']);
  });

  it('on without an engine: one log line, and the option and the button say it is not installed', async () => {
    const world = (w = await World.start());
    const game = world.fics.addGame(scriptOf(fixture('lasker_flag#0')));
    await world.startBot({ env: { ...ENGINE_ON, KIBITZ_ENGINE_PATH: '/nonexistent/stockfish' } });
    const logged = world.logLines.filter((line) =>
      line.includes(
        'no engine is installed: KIBITZ_ENGINE_PATH=/nonexistent/stockfish is not an executable file',
      ),
    );
    expect(logged).toHaveLength(1);
    const refused = await world.command('observe', { game, eval: true }).reply();
    expect(refused.content).toMatch(/The engine is on, but the engine is not installed on this bot/);
    expect(world.livePosts()).toHaveLength(0);
    await world.command('observe', { game }).reply();
    const [post] = world.livePosts();
    expect(buttonIds(post!)).toContain('engine:1');
    const pressed = await world.fake.button(post!.id, 'engine:1').reply();
    expect(pressed.ephemeral).toBe(true);
    expect(pressed.content).toMatch(
      /not installed on this bot \(its operator has to install Stockfish or set KIBITZ_ENGINE_PATH\)/,
    );
  });
});
