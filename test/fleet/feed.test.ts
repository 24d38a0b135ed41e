// The fleet feed between FICS pools and relays, on a real PostgreSQL with stand-in pools: a game
// held by another process arrives through the table and NOTIFY; when its holder stops renewing,
// only a process with room on its FICS logins takes it over.
import { EventEmitter } from 'node:events';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FleetFeed, type FleetPool } from '../../src/fleet/feed.js';
import { migrateFleet } from '../../src/fleet/schema.js';
import { FleetStore } from '../../src/fleet/store.js';
import type { GameNumber } from '../../src/protocol/game-number.js';
import type { FicsSnapshot } from '../../src/game/snapshot.js';
import type { GameId } from '../../src/game/game-id.js';
import type { TrackerUpdate } from '../../src/game/tracker.js';
import { createLogger } from '../../src/log.js';
import { freshPostgresDatabase } from '../storage/backends.js';
import { waitFor } from '../support/wait.js';
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
  return { game, key: `${game}:1`, white: 'Alpha', black: 'Beta', san, ended } as unknown as FicsSnapshot;
}

/** A FICS pool stand-in: records observes, answers with a board, has room or not. */
class StandInPool extends EventEmitter<{ update: [TrackerUpdate<FicsSnapshot>] }> implements FleetPool {
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

  /** A board from FICS for a game this pool observes. */
  board(snapshot: FicsSnapshot): void {
    this.boards.set(snapshot.game, snapshot);
    this.emit('update', { type: 'moved', snapshot });
  }
}

async function feedOf(pool: StandInPool, holder: string): Promise<FleetFeed> {
  const feed = new FleetFeed({
    pool,
    store: new FleetStore(db, SERVER, holder),
    listener: () => new pg.Client({ connectionString: server.url }),
    leaseMs: LEASE_MS,
    logger: createLogger({ level: 'silent' }),
  });
  feeds.push(feed);
  await feed.start();
  return feed;
}

describe('fleet feed', () => {
  it('follows a game held elsewhere, and only a process with room takes it over', async () => {
    const game = gameNumber(7);
    // A holder that dies after its first board: it never renews.
    const dead = new FleetStore(db, SERVER, 'dead-machine');
    expect(await dead.lease([game], LEASE_MS)).toEqual(new Set([game]));
    expect(await dead.publish(snapshotOf(game, ['e4']))).toBe(1);
    const expiresAt = Date.now() + LEASE_MS;

    const fullPool = new StandInPool(false);
    const full = await feedOf(fullPool, 'full-machine');
    const heard: TrackerUpdate[] = [];
    full.on('update', (update) => heard.push(update));
    expect(await full.observeGame(game, 'guild-on-full')).toBe(game);
    expect(full.snapshot(game)?.san).toEqual(['e4']);
    expect(heard.map((u) => u.type)).toEqual(['started']);

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
    // game too: it follows it, then takes it over and observes it, kept whatever its share.
    expect(await dead.lease([game], 2_000)).toEqual(new Set([game]));
    const roomyPool = new StandInPool(true);
    const roomy = await feedOf(roomyPool, 'roomy-machine');
    await roomy.observeGame(game, 'guild-on-roomy');
    expect(roomy.heldGames()).toEqual([]);
    expect(roomy.snapshot(game)?.san).toEqual(['e4']);
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
});
