// A live game from the fake FICS server to the fake Discord through the real bot: the posted
// message, its edits as the players move, its end, its buttons, and a game shown in two channels.
import { parsePgn } from 'chessops/pgn';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { chartColours, chartLayout, type ChartScene } from '../../render/chart.js';
import { DEFAULT_SIZE, computeLayout } from '../../render/layout.js';
import { STOPPED_FOOTER } from '../../src/relay/post-sender.js';
import type { FakeMessage } from '../fake-discord/index.js';
import { count, decodeGif, decodePng, expectBoard, hex, same } from '../render/pixels.js';
import { ManualClock } from '../support/manual-clock.js';
import { START_FEN, expectImageShows } from './images.js';
import { gameId } from '../support/fics-values.js';
import {
  World,
  addBughousePair,
  boardPng,
  buttonIds,
  embedOf,
  fixture,
  linkButtons,
  scriptOf,
} from './harness.js';

/** A chart's layout depends on its size and whether it has an evaluation, not on the players. */
const CHART_SHAPE: ChartScene = {
  white: '',
  black: '',
  firstMover: 'white',
  firstMoveNumber: 1,
  clocksMs: [],
};

/** Message edits are not what these tests are about: let each one through at once. */
const NO_EDIT_LIMIT = { rateLimits: { messageEdit: { limit: 10_000, windowMs: 1_000 } } };

let w: World | null = null;
afterEach(async () => {
  await w?.close();
  w = null;
  vi.useRealTimers();
});

/** Runs /observe and returns the live post it made in the channel. */
async function observe(world: World, game: number, channelId = world.channelId): Promise<FakeMessage> {
  const before = world.livePosts(channelId).length;
  const reply = await world.command('observe', { game }, {}, channelId).reply();
  expect(reply.ephemeral).toBe(true);
  expect(reply.content).toMatch(new RegExp(`^Game ${game}, .* is live here`));
  const posts = world.livePosts(channelId);
  expect(posts).toHaveLength(before + 1);
  return posts.at(-1)!;
}

/** Moves as PGN lists them (main line). */
function pgnMoves(pgn: string): { san: string[]; result: string | undefined } {
  const [game] = parsePgn(pgn);
  if (game === undefined) throw new Error('no game in the PGN');
  return { san: [...game.moves.mainline()].map((m) => m.san), result: game.headers.get('Result') };
}

function attachment(message: { attachments: { filename: string; bytes: Buffer }[] }, name: string): Buffer {
  const file = message.attachments.find((a) => a.filename === name);
  if (file === undefined) throw new Error(`no attachment ${name}`);
  return file.bytes;
}

describe('a live game', () => {
  it('posts the board, edits it on every move, and ends with the result, the PGN, the clock chart and the GIF', async () => {
    const world = (w = await World.start({ discord: NO_EDIT_LIMIT }));
    const script = fixture('lasker_flag#0');
    const game = world.fics.addGame(scriptOf(script));
    await world.startBot();

    const post = await observe(world, game);
    expect(embedOf(post).title).toBe(`Game ${game}: ${script.white} (1500) vs ${script.black} (1450)`);
    expect(buttonIds(post)).toEqual(['flip:1', 'pgn:1', 'stop:1']);
    await expectImageShows(boardPng(post), START_FEN);
    // No opening before the first move.
    expect(embedOf(post).description).not.toContain('Opening');

    // One move at a time: each makes one edit, whose image shows the position after it.
    for (let ply = 1; ply <= 6; ply++) {
      const revisions = world.fake.message(post.id)!.revisions.length;
      const san = world.fics.playMove(game);
      const fen = world.fics.game(game)!.fen;
      const edited = await world.waitForMessage(post.id, (m) => m.revisions.length > revisions, `ply ${ply}`);
      expect(edited.revisions).toHaveLength(revisions + 1);
      expect(embedOf(edited).description).toContain(san);
      // 1.f3 is the Barnes Opening; the name stays once the moves leave the table.
      expect(embedOf(edited).description).toContain('A00 Barnes Opening');
      await expectImageShows(boardPng(edited), fen);
    }

    // The rest at once, then the end: the final edit (result, board, PGN, chart), then the GIF.
    world.fics.playAll(game);
    const final = await world.waitForMessage(post.id, (m) => embedOf(m).footer !== null, 'the final edit');
    expect(embedOf(final).footer).toBe(`0-1 · ${script.reason}`);
    const gifAt = (m: { attachments: { filename: string }[] }) =>
      m.attachments.some((a) => a.filename === `game-${game}.gif`);
    const ended = gifAt(final) ? final : await world.waitForMessage(post.id, gifAt, 'the GIF');
    expect(embedOf(ended).footer).toBe(`0-1 · ${script.reason}`);
    // The final edit keeps a Clip button (the last moves as a GIF) and a link to lichess's analysis board.
    expect(buttonIds(ended)).toEqual(['clip:1']);
    expect(linkButtons(ended)).toEqual([
      {
        label: 'Analyse on lichess',
        url: `https://lichess.org/analysis/standard/${script.fenFinal.replaceAll(' ', '_')}`,
      },
    ]);
    expect(ended.attachments.map((a) => a.filename)).toEqual([
      'board.png',
      `game-${game}.pgn`,
      `game-${game}-clocks.png`,
      `game-${game}.gif`,
    ]);
    await expectImageShows(boardPng(ended), script.fenFinal, 'white', true);
    // The chart: both clock lines, each to its side's last ply of the game's length.
    const chart = await decodePng(attachment(ended, `game-${game}-clocks.png`));
    const plies = script.san.length;
    const { plot } = chartLayout({ ...CHART_SHAPE, clocksMs: script.san.map(() => null) });
    for (const side of ['white', 'black'] as const) {
      const line = same(hex(chartColours()[side]));
      const columns = [...Array(plot.w + 8).keys()]
        .map((i) => plot.x - 4 + i)
        .filter((x) => count(chart, { x, y: plot.y - 4, w: 1, h: plot.h + 8 }, line) > 0);
      expect(columns.length, side).toBeGreaterThan(plot.w * 0.8);
      const lastPly = (plies % 2 === 1) === (side === 'white') ? plies : plies - 1;
      expect(
        Math.abs(columns.at(-1)! - (plot.x + (lastPly / plies) * (plot.w - 1))),
        side,
      ).toBeLessThanOrEqual(3);
    }
    const pgn = pgnMoves(attachment(ended, `game-${game}.pgn`).toString('utf8'));
    expect(pgn).toEqual({ san: script.san, result: '0-1' });
    const { frames } = decodeGif(attachment(ended, `game-${game}.gif`));
    expect(frames).toHaveLength(script.san.length + 1);
    const gifBoard = computeLayout(DEFAULT_SIZE, { footer: true, holdings: false }).panel.board;
    expectBoard(frames[0]!, gifBoard, START_FEN, 'white');
    expectBoard(frames.at(-1)!, gifBoard, script.fenFinal, 'white');

    // Nothing comes after the GIF's edit: once the relay is idle, nothing is left to send.
    await world.relayIdle();
    const last = world.fake.message(post.id)!;
    expect(last.revisions.length).toBe(ended.revisions.length);
    const edits = world.fake.requests.filter((r) => r.method === 'PATCH' && r.path.endsWith(`/${post.id}`));
    expect(edits).toHaveLength(last.revisions.length - 1);
    expect(edits.at(-2)!.files.map((f) => f.filename)).toEqual([
      'board.png',
      `game-${game}.pgn`,
      `game-${game}-clocks.png`,
    ]);
    expect(world.fake.requests.filter((r) => r.status >= 400)).toEqual([]);
    expect(world.livePosts()).toHaveLength(1);
  });

  it('keeps up with a burst of moves in a full edit window with one edit, then its end', async () => {
    // Discord's (and the fake's default) edit limit: 5 per 5 s per channel.
    const world = (w = await World.start());
    const script = fixture('fatics_master_seq#3');
    const game = world.fics.addGame(scriptOf(script));
    // The limit's window passes on time the test moves, not waited for: the bot's turns on a
    // ManualClock, and Date (discord.js's record of the bucket, the fake Discord's window) moved
    // with it. Date still runs on with real time in between, so it is never behind the clock.
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    const clock = new ManualClock();
    await world.startBot({ editClock: clock });
    const { fics, relay } = world.running.context;
    /** Plies the bot must have read before the clock moves, and whether the end too. */
    let plies = 0;
    let ended = false;
    const read = (): boolean => {
      // A game the bot no longer holds was read to its end.
      const held = fics.snapshot(gameId(game));
      return held === undefined || (held.san.length >= plies && (!ended || held.result !== '*'));
    };
    /**
     * Moves both clocks on by tenths of a second until `promise` settles (a minute at most), each
     * time once the bot has read the moves played, its edits given a turn are answered and
     * something waits on the clock: what happened by then happened before the clock moved, and
     * the clock does not run ahead of what is still being drawn (a final edit's images).
     */
    const advancingUntil = async <T>(promise: Promise<T>, what: string): Promise<T> => {
      let settled = false;
      const result = promise.finally(() => (settled = true));
      for (let waited = 0; waited < 60_000; waited += 100) {
        await world.fake.waitFor(
          () => settled || (read() && relay.scheduleFigures().inFlight === 0 && clock.pending > 0),
          what,
        );
        if (settled) break;
        vi.advanceTimersByTime(100);
        await clock.advance(100);
      }
      return result;
    };
    // The post's first turn needs no time (and an interaction's 3 s window is on Date too).
    const post = await observe(world, game);
    const requestsBefore = world.fake.requests.length;

    // Five moves shown one by one fill the channel's window.
    for (plies = 1; plies <= 5; plies++) {
      world.fics.playMove(game);
      const shown = plies + 1;
      await advancingUntil(
        world.waitForMessage(post.id, (m) => m.revisions.length === shown, `edit ${plies}`, 30_000),
        `edit ${plies}`,
      );
    }
    // The burst at once while the window is full (no time between moves for a loaded machine to
    // stretch). Latest wins: once the window passed, one edit with the newest position, not also a
    // position that waited meanwhile.
    const lastSan = world.fics.playMoves(game, 25).at(-1)!;
    plies = 30;
    const fen = world.fics.game(game)!.fen;
    const caughtUp = await advancingUntil(
      world.waitForMessage(post.id, (m) => m.revisions.length > 6, 'the edit after the window', 30_000),
      'the burst read and its edits answered',
    );
    expect(caughtUp.revisions).toHaveLength(7);
    expect(embedOf(caughtUp).description.endsWith(lastSan)).toBe(true);
    await expectImageShows(boardPng(caughtUp), fen);
    // Then the end: its final edit, then the GIF.
    world.fics.endGame(game, '1/2-1/2', 'Game drawn by mutual agreement');
    ended = true;
    const message = await advancingUntil(
      world.waitForMessage(post.id, (m) => embedOf(m).footer !== null, 'the end', 30_000),
      'the end read and its edits answered',
    );
    expect(message.revisions).toHaveLength(8);
    expect(embedOf(message).footer).toBe('½-½ · Game drawn by mutual agreement');
    await expectImageShows(boardPng(message), fen, 'white', true);
    await advancingUntil(world.relayIdle(), 'the GIF');
    expect(world.fake.message(post.id)!.revisions).toHaveLength(9);
    const during = world.fake.requests.slice(requestsBefore);
    expect(during.filter((r) => r.status === 429)).toEqual([]);
    // No storm: one PATCH per edit and nothing else on the way.
    expect(during.map((r) => `${r.method} ${r.route}`)).toEqual(
      Array<string>(8).fill('PATCH /channels/:channel_id/messages/:message_id'),
    );
    // The sixth edit waited for the window (by the fake Discord's clock).
    expect(during[5]!.at - during[0]!.at).toBeGreaterThanOrEqual(5_000);
  });

  it('shares one FICS observation and one render between two channels', async () => {
    const world = (w = await World.start({ discord: NO_EDIT_LIMIT }));
    const second = world.fake.createChannel(world.guildId, { name: 'second' });
    const game = world.fics.addGame(scriptOf(fixture('fatics_master_seq#0')));
    await world.startBot();

    const first = await observe(world, game);
    const other = await observe(world, game, second.id);
    expect(world.fics.commands().filter((c) => /^(\d+ )?observe /.test(c))).toHaveLength(1);
    expect(world.fics.observers(game)).toHaveLength(1);
    expect(boardPng(other).equals(boardPng(first))).toBe(true);

    world.fics.playMoves(game, 1);
    const edited = await Promise.all(
      [first, other].map((m) => world.waitForMessage(m.id, (x) => x.revisions.length === 2, 'an edit')),
    );
    const [a, b] = edited.map(boardPng);
    expect(a!.equals(b!)).toBe(true);
    await expectImageShows(a!, world.fics.game(game)!.fen);
  });
});

describe('the buttons of a live post', () => {
  it('Flip shows the presser the board turned round, PGN sends the moves, Stop ends the relay', async () => {
    const world = (w = await World.start({ discord: NO_EDIT_LIMIT }));
    const script = fixture('fatics_master_seq#0');
    const game = world.fics.addGame(scriptOf(script));
    const later = world.fics.addGame(scriptOf(fixture('lasker_flag#0')));
    await world.startBot();
    const post = await observe(world, game);
    world.fics.playMoves(game, 4);
    await world.waitForMessage(post.id, (m) => embedOf(m).description.includes('2. Bc4 Bc5'), 'four plies');
    await world.relayIdle();
    const [flip, pgn, stop] = buttonIds(post);

    // Flip shows the presser alone the board turned round; the shared board stays as it is.
    const revisions = world.fake.message(post.id)!.revisions.length;
    const flipped = await world.fake.button(post.id, flip!).reply();
    expect(flipped.ephemeral).toBe(true);
    expect(flipped.components).toEqual([]);
    await expectImageShows(boardPng({ attachments: flipped.files }), world.fics.game(game)!.fen, 'black');
    world.fics.playMove(game);
    const next = await world.waitForMessage(post.id, (m) => m.revisions.length > revisions, 'a move');
    expect(next.revisions.length).toBe(revisions + 1);
    await expectImageShows(boardPng(next), world.fics.game(game)!.fen, 'white');

    const file = await world.fake.button(post.id, pgn!).reply();
    expect(file.ephemeral).toBe(true);
    expect(file.files.map((f) => f.filename)).toEqual([`game-${game}.pgn`]);
    expect(pgnMoves(file.files[0]!.bytes.toString('utf8')).san).toEqual(script.san.slice(0, 5));

    // Someone else without Manage Messages may not stop it.
    const stranger = world.fake.createUser('stranger');
    world.fake.addMember(world.guildId, stranger.id);
    const refused = await world.fake.button(post.id, stop!, { user: stranger }).reply();
    expect(refused.ephemeral).toBe(true);
    expect(refused.content).toMatch(/Only the member who posted this game, or someone with Manage Messages/);
    expect(world.fics.observers(game)).toHaveLength(1);

    // Two moves already on their way when the bot stops: sent by FICS before it hears the
    // unobserve, held on the way until after it.
    const stopFen = world.fics.game(game)!.fen;
    world.fics.stall(true);
    world.fics.playMoves(game, 2);
    const stopping = world.fake.button(post.id, stop!).reply();
    await world.fics.waitFor(() => world.fics.observers(game).length === 0, 'the unobserve');
    world.fics.stall(false);
    const stopped = await stopping;
    expect(stopped.ephemeral).toBe(true);
    expect(stopped.content).toBe(`Stopped relaying game ${game}.`);
    // The message stays, says it stopped, and loses its buttons.
    const after = await world.waitForMessage(post.id, (m) => m.components.length === 0, 'the stopped post');
    expect(embedOf(after).footer).toBe(STOPPED_FOOTER);
    await expectImageShows(boardPng(after), stopFen, 'white');
    // FICS answers in order: once another game is observed the bot has read the two moves; once
    // the relay is idle it has handled them. Neither reached the stopped post.
    await observe(world, later);
    await world.relayIdle();
    // The stopped edit (the first without buttons) is the last one.
    const shown = world.fake.message(post.id)!.revisions;
    expect(shown.findIndex((r) => r.components.length === 0)).toBe(shown.length - 1);
  });
});

describe('a bughouse game', () => {
  const PUBLIC_URL = 'https://kibitz.example.org';
  /** The live page on: the game's embed links it. */
  const WEB_ON = { KIBITZ_WEB_PORT: '0', KIBITZ_PUBLIC_URL: PUBLIC_URL };

  /** The two embeds of a bughouse post: the game's, then its partner board's. */
  function pairEmbeds(message: FakeMessage): { title?: string; url?: string; image?: { url: string } }[] {
    return message.embeds as { title?: string; url?: string; image?: { url: string } }[];
  }

  /**
   * Each board in a picture of its own, with a single board's shape (bars, hands, file letters),
   * the game's in the first embed and the partner's, turned the other way, in the second.
   */
  async function expectPair(message: FakeMessage, fens: [string, string], ended: [boolean, boolean]) {
    const embeds = pairEmbeds(message);
    expect(embeds.map((e) => e.image?.url)).toEqual(['attachment://board.png', 'attachment://partner.png']);
    // Discord merges embeds sharing a `url` into one gallery: the partner's has none, while the
    // game's title links its live page (until the end).
    expect(embeds[0]!.url?.startsWith(`${PUBLIC_URL}/`) ?? false).toBe(!ended[0]);
    expect(embeds[1]!.url).toBeUndefined();
    for (const [i, [name, orientation]] of (
      [
        ['board.png', 'white'],
        ['partner.png', 'black'],
      ] as const
    ).entries()) {
      const layout = computeLayout(DEFAULT_SIZE, { footer: ended[i]!, holdings: true });
      const img = await decodePng(attachment(message, name));
      expect([img.width, img.height], name).toEqual([layout.width, layout.height]);
      expectBoard(img, layout.panel.board, fens[i]!, orientation);
    }
  }

  for (const dialect of ['lasker', 'fatics'] as const) {
    it(`one /observe posts both boards, each in a picture of its own (${dialect})`, async () => {
      const world = (w = await World.start({ discord: NO_EDIT_LIMIT, fics: { dialect } }));
      const [ga, gb] = addBughousePair(world);
      await world.startBot({ env: WEB_ON });
      const post = await observe(world, ga);
      const shown = await world.waitForMessage(
        post.id,
        (m) => m.attachments.some((a) => a.filename === 'partner.png'),
        'the post with both boards',
      );
      expect(world.livePosts(world.channelId)).toHaveLength(1);
      expect(pairEmbeds(shown).map((e) => e.title)).toEqual([
        expect.stringContaining(`Game ${ga}: `),
        expect.stringMatching(new RegExp(`^Partner board · Game ${gb}: `)),
      ]);
      await expectPair(shown, [START_FEN, START_FEN], [false, false]);
    });
  }

  it('the final post shows both boards too, the result on the game’s', async () => {
    const world = (w = await World.start({ discord: NO_EDIT_LIMIT }));
    const [ga, gb] = addBughousePair(world);
    await world.startBot({ env: WEB_ON });
    const post = await observe(world, ga);
    await world.waitForMessage(
      post.id,
      (m) => m.attachments.some((a) => a.filename === 'partner.png'),
      'the post with both boards',
    );
    world.fics.playMoves(gb, 2);
    world.fics.playMoves(ga, 3);
    const fens: [string, string] = [world.fics.game(ga)!.fen, world.fics.game(gb)!.fen];
    world.fics.endGame(ga, '1-0', 'Black resigns');
    const final = await world.waitForMessage(post.id, (m) => embedOf(m).footer !== null, 'the final edit');
    expect(embedOf(final).footer).toBe('1-0 · Black resigns');
    expect(final.attachments.map((a) => a.filename).slice(0, 3)).toEqual([
      'board.png',
      'partner.png',
      `game-${ga}.pgn`,
    ]);
    await expectPair(final, fens, [true, false]);
  });
});
