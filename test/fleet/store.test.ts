// The fleet's tables on a real PostgreSQL: migrations, leases taken by compare-and-set (never two
// holders), publishing fenced by the lease, and the notices other machines LISTEN to.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLEET_MIGRATIONS, migrateFleet } from '../../src/fleet/schema.js';
import { FLEET_CHANNEL, FleetStore, parseNotice, type FleetNotice } from '../../src/fleet/store.js';
import type { GameSnapshot } from '../../src/game/snapshot.js';
import { freshPostgresDatabase } from '../storage/backends.js';
import { waitFor } from '../support/wait.js';
import { gameNumber } from '../support/fics-values.js';
import { moveLeaseEnd } from './leases.js';

let server: { url: string };
let db: pg.Pool;

beforeAll(async () => {
  // A database of its own on the run's server (test/support/postgres-setup.ts).
  server = { url: await freshPostgresDatabase() };
  db = new pg.Pool({ connectionString: server.url, max: 8 });
  // The server stopping at the end closes idle connections: not a failure.
  db.on('error', () => undefined);
}, 60_000);

afterAll(async () => {
  await db?.end();
});

const SERVER = '127.0.0.1:5000';

function snapshotOf(game: number, ended = false): GameSnapshot {
  return { game, white: 'Alpha', black: 'Beta', san: ['e4', 'e5'], ended } as unknown as GameSnapshot;
}

describe('fleet schema', () => {
  it('migrates once, even when every machine starts at the same moment', async () => {
    const versions = await Promise.all([migrateFleet(db), migrateFleet(db), migrateFleet(db)]);
    const latest = FLEET_MIGRATIONS.at(-1)!.version;
    expect(versions).toEqual([latest, latest, latest]);
    const applied = await db.query<{ version: number }>('SELECT version FROM fleet_schema ORDER BY version');
    expect(applied.rows.map((r) => r.version)).toEqual(FLEET_MIGRATIONS.map((m) => m.version));
  });
});

describe('fleet schema of a newer Kibitz', () => {
  it('is refused with what to do, and left as it is', async () => {
    await migrateFleet(db);
    await db.query('INSERT INTO fleet_schema (version) VALUES (999)');
    try {
      await expect(migrateFleet(db)).rejects.toThrow(/version 999, newer than this Kibitz knows/);
    } finally {
      await db.query('DELETE FROM fleet_schema WHERE version = 999');
    }
  });
});

describe('leases', () => {
  it('has one holder however many machines ask at once', async () => {
    await migrateFleet(db);
    const stores = ['a', 'b', 'c', 'd'].map((name) => new FleetStore(db, SERVER, name));
    for (let game = 1; game <= 20; game++) {
      const won = await Promise.all(stores.map((store) => store.lease([gameNumber(game)], 60_000)));
      expect(won.filter((held) => held.has(gameNumber(game)))).toHaveLength(1);
    }
    const holders = await db.query<{ n: string }>(
      'SELECT count(DISTINCT game) AS n FROM fleet_leases WHERE server = $1 AND game <= 20',
      [SERVER],
    );
    expect(Number(holders.rows[0]!.n)).toBe(20);
  });

  it('is renewed by its holder, and taken over only once it expired', async () => {
    const a = new FleetStore(db, SERVER, 'holder-a');
    const b = new FleetStore(db, SERVER, 'holder-b');
    const game = 101;
    // Leases run on the database's clock: the test moves a lease's end instead of waiting for it.
    const expireIn = (ms: number): Promise<unknown> => moveLeaseEnd(db, { game }, ms);
    expect(await a.lease([gameNumber(game)], 60_000)).toEqual(new Set([game]));
    expect(await a.publish(snapshotOf(game))).toBe(1);
    expect(await b.lease([gameNumber(game)], 60_000, true)).toEqual(new Set());
    // Renewing moves the end forward again.
    await expireIn(-1_000);
    expect(await a.lease([gameNumber(game)], 60_000)).toEqual(new Set([game]));
    expect(await b.lease([gameNumber(game)], 60_000, true)).toEqual(new Set());
    // a stops renewing (a crash): b gets the game once the lease ran out, not before.
    await expireIn(60_000);
    expect(await b.lease([gameNumber(game)], 60_000, true)).toEqual(new Set());
    await expireIn(-1);
    expect(await b.lease([gameNumber(game)], 60_000, true)).toEqual(new Set([game]));
    // The old holder can neither renew nor publish any more: its state would mix with b's.
    expect(await a.lease([gameNumber(game)], 400)).toEqual(new Set());
    expect(await a.publish(snapshotOf(game))).toBeNull();
    expect(await b.publish(snapshotOf(game))).toBe(2);
    expect((await b.read(gameNumber(game)))?.seq).toBe(2);
  });

  it('is not taken over for a game whose state says it ended, but a new post may take it', async () => {
    const a = new FleetStore(db, SERVER, 'holder-a');
    const b = new FleetStore(db, SERVER, 'holder-b');
    const game = 102;
    await a.lease([gameNumber(game)], 60_000);
    await a.publish(snapshotOf(game, true));
    await a.release(gameNumber(game));
    expect(await b.lease([gameNumber(game)], 60_000, true)).toEqual(new Set());
    expect(await b.lease([gameNumber(game)], 60_000)).toEqual(new Set([game]));
  });

  it('is given back at once on a clean stop', async () => {
    const a = new FleetStore(db, SERVER, 'holder-stop');
    const b = new FleetStore(db, SERVER, 'holder-b');
    await a.lease([gameNumber(201), gameNumber(202)], 60_000);
    await a.releaseAll();
    expect(await b.lease([gameNumber(201), gameNumber(202)], 60_000)).toEqual(new Set([201, 202]));
  });
});

describe('notices', () => {
  it('tell a listener which game has a new state, and the row has it', async () => {
    const listener = new pg.Client({ connectionString: server.url });
    await listener.connect();
    const heard: FleetNotice[] = [];
    listener.on('notification', (message) => {
      const notice = message.channel === FLEET_CHANNEL ? parseNotice(message.payload) : null;
      if (notice !== null) heard.push(notice);
    });
    await listener.query(`LISTEN ${FLEET_CHANNEL}`);
    try {
      const a = new FleetStore(db, SERVER, 'holder-notice');
      await a.lease([gameNumber(301)], 60_000);
      const first = await a.publish(snapshotOf(301));
      const second = await a.publish(snapshotOf(301, true));
      await waitFor(() => heard.length >= 2, 'two notices', 5_000);
      expect(heard).toEqual([
        { game: 301, seq: first, server: SERVER },
        { game: 301, seq: second, server: SERVER },
      ]);
      expect((await a.read(gameNumber(301)))?.snapshot).toMatchObject({ game: 301, ended: true });
    } finally {
      await listener.end();
    }
  });

  it('are refused when they are not the fleet’s', () => {
    for (const payload of [
      undefined,
      '',
      '12',
      '12 3',
      'x 3 s',
      `${'9'.repeat(11)} 1 s`,
      `1 1 ${'s'.repeat(301)}`,
    ])
      expect(parseNotice(payload)).toBeNull();
    expect(parseNotice('12 3 host:5000')).toEqual({ game: 12, seq: 3, server: 'host:5000' });
  });
});
