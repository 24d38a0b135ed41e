// The TV loop on a controlled clock, with a stand-in relay and real (in-memory SQLite) storage:
// when it asks FICS for the games list, what it says in the channel, and when it looks again.
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TvPoster, type TvRelay } from '../../src/club/tv.js';
import { parseGamesList, type GamesListRow } from '../../src/fics/games-list.js';
import type { WatchRequest, WatchResult } from '../../src/relay/open-post.js';
import { IN_MEMORY, openStorage, type LivePost, type Storage } from '../../src/storage/index.js';

const RETRY = 60_000;

/** The relay as the TV sees it: posts recorded in storage, notices and stops kept for the test. */
class StandInRelay implements TvRelay {
  readonly notices: string[] = [];
  readonly watched: number[] = [];
  room = true;
  private readonly ended: ((post: LivePost) => void)[] = [];
  constructor(private readonly storage: Storage) {}

  async watch(request: WatchRequest): Promise<WatchResult> {
    this.watched.push(request.game);
    const created = await this.storage.livePosts.create({
      ...request,
      gameKey: `${request.game}:W:B`,
      white: 'W',
      black: 'B',
    });
    if (!created.ok) return { ok: false, error: { kind: 'refused', message: 'already live' } };
    return { ok: true, value: { post: created.value, snapshot: null as never } };
  }
  notice(_channelId: string, text: string): Promise<void> {
    this.notices.push(text);
    return Promise.resolve();
  }
  async stop(postId: number): Promise<void> {
    await this.end(postId, null);
  }
  hasRoom(): Promise<boolean> {
    return Promise.resolve(this.room);
  }
  onPostEnded(listener: (post: LivePost) => void): void {
    this.ended.push(listener);
  }
  /** The post's game ended (or Discord refused it for good: `reason`). */
  async end(postId: number, reason: string | null): Promise<void> {
    await this.storage.livePosts.end(postId, 'ended', reason ?? undefined);
    const post = (await this.storage.livePosts.get(postId))!;
    for (const listener of this.ended) listener(post);
  }
}

let storage: Storage;
let relay: StandInRelay;
let now: number;
let lists: GamesListRow[][];
let requests: number;
let tv: TvPoster;

beforeEach(async () => {
  const opened = await openStorage(IN_MEMORY);
  if (!opened.ok) throw new Error(opened.error);
  storage = opened.value;
  relay = new StandInRelay(storage);
  now = 1_000_000;
  lists = [];
  requests = 0;
  tv = new TvPoster({
    games: () => {
      requests++;
      return Promise.resolve(lists.at(-1) ?? []);
    },
    relay,
    storage,
    logger: pino({ level: 'silent' }),
    owns: () => true,
    now: () => now,
    retryMs: RETRY,
  });
});
afterEach(async () => {
  tv.close();
  await storage.close();
});

function games(...lines: string[]): GamesListRow[] {
  return parseGamesList(lines.join('\n')).rows;
}

const EVEN = '  5 2000 Alice       2000 Bob        [ br  3   0]   2:50 -  2:55 (39-39) W:  5';
const LOWER = '  8 1800 Carol       1800 Dave       [ br  3   0]   2:50 -  2:55 (39-39) W:  5';

describe('the TV loop', () => {
  it('finds nothing: says so once, asks FICS again only when the retry time is over', async () => {
    const outcome = await tv.turnOn('g1', 'c1', { variant: 'chess', minRating: 0 }, 'u1');
    expect(outcome).toMatchObject({ kind: 'waiting', why: 'nothing' });
    expect(relay.notices).toEqual([
      "FICS TV: no game in progress fits this channel's TV now (chess). It looks again every 60 s.",
    ]);
    expect(requests).toBe(1);
    // Looks before the retry time ask nothing of FICS.
    now += RETRY - 1;
    await tv.lookAll();
    expect(requests).toBe(1);
    now += 1;
    await tv.lookAll();
    expect(requests).toBe(2);
    expect(relay.notices).toHaveLength(1);
    // A game comes: the next look shows it, with its note.
    lists.push(games(EVEN));
    now += RETRY;
    await tv.lookAll();
    expect(relay.watched).toEqual([5]);
    expect(relay.notices.at(-1)).toBe('Now showing: Alice (2000) vs Bob (2000), blitz 3+0');
    // While it shows a game, looks ask nothing of FICS.
    now += RETRY;
    await tv.lookAll();
    expect(requests).toBe(3);
  });

  it('switches when the shown game ends, never back to it while the list still shows it', async () => {
    lists.push(games(EVEN, LOWER));
    const outcome = await tv.turnOn('g1', 'c1', { variant: 'chess', minRating: 0 }, 'u1');
    if (outcome.kind !== 'showing') throw new Error(`not showing: ${outcome.kind}`);
    await relay.end(outcome.post.id, null);
    await tv.idle();
    // The cached list (a few seconds old) still has game 5: the TV takes game 8.
    expect(relay.watched).toEqual([5, 8]);
    expect((await storage.tv.get('g1'))?.postId).not.toBe(outcome.post.id);
  });

  it('a server without room: says so once and does not ask FICS for games', async () => {
    relay.room = false;
    lists.push(games(EVEN));
    expect(await tv.turnOn('g1', 'c1', { variant: 'chess', minRating: 0 }, 'u1')).toMatchObject({
      kind: 'waiting',
      why: 'full',
    });
    now += RETRY;
    await tv.lookAll();
    expect(requests).toBe(0);
    expect(relay.notices).toHaveLength(1);
    expect(relay.notices[0]).toMatch(/^FICS TV waits for room/);
    relay.room = true;
    now += RETRY;
    await tv.lookAll();
    expect(relay.watched).toEqual([5]);
  });

  it('a post Discord refused for good turns the TV off instead of posting again', async () => {
    lists.push(games(EVEN, LOWER));
    const outcome = await tv.turnOn('g1', 'c1', { variant: 'chess', minRating: 0 }, 'u1');
    if (outcome.kind !== 'showing') throw new Error(`not showing: ${outcome.kind}`);
    await relay.end(outcome.post.id, 'the channel was deleted');
    await tv.idle();
    expect(await storage.tv.get('g1')).toBeNull();
    expect(relay.watched).toEqual([5]);
  });

  it('a server that removed the bot keeps its TV, inactive, without posting', async () => {
    lists.push(games(EVEN, LOWER));
    const outcome = await tv.turnOn('g1', 'c1', { variant: 'chess', minRating: 0 }, 'u1');
    if (outcome.kind !== 'showing') throw new Error(`not showing: ${outcome.kind}`);
    await storage.guildSettings.setInactive('g1');
    await relay.end(outcome.post.id, 'Kibitz was removed from this server');
    await tv.idle();
    expect(await storage.tv.get('g1')).toMatchObject({ channelId: 'c1', postId: null });
    now += RETRY;
    await tv.lookAll();
    expect(relay.watched).toEqual([5]);
  });
});
