// One bot token's 40 edits a second shared by its processes through the fleet's PostgreSQL (a
// real server, test/support/postgres.ts), on a clock the test holds; and two processes paced so
// staying under the fake Discord's global limit for the token, where each alone at the full rate
// goes over it.
import pg from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  RATE_SHARE_PERIOD_MS,
  RATE_SHARE_TTL_MS,
  RateShare,
  shareOfDemand,
} from '../../src/fleet/rate-share.js';
import { migrateFleet } from '../../src/fleet/schema.js';
import { FleetStore } from '../../src/fleet/store.js';
import { EditScheduler } from '../../src/relay/schedule.js';
import { discordEditPace } from '../../src/discord/live-port.js';
import { freshPostgresDatabase } from '../storage/backends.js';
import { ManualClock } from '../support/manual-clock.js';
import { startFake } from '../discord/harness.js';
import { waitFor } from '../support/wait.js';

let db: pg.Pool;

beforeAll(async () => {
  db = new pg.Pool({ connectionString: await freshPostgresDatabase(), max: 4 });
  db.on('error', () => undefined);
  await migrateFleet(db);
}, 60_000);

afterAll(async () => {
  await db?.end();
});

const logger = pino({ level: 'silent' });

/** A process of the bot: its rate share over its own store row. */
function processOf(name: string, clock: ManualClock, waiting: { n: number }, staticShare = 40) {
  const store = new FleetStore(db, '127.0.0.1:5000', name);
  return new RateShare({ store, budget: 40, staticShare, waiting: () => waiting.n, clock, logger });
}

describe('shareOfDemand', () => {
  it('gives each its floor and the rest by demand; the parts add up to the budget', () => {
    expect(shareOfDemand(30, { total: 40, processes: 2 }, 40)).toBe(27.5);
    expect(shareOfDemand(10, { total: 40, processes: 2 }, 40)).toBe(12.5);
    expect(shareOfDemand(0, { total: 40, processes: 2 }, 40)).toBe(5);
    expect(shareOfDemand(0, { total: 0, processes: 4 }, 40)).toBe(10);
    expect(shareOfDemand(7, { total: 7, processes: 1 }, 40)).toBe(40);
  });
});

describe('rate shares on PostgreSQL', () => {
  it('two processes share 40 by demand; one that stops renewing leaves its part to the other', async () => {
    await db.query('DELETE FROM rate_shares');
    const clock = new ManualClock();
    clock.t = 1_800_000_000_000;
    const busy = { n: 60 };
    const quiet = { n: 20 };
    const a = processOf('a', clock, busy);
    const b = processOf('b', clock, quiet);
    // The first renewals: each part is computed from the other's demand of its last renewal.
    await a.renew();
    expect(a.perSecond()).toBe(40);
    await b.renew();
    // b: 10 smoothed of 20 waiting, a: 30 of 60 → 5 + 30 x 10 / 40.
    expect(b.perSecond()).toBe(12.5);
    // Renewed in turn, the smoothed demands settle (60 and 20) and the parts add up to 40.
    await settle(a, b);
    expect(a.perSecond()).toBeCloseTo(27.5, 6);
    expect(b.perSecond()).toBeCloseTo(12.5, 6);
    // b stops renewing (killed): once its row expires, a has the whole budget.
    clock.t += RATE_SHARE_TTL_MS - 1;
    await a.renew();
    expect(a.perSecond()).toBeLessThan(40);
    clock.t += 2;
    await a.renew();
    expect(a.perSecond()).toBe(40);
    // b back: it takes at least its floor at once.
    await b.renew();
    expect(b.perSecond()).toBeGreaterThanOrEqual(5);
    await a.close();
    await b.close();
    expect((await db.query('SELECT holder FROM rate_shares')).rows).toEqual([]);
  });

  it('renews on its clock every period', async () => {
    await db.query('DELETE FROM rate_shares');
    const clock = new ManualClock();
    clock.t = 1_800_000_000_000;
    const real = new FleetStore(db, '127.0.0.1:5000', 'timer');
    const renewedAt: number[] = [];
    const store = {
      shareDemand: (demand: number, now: number, ms: number) => {
        renewedAt.push(now);
        return real.shareDemand(demand, now, ms);
      },
      dropDemand: () => real.dropDemand(),
    };
    const share = new RateShare({ store, budget: 40, staticShare: 10, waiting: () => 5, clock, logger });
    share.start();
    expect(renewedAt).toEqual([]);
    await clock.advance(0);
    // Alone in the fleet: the whole budget, once the database has answered (the next renewal is
    // timed from then).
    await waitFor(() => share.perSecond() === 40, 'the first answer');
    expect(renewedAt).toHaveLength(1);
    await clock.advance(RATE_SHARE_PERIOD_MS - 1);
    expect(renewedAt).toHaveLength(1);
    await clock.advance(1);
    await waitFor(() => renewedAt.length === 2, 'the second renewal');
    expect(renewedAt[1]! - renewedAt[0]!).toBe(RATE_SHARE_PERIOD_MS);
    await share.close();
    expect((await db.query('SELECT holder FROM rate_shares')).rows).toEqual([]);
  });

  it('paces at its static share while the database cannot be reached, and says so once', async () => {
    const records: string[] = [];
    const store = {
      shareDemand: () => Promise.reject(new Error('connection refused')),
      dropDemand: () => Promise.resolve(),
    };
    const share = new RateShare({
      store,
      budget: 40,
      staticShare: 20,
      waiting: () => 3,
      clock: new ManualClock(),
      logger: pino({ level: 'info' }, { write: (line: string) => void records.push(line) }),
    });
    await share.renew();
    await share.renew();
    expect(share.perSecond()).toBe(20);
    expect(records.filter((r) => r.includes('database unreachable'))).toHaveLength(1);
  });
});

describe('two processes of one token against the global limit', () => {
  /** Each process sends `sends` posts through a scheduler paced by `pace`, all at once queued. */
  async function run(paces: (() => number)[], sends: number, globalPerSecond = 50) {
    const { fake, channel, close } = await startFake({
      rateLimits: {
        messageCreate: { limit: 10_000, windowMs: 1_000 },
        global: { limit: globalPerSecond, windowMs: 1_000 },
      },
    });
    try {
      const post = (n: number) =>
        fetch(`${fake.apiBase}/v10/channels/${channel.id}/messages`, {
          method: 'POST',
          headers: { authorization: `Bot ${fake.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ content: `post ${n}` }),
        }).then((a) => a.status);
      const statuses = await Promise.all(
        paces.flatMap((pace) => {
          const scheduler = new EditScheduler(discordEditPace(pace, null));
          return Array.from({ length: sends }, (_, i) =>
            scheduler.run({ bucket: () => null, standing: () => ({ since: i, urgent: false }) }, () =>
              post(i),
            ),
          );
        }),
      );
      return { ok: statuses.filter((s) => s === 200).length, globalLimited: fake.globalLimited };
    } finally {
      await close();
    }
  }

  it('paced by their shares they stay under it; each at the full rate, they go over it', async () => {
    await db.query('DELETE FROM rate_shares');
    const clock = new ManualClock();
    clock.t = 1_800_000_000_000;
    const a = processOf('a', clock, { n: 80 });
    const b = processOf('b', clock, { n: 80 });
    await settle(a, b);
    expect(a.perSecond() + b.perSecond()).toBeCloseTo(40, 6);
    const shared = await run([() => a.perSecond(), () => b.perSecond()], 40);
    expect(shared).toEqual({ ok: 80, globalLimited: 0 });
    // Without the shared limiter two unsharded processes each pace at the whole budget, and the
    // token goes over its limit. At a fifth of the scale (8 each against 10), so that even a loaded
    // machine sends fast enough to show it.
    const alone = await run([() => 8, () => 8], 30, 10);
    expect(alone.globalLimited).toBeGreaterThan(0);
    await a.close();
    await b.close();
  });
});

/** Renews two processes in turn until their smoothed demands have settled. */
async function settle(a: RateShare, b: RateShare): Promise<void> {
  for (let i = 0; i < 40; i++) {
    await a.renew();
    await b.renew();
  }
}
