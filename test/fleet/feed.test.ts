// The fleet feed between FICS pools and relays, on a real PostgreSQL with stand-in pools: a game
// held by another process arrives through the table and NOTIFY; when its holder stops renewing,
// only a process with room on its FICS logins takes it over.
import { EventEmitter } from 'node:events';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FleetFeed, type FleetPool } from '../../src/fleet/feed.js';
import { carriedFrom, continueSaid, saidSince } from '../../src/fleet/said-list.js';
import { migrateFleet } from '../../src/fleet/schema.js';
import { FleetStore, type StoredSnapshot } from '../../src/fleet/store.js';
import type { GameNumber } from '../../src/protocol/game-number.js';
import { MAX_SAID_PER_GAME, type FicsSnapshot, type Said } from '../../src/game/snapshot.js';
import type { GameId } from '../../src/game/game-id.js';
import type { SaidInGame, TrackerUpdate } from '../../src/game/tracker.js';
import { createLogger } from '../../src/log.js';
import { freshPostgresDatabase } from '../storage/backends.js';
import { waitFor } from '../support/wait.js';
import { moveLeaseEnd } from './leases.js';
import { gameNumber } from '../support/fics-values.js';

let server: { url: string };
let db: pg.Pool;
const feeds: FleetFeed[] = [];

beforeAll(async () => {
  // A database of its own on the run's server (test/support/postgres-setup.ts).
  server = { url: await freshPostgresDatabase() };
  db = new pg.Pool({ connectionString: server.url, max: 8 });
  // The server stopping at the end closes idle connections: not a failure.
  db.on('error', () => undefined);
  await migrateFleet(db);
}, 60_000);

afterAll(async () => {
  for (const feed of feeds) await feed.close();
  await db?.end();
});

const SERVER = '127.0.0.1:5000';
const LEASE_MS = 600;

function snapshotOf(game: GameNumber, san: string[], ended = false): FicsSnapshot {
  return {
    game,
    key: `${game}:1`,
    white: 'Alpha',
    black: 'Beta',
    san,
    ended,
    complete: true,
  } as unknown as FicsSnapshot;
}

/** A FICS pool stand-in: records observes, answers with a board, has room or not. */
class StandInPool
  extends EventEmitter<{ update: [TrackerUpdate<FicsSnapshot>]; said: [SaidInGame] }>
  implements FleetPool
{
  readonly observed: { game: number; holder?: string; kept?: boolean }[] = [];
  readonly roomAsked: number[] = [];
  private readonly boards = new Map<number, FicsSnapshot>();

  constructor(private readonly room: boolean) {
    super();
  }

  hasRoom(): boolean {
    this.roomAsked.push(Date.now());
    return this.room;
  }

  observeGame(game: GameNumber, holder?: string, kept?: boolean): Promise<GameNumber> {
    this.observed.push({ game, holder, kept });
    return Promise.resolve(game);
  }

  unobserve(): Promise<void> {
    return Promise.resolve();
  }

  snapshot(game: GameId): FicsSnapshot | undefined {
    return this.boards.get(game);
  }

  /** A kibitz or whisper from FICS in a game this pool observes: kept in its state, then told. */
  say(game: GameNumber, said: Said): void {
    const now = this.boards.get(game)!;
    this.boards.set(game, { ...now, said: [...(now.said ?? []), said] });
    this.emit('said', { game, key: now.key, said });
  }

  /** A board from FICS for a game this pool observes. */
  board(snapshot: FicsSnapshot): void {
    this.boards.set(snapshot.game, snapshot);
    this.emit('update', { type: 'moved', snapshot });
  }
}

/** Another machine's store, holding the game (a lease of a minute) with its first board published. */
async function heldElsewhere(game: GameNumber, holder: string): Promise<FleetStore> {
  const store = new FleetStore(db, SERVER, holder);
  expect(await store.lease([game], 60_000)).toEqual(new Set([game]));
  expect(await store.publish(snapshotOf(game, ['e4']))).toBe(1);
  return store;
}

/** A store whose first lease statement waits for `first` to run (another machine, just before). */
class StoreAfter extends FleetStore {
  constructor(
    holder: string,
    private first: (() => Promise<unknown>) | null,
  ) {
    super(db, SERVER, holder);
  }

  override async lease(games: readonly GameNumber[], ms: number, unlessEnded?: boolean) {
    const first = this.first;
    this.first = null;
    await first?.();
    return super.lease(games, ms, unlessEnded);
  }
}

async function feedOf(pool: StandInPool, holder: string | FleetStore): Promise<FleetFeed> {
  const feed = new FleetFeed({
    pool,
    store: typeof holder === 'string' ? new FleetStore(db, SERVER, holder) : holder,
    listener: () => new pg.Client({ connectionString: server.url }),
    leaseMs: LEASE_MS,
    logger: createLogger({ level: 'silent' }),
  });
  feeds.push(feed);
  await feed.start();
  return feed;
}

/**
 * A game held by a machine about to die (`<name>-dead`), followed by a machine with no room (the
 * reader, whose lines are `heard`) and by one with room (the taker).
 */
async function takeoverOf(game: GameNumber, name: string) {
  const dead = await heldElsewhere(game, `${name}-dead`);
  const takerPool = new StandInPool(true);
  const reader = await feedOf(new StandInPool(false), `${name}-reader`);
  const taker = await feedOf(takerPool, `${name}-taker`);
  const heard: Said[] = [];
  reader.on('said', (said) => heard.push(said.said));
  await reader.observeGame(game, 'guild-reader');
  await taker.observeGame(game, 'guild-taker');
  return { dead, takerPool, reader, taker, heard };
}

/** A kibitz said after the first move. */
function kibitz(handle: string, text: string): Said {
  return { ply: 1, handle, text, whisper: false };
}

describe('fleet feed', () => {
  it('follows a game held elsewhere, and only a process with room takes it over', async () => {
    const game = gameNumber(7);
    // A holder that dies after its first board: it never renews. Its leases end when the test
    // says so, on the database's clock (moveLeaseEnd).
    const dead = await heldElsewhere(game, 'dead-machine');

    const fullPool = new StandInPool(false);
    const full = await feedOf(fullPool, 'full-machine');
    const heard: TrackerUpdate[] = [];
    full.on('update', (update) => heard.push(update));
    expect(await full.observeGame(game, 'guild-on-full')).toBe(game);
    expect(full.snapshot(game)?.san).toEqual(['e4']);
    expect(heard.map((u) => u.type)).toEqual(['started']);
    await moveLeaseEnd(db, { game });
    const expiresAt = Date.now();

    // Past the expiry the full machine has looked twice and declined: the game is still the dead one's.
    await waitFor(
      () => fullPool.roomAsked.filter((at) => at > expiresAt).length >= 2,
      'the full machine to consider the game',
      5_000,
    );
    const holder = await db.query<{ holder: string }>('SELECT holder FROM fleet_leases WHERE game = $1', [
      game,
    ]);
    expect(holder.rows.map((r) => r.holder)).toEqual(['dead-machine']);
    expect(fullPool.observed).toEqual([]);

    // The holder renews once more, then dies for good; meanwhile a machine with room wants the
    // game too: it follows it, then, the lease ended, takes it over and observes it, kept whatever
    // its share.
    expect(await dead.lease([game], 60_000)).toEqual(new Set([game]));
    const roomyPool = new StandInPool(true);
    const roomy = await feedOf(roomyPool, 'roomy-machine');
    await roomy.observeGame(game, 'guild-on-roomy');
    expect(roomy.heldGames()).toEqual([]);
    expect(roomy.snapshot(game)?.san).toEqual(['e4']);
    await moveLeaseEnd(db, { game });
    await waitFor(() => roomyPool.observed.length > 0, 'the takeover', 5_000);
    expect(roomyPool.observed).toEqual([{ game, holder: 'guild-on-roomy', kept: true }]);
    expect(roomy.heldGames()).toEqual([game]);

    // Its boards reach the other machine through PostgreSQL, as moves of the same game.
    roomyPool.board(snapshotOf(game, ['e4', 'e5', 'Nf3']));
    await waitFor(() => full.snapshot(game)?.san.length === 3, 'the new board on the full machine', 5_000);
    expect(heard.map((u) => u.type)).toEqual(['started', 'moved']);
    roomyPool.board(snapshotOf(game, ['e4', 'e5', 'Nf3', 'Nc6'], true));
    await waitFor(() => heard.at(-1)?.type === 'ended', 'the end on the full machine', 5_000);
    expect(full.snapshot(game)).toMatchObject({ ended: true, san: ['e4', 'e5', 'Nf3', 'Nc6'] });
    // An ended game's lease is given back at once.
    let leases = 1;
    for (let tries = 0; leases > 0 && tries < 100; tries++) {
      leases = (await db.query('SELECT holder FROM fleet_leases WHERE game = $1', [game])).rowCount ?? 0;
      if (leases > 0) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(leases).toBe(0);
  });

  it('observes a followed player’s new game on one machine only: the lease holder', async () => {
    const pools = [new StandInPool(true), new StandInPool(true)];
    const [first, second] = await Promise.all(pools.map((pool, i) => feedOf(pool, `follower-${i}`)));
    const game = gameNumber(8);
    // Both machines hear of the game (both follow the player); the first to ask takes the lease.
    await first!.observeFollowed(game, ['guild-a', 'guild-b']);
    await second!.observeFollowed(game, ['guild-c']);
    expect(pools[0]!.observed).toEqual([
      { game, holder: 'guild-a', kept: true },
      { game, holder: 'guild-b', kept: true },
    ]);
    expect(pools[1]!.observed).toEqual([]);
    expect(first!.heldGames()).toEqual([game]);
    expect(second!.heldGames()).toEqual([]);
    // The second machine's servers get its boards through PostgreSQL.
    pools[0]!.board(snapshotOf(game, ['d4']));
    await waitFor(() => second!.snapshot(game)?.san.length === 1, 'the board on the second machine', 5_000);
  });

  it('resuming a post after a restart, never observes a game whose end was stored just before', async () => {
    const game = gameNumber(11);
    // Another machine holds the game; its end comes just as this machine, restarted, resumes its
    // post: stored and the lease given back right before this machine's lease statement.
    const holder = await heldElsewhere(game, 'holder-machine');
    const pool = new StandInPool(true);
    const restarted = await feedOf(
      pool,
      new StoreAfter('restarted-machine', async () => {
        await holder.publish(snapshotOf(game, ['e4', 'e5'], true));
        await holder.release(game);
      }),
    );
    const heard: TrackerUpdate[] = [];
    restarted.on('update', (update) => heard.push(update));
    // `kept`: a post held before the restart, as the relay resumes it (src/relay/relay.ts).
    expect(await restarted.observeGame(game, 'guild-on-restarted', true)).toBe(game);
    // FICS is not asked for a game that is over, and nobody holds it.
    expect(pool.observed).toEqual([]);
    expect(restarted.heldGames()).toEqual([]);
    expect((await db.query('SELECT holder FROM fleet_leases WHERE game = $1', [game])).rows).toEqual([]);
    // Its end reaches the post from the table.
    await waitFor(() => heard.at(-1)?.type === 'ended', 'the stored end on the restarted machine', 5_000);
    expect(restarted.snapshot(game)).toMatchObject({ ended: true, san: ['e4', 'e5'] });
  });

  it('passes kibitzes and whispers on to the other machines as they come, within their bounds', async () => {
    const pools = [new StandInPool(true), new StandInPool(true)];
    const [holder, other] = await Promise.all(pools.map((pool, i) => feedOf(pool, `talk-${i}`)));
    const game = 9 as GameNumber;
    const board = { ...snapshotOf(game, ['e4']), key: '9:holder' };
    pools[0]!.board(board);
    await holder!.observeGame(game, 'guild-a');
    expect(holder!.heldGames()).toEqual([game]);
    const early: Said = { ply: 1, handle: 'Early', text: 'before the other machine came', whisper: false };
    pools[0]!.say(game, early);
    await other!.observeGame(game, 'guild-b');
    expect(other!.heldGames()).toEqual([]);
    const heard: { on: string; said: SaidInGame }[] = [];
    holder!.on('said', (said) => heard.push({ on: 'holder', said }));
    other!.on('said', (said) => heard.push({ on: 'other', said }));
    await waitFor(
      () => other!.snapshot(game)?.said?.length === 1,
      'the first state on the other machine',
      5_000,
    );

    // No move comes: each line travels on its own, under the key the holder stored the game under
    // (its tracker's and its name; the other machine's snapshot of the game has it), to the other
    // machine and to the holder's own relay.
    const lecture: Said = {
      ply: 1,
      handle: 'LectureBot',
      text: "Can you find Black's best move?",
      whisper: false,
    };
    const whisper: Said = { ply: 1, handle: 'LurKing', text: 'ply=19; eval=+0.31', whisper: true };
    pools[0]!.say(game, lecture);
    pools[0]!.say(game, whisper);
    await waitFor(
      () => heard.filter((h) => h.on === 'other').length === 2,
      'both lines on the other machine',
      5_000,
    );
    expect(heard.filter((h) => h.on === 'other').map((h) => h.said)).toEqual([
      { game, key: '9:holder@talk-0', said: lecture },
      { game, key: '9:holder@talk-0', said: whisper },
    ]);
    expect(heard.filter((h) => h.on === 'holder').map((h) => h.said.said)).toEqual([lecture, whisper]);
    expect(other!.snapshot(game)?.key).toBe('9:holder@talk-0');

    // A state stored with a line past the bounds FICS lines are decoded with: that line is skipped,
    // the next one passes. Then the end: the line said with it goes before it.
    const long: Said = { ply: 2, handle: 'Verbose', text: 'x'.repeat(401), whisper: false };
    const last: Said = { ply: 2, handle: 'Alpha', text: 'gg', whisper: false };
    const said = [early, lecture, whisper, long, last];
    const order: string[] = [];
    other!.on('said', (s) => order.push(`said ${s.said.handle}`));
    other!.on('update', (u) => order.push(u.type));
    pools[0]!.board({ ...board, san: ['e4', 'e5'], said, ended: true });
    await waitFor(() => order.includes('ended'), 'the end on the other machine', 5_000);
    expect(order).toEqual(['said Alpha', 'ended']);
  });
  it('after a takeover, passes on the new holder’s lines though its tracker gave the game the old holder’s key', async () => {
    const game = gameNumber(12);
    // The holder: its tracker's key for the game is `12:1`, as any process's first game under 12 is.
    const { dead, takerPool, reader, taker, heard } = await takeoverOf(game, 'talk');
    const before = [kibitz('Alpha', 'hello'), kibitz('Beta', 'hi')];
    expect(await dead.publish({ ...snapshotOf(game, ['e4']), said: before })).toBe(2);
    await waitFor(() => heard.length === 2, 'the holder’s lines on the reader', 5_000);

    // The holder dies; the machine with room takes the game over. Its tracker's first game is this
    // one: the same key, `12:1`. The first of its states the reader reads has its first line
    // already (a reader reads only the latest state).
    await moveLeaseEnd(db, { game });
    await waitFor(() => takerPool.observed.length > 0, 'the takeover', 5_000);
    const after = kibitz('Gamma', 'after the takeover');
    takerPool.board({ ...snapshotOf(game, ['e4', 'e5']), said: [after] });
    await waitFor(
      () => reader.snapshot(game)?.san.length === 2,
      'the new holder’s state on the reader',
      5_000,
    );
    expect(heard).toEqual([...before, after]);
    // The new holder's list goes on from the dead one's: its own snapshot (its post's PGN), the
    // state stored and the reader's snapshot have the lines said before the takeover, then its own.
    expect(taker.snapshot(game)?.said).toEqual([...before, after]);
    expect(reader.snapshot(game)?.said).toEqual([...before, after]);
    const stored = await db.query<{ snapshot: { key: string; saidList: string } }>(
      'SELECT snapshot FROM fleet_games WHERE game = $1',
      [game],
    );
    expect(stored.rows[0]?.snapshot).toMatchObject({ key: '12:1@talk-taker', saidList: '12:1@talk-dead' });

    // Its next line and its end: each line once on the reader, every line in the final state.
    const last = kibitz('Alpha', 'gg');
    takerPool.board({ ...snapshotOf(game, ['e4', 'e5', 'Nf3'], true), said: [after, last] });
    await waitFor(() => reader.snapshot(game)?.ended === true, 'the end on the reader', 5_000);
    expect(heard).toEqual([...before, after, last]);
    expect(reader.snapshot(game)?.said).toEqual([...before, after, last]);
  });

  it('after a takeover into another game under the number, carries nothing and passes all its lines', async () => {
    const game = gameNumber(13);
    const { dead, takerPool, reader, taker, heard } = await takeoverOf(game, 'other');
    const before = [kibitz('Alpha', 'hello')];
    expect(await dead.publish({ ...snapshotOf(game, ['e4']), said: before })).toBe(2);
    await waitFor(() => heard.length === 1, 'the holder’s line on the reader', 5_000);

    // The game ended unseen and FICS gave its number to two other players: the new holder's
    // tracker has the same key, `13:1`, for another game.
    await moveLeaseEnd(db, { game });
    await waitFor(() => takerPool.observed.length > 0, 'the takeover', 5_000);
    const next = [kibitz('Gamma', 'a new game'), kibitz('Delta', 'hi')];
    takerPool.board({ ...snapshotOf(game, ['d4']), white: 'Gamma', black: 'Delta', said: next });
    await waitFor(() => reader.snapshot(game)?.white === 'Gamma', 'the new game on the reader', 5_000);
    expect(heard).toEqual([...before, ...next]);
    expect(taker.snapshot(game)?.said).toEqual(next);
  });
});

describe('a lease given back', () => {
  it('is taken with the lines of the game’s last stored state: its new holder goes on from them', async () => {
    const game = gameNumber(14);
    // The holder's posts stopped: it gave the lease back, the game's state stays (not ended).
    const before = [kibitz('Alpha', 'hello')];
    const old = await heldElsewhere(game, 'gave-back');
    expect(await old.publish({ ...snapshotOf(game, ['e4']), said: before })).toBe(2);
    await old.release(game);
    const pool = new StandInPool(true);
    const next = await feedOf(pool, 'next-holder');
    await next.observeGame(game, 'guild-next');
    expect(next.heldGames()).toEqual([game]);
    const mine = kibitz('Gamma', 'heard here');
    pool.board({ ...snapshotOf(game, ['e4', 'e5']), said: [mine] });
    expect(next.snapshot(game)?.said).toEqual([...before, mine]);
    // Stored so: a machine that follows the game now reads both, as one list.
    const reader = await feedOf(new StandInPool(false), 'late-reader');
    await reader.observeGame(game, 'guild-late');
    await waitFor(() => reader.snapshot(game)?.san.length === 2, 'the new holder’s state', 5_000);
    expect(reader.snapshot(game)).toMatchObject({ saidList: '14:1@gave-back', said: [...before, mine] });
  });
});

describe('saidSince', () => {
  const line = (text: string): Said => ({ ply: 1, handle: 'Carol', text, whisper: false });
  const state = (key: string, said: Said[]) => ({ ...snapshotOf(gameNumber(3), ['e4']), key, said });
  it('passes on what the last read did not have; all of a state under another key; none at first', () => {
    const [a, b, c] = [line('a'), line('b'), line('c')];
    expect(saidSince(undefined, state('3:1', [a, b]))).toEqual([]);
    expect(saidSince(state('3:1', [a]), state('3:1', [a, b, c]))).toEqual([b, c]);
    expect(saidSince(state('3:1', [a, b]), state('3:1', [a, b]))).toEqual([]);
    // A takeover: the new holder's list starts with what it heard itself.
    expect(saidSince(state('3:1', [a, b]), state('3:7', [c]))).toEqual([c]);
    // Out of bounds: skipped; more than a game keeps: cut.
    const bad = [
      { ...a, handle: 'x'.repeat(18) },
      { ...a, ply: -1 },
      { ...a, text: 'y'.repeat(401) },
    ];
    expect(saidSince(state('3:1', []), state('3:1', [...bad, c]))).toEqual([c]);
    const many = Array.from({ length: MAX_SAID_PER_GAME + 5 }, (_, i) => line(String(i)));
    expect(saidSince(state('3:1', []), state('3:1', many))).toHaveLength(MAX_SAID_PER_GAME);
  });

  it('passes on the rest of a continued list: a takeover’s carried lines are not repeated', () => {
    const [a, b, c, d] = [line('a'), line('b'), line('c'), line('d')];
    const continued = (key: string, said: Said[], saidList: string) => ({ ...state(key, said), saidList });
    // B took over from A carrying [a, b]; C later from B: the list is still A's.
    expect(saidSince(state('3:1@A', [a, b]), continued('3:1@B', [a, b, c], '3:1@A'))).toEqual([c]);
    expect(saidSince(state('3:1@A', [a]), continued('3:1@C', [a, b, c, d], '3:1@A'))).toEqual([b, c, d]);
    expect(
      saidSince(continued('3:1@B', [a, b, c], '3:1@A'), continued('3:1@C', [a, b, c, d], '3:1@A')),
    ).toEqual([d]);
    // A, too late to renew, stores the end it saw under its own key: the same list, nothing again.
    expect(saidSince(continued('3:1@B', [a, b, c], '3:1@A'), state('3:1@A', [a, b, c]))).toEqual([]);
    // A holder that carried nothing (another game under the number): all of its list.
    expect(saidSince(continued('3:1@B', [a, b], '3:1@A'), state('3:1@C', [c]))).toEqual([c]);
  });
});

describe('carrying a game’s lines over to its new holder', () => {
  const line = (text: string, ply = 1): Said => ({ ply, handle: 'Carol', text, whisper: false });
  const last = (said: Said[], more: Partial<StoredSnapshot> = {}) =>
    ({ ...snapshotOf(gameNumber(4), ['e4']), key: '4:1@A', said, ...more }) as StoredSnapshot;
  const heard = (said: Said[], more: Partial<FicsSnapshot> = {}) =>
    ({ ...snapshotOf(gameNumber(4), ['e4', 'e5']), key: '4:1', said, ...more }) as FicsSnapshot;

  it('puts the last stored state’s lines first, at the plies they were said, under its list', () => {
    const [a, b, c] = [line('a'), line('b', 2), line('c', 2)];
    const carried = carriedFrom(last([a, b]))!;
    expect(continueSaid(carried, heard([c]))).toMatchObject({
      key: '4:1',
      said: [a, b, c],
      saidList: '4:1@A',
    });
    // Nothing heard yet: the carried lines alone. A list continued already keeps its first name.
    expect(continueSaid(carried, heard([])).said).toEqual([a, b]);
    expect(carriedFrom(last([a], { saidList: '4:1@Z' }))?.list).toBe('4:1@Z');
    // Histories that start late (a board seen mid-game): plies count from each one's start.
    const lateOld = carriedFrom(
      last([line('x', 2)], { complete: false, startFen: '8/8/8/8/8/8/8/8 w - - 0 10' }),
    )!;
    expect(continueSaid(lateOld, heard([])).said).toEqual([line('x', 20)]);
    const lateNew = heard([], { complete: false, startFen: '8/8/8/8/8/8/8/8 b - - 0 10' });
    expect(continueSaid(lateOld, lateNew).said).toEqual([line('x', 1)]);
  });

  it('carries nothing from an ended state, nor into another game under the number', () => {
    expect(carriedFrom(last([line('a')], { ended: true }))).toBeNull();
    const carried = carriedFrom(last([line('a')]))!;
    const other = heard([line('c')], { white: 'Gamma' });
    expect(continueSaid(carried, other)).toEqual(other);
  });

  it('keeps at most MAX_SAID_PER_GAME with the carried lines, the later ones counted', () => {
    const old = Array.from({ length: MAX_SAID_PER_GAME - 2 }, (_, i) => line(`old ${i}`));
    const carried = carriedFrom(last(old, { saidDropped: 1 }))!;
    const mine = Array.from({ length: 5 }, (_, i) => line(`new ${i}`));
    const continued = continueSaid(carried, heard(mine));
    expect(continued.said).toEqual([...old, ...mine.slice(0, 2)]);
    expect(continued.saidDropped).toBe(1 + 3);
    // A reader that had all the carried lines passes on the two kept after them.
    expect(saidSince(last(old), continued)).toEqual(mine.slice(0, 2));
  });
});
