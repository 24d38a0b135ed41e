// One bot token's 40 edits a second shared by its processes through the fleet's PostgreSQL (a
// real server, test/support/postgres.ts), on a clock the test holds, under the budget at every
// moment while demand shifts; and two processes paced so staying under the fake Discord's global
// limit for the token, where each alone at the full rate goes over it.
import pg from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  RATE_SHARE_PERIOD_MS,
  RATE_SHARE_SKEW_MS,
  RATE_SHARE_TTL_MS,
  RateShare,
  grantOf,
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

/** A process of the bot: its rate share over its own store row (20: one shard of two). */
function processOf(name: string, clock: ManualClock, waiting: { n: number }, staticShare = 20) {
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

describe('grantOf', () => {
  it('shares the live static shares by demand, never more than the others leave', () => {
    const others = { processes: 1, shares: 20, demand: 10, granted: 12.5 };
    expect(grantOf(30, 20, others, 40)).toBe(27.5);
    // The other still paces at 30: this one waits for it to slow down.
    expect(grantOf(30, 20, { ...others, granted: 30 }, 40)).toBe(10);
    expect(grantOf(30, 20, { ...others, granted: 45 }, 40)).toBe(0);
    // Alone (the other's row expired): its own static share, not the budget.
    expect(grantOf(30, 20, { processes: 0, shares: 0, demand: 0, granted: 0 }, 40)).toBe(20);
    // Static shares over the budget (unsharded processes): the budget still bounds the sum.
    expect(grantOf(30, 40, { processes: 1, shares: 40, demand: 30, granted: 20 }, 40)).toBe(20);
  });
});

describe('rate shares on PostgreSQL', () => {
  it('two processes share 40 by demand; one that stops renewing takes its static share away', async () => {
    await db.query('DELETE FROM rate_shares');
    const clock = new ManualClock();
    clock.t = 1_800_000_000_000;
    const busy = { n: 60 };
    const quiet = { n: 20 };
    const a = processOf('a', clock, busy);
    const b = processOf('b', clock, quiet);
    // Nothing before its first grant (a process it replaces may still lend its share).
    expect(a.perSecond()).toBe(0);
    // Alone: its static share.
    await a.renew();
    expect(a.perSecond()).toBe(20);
    // b: 10 smoothed of 20 waiting, a: 30 of 60 → 5 + 30 x 10 / 40, which a left free.
    await b.renew();
    expect(b.perSecond()).toBe(12.5);
    // Renewed in turn, the smoothed demands settle (60 and 20) and the parts add up to 40.
    await settle(a, b);
    expect(a.perSecond()).toBeCloseTo(27.5, 6);
    expect(b.perSecond()).toBeCloseTo(12.5, 6);
    // b stops renewing (killed or cut off). Until its row expires a keeps to what b holds;
    // after, a has its own static share, not b's: b, if alive, may still send at its own.
    clock.t += RATE_SHARE_TTL_MS - 1;
    await a.renew();
    expect(a.perSecond()).toBeCloseTo(27.5, 6);
    expect(b.perSecond()).toBeCloseTo(12.5, 6);
    clock.t += 2;
    await a.renew();
    expect(a.perSecond()).toBe(20);
    // b back: it takes at least its floor at once.
    await b.renew();
    expect(b.perSecond()).toBeGreaterThanOrEqual(5);
    expect(a.perSecond() + b.perSecond()).toBeLessThanOrEqual(40);
    await a.close();
    await b.close();
    expect((await db.query('SELECT holder FROM rate_shares')).rows).toEqual([]);
  });

  it('stays under the budget at every moment while demand shifts, in any order of renewals', async () => {
    await db.query('DELETE FROM rate_shares');
    const clock = new ManualClock();
    clock.t = 1_800_000_000_000;
    const waiting = [{ n: 80 }, { n: 5 }];
    const [a, b] = [processOf('a', clock, waiting[0]!), processOf('b', clock, waiting[1]!)];
    const sums: number[] = [];
    const sum = () => a!.perSecond() + b!.perSecond();
    await settle(a!, b!);
    // The demand swings from one to the other and back; each renews in its turn, b first here
    // (it sees a's old demand), then in the other order, then both at once.
    for (let swing = 0; swing < 6; swing++) {
      [waiting[0]!.n, waiting[1]!.n] = [waiting[1]!.n, waiting[0]!.n];
      const [first, second] = swing % 2 === 0 ? [b!, a!] : [a!, b!];
      for (let round = 0; round < 3; round++) {
        clock.t += RATE_SHARE_PERIOD_MS;
        await first.renew();
        sums.push(sum());
        await second.renew();
        sums.push(sum());
      }
      clock.t += RATE_SHARE_PERIOD_MS;
      await Promise.all([a!.renew().then(() => sums.push(sum())), b!.renew().then(() => sums.push(sum()))]);
    }
    expect(Math.max(...sums)).toBeLessThanOrEqual(40 + 1e-9);
    // And the shares did follow the demand (not both held at their floors).
    expect(Math.max(a!.perSecond(), b!.perSecond())).toBeGreaterThan(20);
    await a!.close();
    await b!.close();
  });

  it('takes a larger grant only after it is written, and slows down before a smaller one is', async () => {
    await db.query('DELETE FROM rate_shares');
    const clock = new ManualClock();
    clock.t = 1_800_000_000_000;
    const seen: { during: number; granted: number }[] = [];
    let share: RateShare | null = null;
    // Between a grant's choice and its commit the row still says the previous grant, which the
    // others go by; from the commit on, the new one: the pace must be under both.
    const store = watchedStore('seen', (_now, granted) => seen.push({ during: share!.perSecond(), granted }));
    const waiting = { n: 80 };
    share = new RateShare({ store, budget: 40, staticShare: 20, waiting: () => waiting.n, clock, logger });
    const other = processOf('other', clock, { n: 40 });
    await share.renew();
    await other.renew();
    await share.renew();
    waiting.n = 0;
    await share.renew();
    await share.renew();
    expect(seen.length).toBe(4);
    seen.forEach((each, i) =>
      expect(each.during).toBeLessThanOrEqual(Math.min(each.granted, seen[i - 1]?.granted ?? 0)),
    );
    // It did grow and shrink.
    const [alone, grown, , shrunk] = seen.map((each) => each.granted);
    expect(alone).toBe(20);
    expect(grown).toBe(25);
    expect(shrunk).toBeLessThan(grown!);
    await share.close();
    await other.close();
  });

  it('falls to its static share when its grant is not renewed in time, before the others drop its row', async () => {
    await db.query('DELETE FROM rate_shares');
    const clock = new ManualClock();
    clock.t = 1_800_000_000_000;
    const a = processOf('a', clock, { n: 80 });
    const b = processOf('b', clock, { n: 0 });
    await settle(a, b);
    expect(a.perSecond()).toBeGreaterThan(20);
    // a stops renewing (its renewals hang); its grant holds until the skew margin before its row expires.
    clock.t += RATE_SHARE_TTL_MS - RATE_SHARE_SKEW_MS - 1;
    expect(a.perSecond()).toBeGreaterThan(20);
    clock.t += 1;
    expect(a.perSecond()).toBe(20);
    await a.close();
    await b.close();
  });

  it('renews on its clock every period', async () => {
    await db.query('DELETE FROM rate_shares');
    const clock = new ManualClock();
    clock.t = 1_800_000_000_000;
    const renewedAt: number[] = [];
    const store = watchedStore('timer', (now) => renewedAt.push(now));
    const share = new RateShare({ store, budget: 40, staticShare: 10, waiting: () => 5, clock, logger });
    share.start();
    expect(renewedAt).toEqual([]);
    await clock.advance(0);
    // Alone in the fleet: its static share, once the database has answered (the next renewal is
    // timed from then).
    await waitFor(() => share.perSecond() === 10, 'the first answer');
    expect(renewedAt).toHaveLength(1);
    await clock.advance(RATE_SHARE_PERIOD_MS - 1);
    expect(renewedAt).toHaveLength(1);
    await clock.advance(1);
    await waitFor(() => renewedAt.length === 2, 'the second renewal');
    expect(renewedAt[1]! - renewedAt[0]!).toBe(RATE_SHARE_PERIOD_MS);
    await share.close();
    expect((await db.query('SELECT holder FROM rate_shares')).rows).toEqual([]);
  });

  it('keeps at most its static share while the database cannot be reached, and says so once', async () => {
    const records: string[] = [];
    let reachable = true;
    const granted = { n: 30 };
    const store = {
      shareRate: () =>
        reachable ? Promise.resolve(granted.n) : Promise.reject(new Error('connection refused')),
      dropDemand: () => Promise.resolve(),
    };
    const clock = new ManualClock();
    const share = new RateShare({
      store,
      budget: 40,
      staticShare: 20,
      waiting: () => 3,
      clock,
      logger: pino({ level: 'info' }, { write: (line: string) => void records.push(line) }),
    });
    await share.renew();
    expect(share.perSecond()).toBe(30);
    reachable = false;
    clock.t += RATE_SHARE_PERIOD_MS;
    await share.renew();
    clock.t += RATE_SHARE_PERIOD_MS;
    await share.renew();
    expect(share.perSecond()).toBe(20);
    expect(records.filter((r) => r.includes('database unreachable'))).toHaveLength(1);
    // A grant under the static share is kept while cut off: the others may have taken the rest.
    reachable = true;
    granted.n = 8;
    await share.renew();
    reachable = false;
    clock.t += RATE_SHARE_TTL_MS;
    await share.renew();
    expect(share.perSecond()).toBe(8);
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

/** A store of the real PostgreSQL that tells `seen` each grant chosen, before its commit. */
function watchedStore(holder: string, seen: (now: number, granted: number) => void) {
  const real = new FleetStore(db, '127.0.0.1:5000', holder);
  return {
    shareRate: (...[mine, now, ms, decide]: Parameters<FleetStore['shareRate']>) =>
      real.shareRate(mine, now, ms, (others) => {
        const granted = decide(others);
        seen(now, granted);
        return granted;
      }),
    dropDemand: () => real.dropDemand(),
  };
}

/** Renews two processes in turn until their smoothed demands have settled. */
async function settle(a: RateShare, b: RateShare): Promise<void> {
  for (let i = 0; i < 40; i++) {
    await a.renew();
    await b.renew();
  }
}
