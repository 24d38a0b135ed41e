// The relay against a fake feed (a real GameTracker fed with real transcript lines), real
// storage and real renders; only the message port is a recorder.
import { EventEmitter } from 'node:events';
import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { inlineRenderer, type Renderer } from '../../render/index.js';
import type { GameSnapshot } from '../../src/game/snapshot.js';
import { GameTracker, type TrackerUpdate } from '../../src/game/tracker.js';
import { ObserverDecoder } from '../../src/protocol/decode.js';
import type { ServerEvent } from '../../src/protocol/events.js';
import type { LiveMessage } from '../../src/relay/message.js';
import type { PostPort } from '../../src/relay/ports.js';
import { Relay } from '../../src/relay/relay.js';
import { EditScheduler } from '../../src/relay/schedule.js';
import { ManualClock } from '../support/manual-clock.js';
import { openStorage, type Storage } from '../../src/storage/index.js';
import { scenarios, transcript } from '../support/fixtures.js';
import { postgresBackend } from '../storage/backends.js';
import { gameId } from '../support/fics-values.js';
import type { GameId } from '../../src/game/game-id.js';

class FakeFeed extends EventEmitter<{ update: [TrackerUpdate] }> {
  readonly tracker = new GameTracker();
  observed = new Map<number, number>();
  unobserved: number[] = [];
  constructor(private readonly events: ServerEvent[]) {
    super();
  }
  /** Plays the transcript up to and including the first board of `game`. */
  async observeGame(game: GameId): Promise<GameId> {
    // Observed already (another channel or server asks): one observation for all, like the pool.
    const known = this.tracker.snapshot(game);
    if (known !== undefined && !known.ended) return game;
    this.observed.set(game, (this.observed.get(game) ?? 0) + 1);
    while (this.tracker.snapshot(game) === undefined && this.events.length > 0) this.step();
    if (this.tracker.snapshot(game) === undefined) throw new Error(`There is no such game.`);
    return game;
  }
  async unobserve(game: GameId): Promise<void> {
    this.unobserved.push(game);
  }
  snapshot(game: GameId): GameSnapshot | undefined {
    return this.tracker.snapshot(game);
  }
  step(): void {
    const event = this.events.shift();
    if (event !== undefined) for (const u of this.tracker.apply(event)) this.emit('update', u);
  }
  playAll(): void {
    while (this.events.length > 0) this.step();
  }
}

interface Sent {
  kind: 'post' | 'edit';
  channelId: string;
  messageId: string;
  message: LiveMessage;
}

/** Records posts and edits; each edit waits for `release` when gated (like a slow Discord). */
class RecordingPort implements PostPort {
  sent: Sent[] = [];
  private next = 1;
  gate: Promise<void> | null = null;
  async post(_postId: number, channelId: string, message: LiveMessage, threadName: string | null) {
    const messageId = String(this.next++);
    const where = threadName === null ? channelId : `thread-of-${channelId}`;
    this.sent.push({ kind: 'post', channelId: where, messageId, message });
    return { messageChannelId: where, messageId, threadId: threadName === null ? null : where };
  }
  said: { channelId: string; text: string }[] = [];
  async say(channelId: string, text: string) {
    this.said.push({ channelId, text });
  }
  async edit(_postId: number, channelId: string, messageId: string, message: LiveMessage) {
    if (this.gate !== null) await this.gate;
    this.sent.push({ kind: 'edit', channelId, messageId, message });
  }
}

function eventsOf(scenario: string, file: string): ServerEvent[] {
  const d = new ObserverDecoder();
  return [...d.push(transcript(scenario, file)), ...d.end()].filter(
    (e): e is ServerEvent => e.kind !== 'reply',
  );
}

const logger = pino({ level: 'silent' });
let storage: Storage;
afterEach(() => storage?.close());

async function setup(
  scenario = 'fatics_takeback',
  file = 'obs_start.raw',
  renderer?: Renderer,
  database = ':memory:',
  scheduler?: EditScheduler,
) {
  const opened = await openStorage(database);
  if (!opened.ok) throw new Error(opened.error);
  storage = opened.value;
  const feed = new FakeFeed(eventsOf(scenario, file));
  const port = new RecordingPort();
  const relay = new Relay({
    feed,
    port,
    storage,
    logger,
    maxLivePerGuild: 2,
    ...(renderer === undefined ? {} : { renderer }),
    ...(scheduler === undefined ? {} : { scheduler }),
  });
  return { feed, port, relay };
}

const request = (channelId: string, game = 16) => ({
  guildId: 'g1',
  channelId,
  game: gameId(game),
  options: { flip: false, thread: false },
  requestedBy: 'u1',
});

describe('Relay', () => {
  it('posts the board, edits it as moves come, and ends with result, PGN and GIF', async () => {
    const { feed, port, relay } = await setup();
    const watched = await relay.watch(request('c1'));
    expect(watched.ok).toBe(true);
    expect(port.sent).toHaveLength(1);
    expect(port.sent[0]!.message.image!.data.subarray(1, 4).toString()).toBe('PNG');
    feed.playAll();
    await relay.idle();
    const edits = port.sent.filter((s) => s.kind === 'edit');
    expect(edits.length).toBeGreaterThan(0);
    // Latest wins: moves came faster than edits went, so positions in between were skipped.
    const truth = scenarios()
      .find((s) => s.name === 'fatics_takeback')!
      .truths.find((t) => t.white === 'GuestPTTF')!;
    expect(edits.length).toBeLessThan(truth.san.length);
    const last = edits.at(-1)!.message;
    expect(last.live).toBe(false);
    expect(last.footer).toBe(`0-1 · ${truth.server_end_reason}`);
    expect(last.files.map((f) => f.name)).toEqual(['game-16.pgn', 'game-16-clocks.png', 'game-16.gif']);
    expect(last.files[0]!.data.toString().replace(/ \{[^}]*\}/g, '')).toContain(
      truth.san.slice(-2).join(' '),
    );
    expect(last.files[1]!.data.subarray(1, 4).toString()).toBe('PNG');
    expect(last.files[2]!.data.subarray(0, 6).toString()).toBe('GIF89a');
    expect(await storage.livePosts.listLive()).toEqual([]);
    expect((await storage.finishedGames.recent({ game: gameId(16) }))[0]!.result).toBe('0-1');
    // The final edit, then the same with the GIF; nothing after.
    const finals = edits.filter((e) => !e.message.live);
    expect(finals.map((e) => e.message.files.length)).toEqual([2, 3]);
    expect(finals[0]!.message.footer).toBe(last.footer);
  });

  it('sends the final edit (result, board, PGN) before the GIF is drawn; the GIF follows in a later edit', async () => {
    let drawGif: () => void = () => undefined;
    const gifMayDraw = new Promise<void>((resolve) => (drawGif = resolve));
    let gifsAsked = 0;
    const renderer: Renderer = {
      ...inlineRenderer,
      gif: async (scenes) => {
        gifsAsked++;
        await gifMayDraw;
        return inlineRenderer.gif(scenes);
      },
    };
    const { feed, port, relay } = await setup('fatics_takeback', 'obs_start.raw', renderer);
    expect((await relay.watch(request('c1'))).ok).toBe(true);
    feed.playAll();
    await vi.waitFor(() => expect(port.sent.filter((s) => !s.message.live)).toHaveLength(1));
    const final = port.sent.at(-1)!.message;
    expect(final.footer).toMatch(/^0-1 · /);
    expect(final.image!.data.subarray(1, 4).toString()).toBe('PNG');
    expect(final.files.map((f) => f.name)).toEqual(['game-16.pgn', 'game-16-clocks.png']);
    // The GIF is being drawn: it did not hold the final edit back.
    expect(gifsAsked).toBe(1);
    expect(await storage.livePosts.listLive()).toEqual([]);
    drawGif();
    await relay.idle();
    const last = port.sent.at(-1)!.message;
    expect(last.files.map((f) => f.name)).toEqual(['game-16.pgn', 'game-16-clocks.png', 'game-16.gif']);
    expect(last.footer).toBe(final.footer);
    expect(port.sent.filter((s) => !s.message.live)).toHaveLength(2);
  });

  it('shares one observation and one render between channels', async () => {
    const { feed, port, relay } = await setup();
    expect((await relay.watch(request('c1'))).ok).toBe(true);
    expect((await relay.watch(request('c2'))).ok).toBe(true);
    expect(feed.observed.get(16)).toBe(1);
    feed.step();
    feed.step();
    await relay.idle();
    const [a, b] = ['c1', 'c2'].map(
      (c) => port.sent.filter((s) => s.channelId === c).at(-1)!.message.image!.data,
    );
    expect(a).toBe(b);
  });

  it('shows moves without a database read, and notes edits in one batched write per post', async () => {
    const { feed, port, relay } = await setup();
    expect((await relay.watch(request('c1'))).ok).toBe(true);
    expect((await relay.watch(request('c2'))).ok).toBe(true);
    await storage.writes.idle();
    const before = { ...storage.statements };
    for (let i = 0; i < 6; i++) {
      feed.step();
      await relay.idle();
    }
    expect(port.sent.filter((s) => s.kind === 'edit').length).toBeGreaterThanOrEqual(6);
    expect(storage.statements.reads - before.reads).toBe(0);
    // The edits' times wait for the batch: one UPDATE per post, whatever the number of moves.
    expect(storage.statements.writes - before.writes).toBe(0);
    await storage.writes.idle();
    expect(storage.statements.writes - before.writes).toBe(2);
  });

  it('in a paced scheduler, draws a board only in its turn: moves that came meanwhile cost one render', async () => {
    let renders = 0;
    const renderer: Renderer = {
      ...inlineRenderer,
      png: (scene) => {
        renders++;
        return inlineRenderer.png(scene);
      },
    };
    const clock = new ManualClock();
    const scheduler = new EditScheduler(
      { perSecond: 1, burst: 1, perBucket: { limit: 5, windowMs: 5_000 }, inFlight: 10 },
      clock,
    );
    const { feed, port, relay } = await setup(
      'fatics_takeback',
      'obs_start.raw',
      renderer,
      ':memory:',
      scheduler,
    );
    // The post takes the turn of t = 0.
    expect((await relay.watch(request('c1'))).ok).toBe(true);
    expect(renders).toBe(1);
    for (let i = 0; i < 4; i++) feed.step();
    // The moves were handled: the post waits for its turn, nothing drawn for it yet.
    await vi.waitFor(() => expect(scheduler.figures().waiting).toBe(1));
    expect(renders).toBe(1);
    expect(port.sent).toHaveLength(1);
    await clock.advance(1_000);
    await vi.waitFor(() => expect(port.sent).toHaveLength(2));
    // One render for the one edit, of the newest position.
    expect(renders).toBe(2);
    expect(port.sent[1]!.message.lines.join('\n')).toContain(feed.snapshot(gameId(16))!.san.at(-1)!);
    expect(scheduler.figures()).toMatchObject({ turns: 2, waiting: 0 });
    relay.close();
  });

  it('draws through the renderer it is given; a failed board leaves the next one to go out', async () => {
    const asked: string[] = [];
    let failNext = false;
    const renderer: Renderer = {
      png: (scene) => {
        asked.push('png');
        if (!failNext) return inlineRenderer.png(scene);
        failNext = false;
        return Promise.resolve({ ok: false, error: 'worker gone' });
      },
      gif: (scenes) => {
        asked.push('gif');
        return inlineRenderer.gif(scenes);
      },
      chart: (scene) => {
        asked.push('chart');
        return inlineRenderer.chart(scene);
      },
    };
    const { feed, port, relay } = await setup('fatics_takeback', 'obs_start.raw', renderer);
    expect((await relay.watch(request('c1'))).ok).toBe(true);
    expect(asked).toEqual(['png']);
    failNext = true;
    feed.step();
    await relay.idle();
    expect(port.sent.filter((s) => s.kind === 'edit')).toHaveLength(0);
    feed.playAll();
    await relay.idle();
    const last = port.sent.at(-1)!.message;
    expect(last.live).toBe(false);
    expect(last.image!.data.subarray(1, 4).toString()).toBe('PNG');
    expect(asked.filter((a) => a === 'gif')).toHaveLength(1);
    expect(asked.filter((a) => a === 'chart')).toHaveLength(1);
    expect(asked.filter((a) => a === 'png').length).toBeGreaterThan(2);
  });

  it('refuses a second post of the same game in a channel, and the guild cap', async () => {
    const { relay } = await setup('fatics_master_seq', 'obs_start.raw');
    expect((await relay.watch(request('c1', 2))).ok).toBe(true);
    expect(await relay.watch(request('c1', 2))).toMatchObject({
      ok: false,
      error: { kind: 'refused', message: expect.stringContaining('already live') },
    });
    expect((await relay.watch(request('c2', 2))).ok).toBe(true);
    expect(await relay.watch(request('c3', 2))).toMatchObject({
      ok: false,
      error: { kind: 'full', message: expect.stringContaining('limit') },
    });
  });

  it('stops a post and unobserves once nobody watches', async () => {
    const { feed, relay } = await setup();
    const a = await relay.watch(request('c1'));
    const b = await relay.watch(request('c2'));
    if (!a.ok || !b.ok) throw new Error('watch failed');
    await relay.stop(a.value.post.id);
    expect(feed.unobserved).toEqual([]);
    await relay.stop(b.value.post.id);
    expect(feed.unobserved).toEqual([16]);
  });

  it('gives the game back when its first board never comes', async () => {
    await setup();
    const silent = new FakeFeed([]);
    silent.observeGame = async (game: GameId) => game;
    const relay = new Relay({
      feed: silent,
      port: new RecordingPort(),
      storage,
      logger,
      maxLivePerGuild: 2,
      firstBoardTimeoutMs: 20,
    });
    expect(await relay.watch(request('c1'))).toEqual({
      ok: false,
      error: { kind: 'refused', message: 'Game 16 sent no board.' },
    });
    expect(silent.unobserved).toEqual([16]);
    relay.close();
  });

  it('a post sent but not recorded says it does not update, and its game is let go', async () => {
    const { feed, port, relay } = await setup();
    storage.livePosts.setMessage = () => {
      throw new Error('attempt to write a readonly database');
    };
    const watched = await relay.watch(request('c1'));
    expect(watched).toEqual({
      ok: false,
      error: {
        kind: 'refused',
        message:
          'Kibitz could not record the post in its database, so it does not relay this game. Its operator has to check the database (see the log).',
      },
    });
    expect(port.sent.map((s) => s.kind)).toEqual(['post', 'edit']);
    expect(port.sent[1]!.message).toMatchObject({
      live: false,
      footer: 'Kibitz could not record this post: this board does not update.',
    });
    expect(await storage.livePosts.listLive()).toEqual([]);
    expect(feed.unobserved).toEqual([16]);
  });

  it('after a restart keeps editing the same message', async () => {
    const { feed, port, relay } = await setup();
    const watched = await relay.watch(request('c1'));
    if (!watched.ok) throw new Error(watched.error.message);
    relay.close();
    // A new process: same storage, a feed that sees the game further on.
    const feed2 = new FakeFeed(eventsOf('fatics_takeback', 'obs_start.raw'));
    const port2 = new RecordingPort();
    const relay2 = new Relay({ feed: feed2, port: port2, storage, logger, maxLivePerGuild: 2 });
    await relay2.resume();
    feed2.playAll();
    await relay2.idle();
    expect(port2.sent.every((s) => s.kind === 'edit' && s.messageId === watched.value.post.messageId)).toBe(
      true,
    );
    expect(port2.sent.at(-1)!.message.live).toBe(false);
    expect(feed.observed.get(16)).toBe(1);
    expect(port.sent).toHaveLength(1);
  });

  it('marks a post whose game vanished while offline', async () => {
    const { relay } = await setup();
    const watched = await relay.watch(request('c1'));
    if (!watched.ok) throw new Error(watched.error.message);
    const port2 = new RecordingPort();
    const relay2 = new Relay({ feed: new FakeFeed([]), port: port2, storage, logger, maxLivePerGuild: 2 });
    await relay2.resume();
    expect((await storage.livePosts.get(watched.value.post.id))!.state).toBe('ended_offline');
    expect(port2.sent[0]!.message.footer).toBe('ended while offline');
  });

  it("posts a followed player's new game in the following channel, Black at the bottom for Black", async () => {
    const { feed, port } = await setup();
    await storage.follows.add({ guildId: 'g1', channelId: 'club', handle: 'guestcdcr', createdBy: 'u9' });
    await feed.observeGame(gameId(16));
    // The game is posted at its first board, which follows the header (the pool delivers both).
    for (let i = 0; i < 5 && (await storage.livePosts.listLive()).length === 0; i++) feed.step();
    await new Promise((r) => setImmediate(r));
    const posts = port.sent.filter((s) => s.kind === 'post');
    expect(posts.map((p) => p.channelId)).toEqual(['club']);
    const post = (await storage.livePosts.listLive())[0]!;
    expect(post).toMatchObject({
      requestedBy: 'u9',
      options: { flip: post.black.toLowerCase() === 'guestcdcr' },
    });
  });

  it('shows both bughouse boards, each in a picture of its own, and redraws when the partner board moves', async () => {
    const { feed, port, relay } = await setup('fatics_bughouse', 'obs_both.raw');
    const pairs = vi.spyOn(storage.livePosts, 'setPair');
    const watched = await relay.watch(request('c1', 20));
    if (!watched.ok) throw new Error(watched.error.message);
    // Each picture has a single board's shape: as tall as the post's before the pair was known.
    const height = (png: Buffer) => png.readUInt32BE(20);
    const single = height(port.sent[0]!.message.image!.data);
    const moves = { 20: 0, 21: 0 };
    feed.on('update', (u) => {
      const board =
        u.type !== 'moved' ? null : u.snapshot.game === 20 ? 20 : u.snapshot.game === 21 ? 21 : null;
      if (board !== null) moves[board]++;
    });
    while (feed.snapshot(gameId(20))?.partnerGame !== 21) feed.step();
    await relay.idle();
    const edits = () => port.sent.filter((s) => s.kind === 'edit');
    // Play on until a move on the partner board alone: it must redraw the post of game 20.
    for (;;) {
      const before = { ...moves };
      const count = edits().length;
      feed.step();
      await relay.idle();
      if (moves[21] > before[21] && moves[20] === before[20]) {
        expect(edits().length).toBe(count + 1);
        break;
      }
    }
    const last = edits().at(-1)!.message;
    expect(height(last.image!.data)).toBe(single);
    expect(height(last.partner!.image.data)).toBe(single);
    expect(last.partner!.image.description).toContain(`FEN: ${feed.snapshot(gameId(21))!.fen}`);
    expect(last.image!.description).toContain(`FEN: ${feed.snapshot(gameId(20))!.fen}`);
    // The post's stored pair follows its message: written once, when the partner board first showed.
    expect((await storage.livePosts.get(watched.value.post.id))?.options.pair).toBe(true);
    expect(pairs.mock.calls).toEqual([[watched.value.post.id, true]]);
    expect(edits().length).toBeGreaterThan(2);
  });
});

// PostgreSQL answers after a round trip, not at once as SQLite does: what the relay checks and
// then acts on must still come out right.
describe('Relay on PostgreSQL', () => {
  it('takes a guild cap of 2 with 2 posts out of 12 concurrent requests', async () => {
    const { relay } = await setup(
      'fatics_master_seq',
      'obs_start.raw',
      undefined,
      await postgresBackend().fresh(),
    );
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => relay.watch(request(`c${i}`, 2))));
    expect(results.filter((r) => r.ok)).toHaveLength(2);
    expect(results.filter((r) => !r.ok && r.error.message.includes('limit'))).toHaveLength(10);
    expect(await storage.livePosts.countLiveInGuild('g1')).toBe(2);
  });

  it('shows the moves in order and ends on the final position, with the result, PGN and GIF', async () => {
    const { feed, port, relay } = await setup(
      undefined,
      undefined,
      undefined,
      await postgresBackend().fresh(),
    );
    expect((await relay.watch(request('c1'))).ok).toBe(true);
    feed.playAll();
    await relay.idle();
    const edits = port.sent.filter((s) => s.kind === 'edit');
    const truth = scenarios()
      .find((s) => s.name === 'fatics_takeback')!
      .truths.find((t) => t.white === 'GuestPTTF')!;
    const last = edits.at(-1)!.message;
    expect(last.live).toBe(false);
    expect(last.footer).toBe(`0-1 · ${truth.server_end_reason}`);
    expect(last.files.map((f) => f.name)).toEqual(['game-16.pgn', 'game-16-clocks.png', 'game-16.gif']);
    expect(edits.filter((e) => !e.message.live)).toHaveLength(2);
    expect(await storage.livePosts.listLive()).toEqual([]);
    // Queued (src/storage/writes.ts): stored once PostgreSQL has taken it.
    await storage.writes.idle();
    expect((await storage.finishedGames.recent({ game: gameId(16) }))[0]!.result).toBe('0-1');
  });
});
