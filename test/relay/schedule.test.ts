import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { LatestWins, RetryLater } from '../../src/relay/latest-wins.js';
import {
  EditScheduler,
  NO_PACE_RECHECK_MS,
  type EditPace,
  type TurnRequest,
} from '../../src/relay/schedule.js';
import { ManualClock } from '../support/manual-clock.js';

const pace = (over: Partial<EditPace> = {}): EditPace => ({
  perSecond: 5,
  burst: 1,
  perBucket: { limit: 100, windowMs: 1000 },
  inFlight: 100,
  ...over,
});

interface Job {
  name: string;
  bucket?: string;
  since: number;
  urgent?: boolean;
}

/** Queues jobs; each records its name and the time it ran. */
function queue(scheduler: EditScheduler, clock: ManualClock, jobs: Job[]) {
  const ran: { name: string; at: number }[] = [];
  const done = jobs.map((job) =>
    scheduler.run(
      {
        bucket: () => job.bucket ?? null,
        standing: () => ({ since: job.since, urgent: job.urgent ?? false }),
      },
      () => {
        ran.push({ name: job.name, at: clock.now() });
        return Promise.resolve(job.name);
      },
    ),
  );
  return { ran, done };
}

describe('EditScheduler', () => {
  it('leaves no listener on a signal shared by many turns (a post has one for all its edits)', async () => {
    const clock = new ManualClock();
    const scheduler = new EditScheduler(pace({ perSecond: 1000, burst: 100 }), clock);
    const shared = new AbortController();
    for (let turn = 0; turn < 20; turn++) {
      const ran = await scheduler.run(
        { bucket: () => null, standing: () => ({ since: 0, urgent: false }), signal: shared.signal },
        () => Promise.resolve(turn),
      );
      expect(ran).toBe(turn);
    }
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(0);
  });

  it('gives turns at the paced rate, never faster', async () => {
    const clock = new ManualClock();
    const scheduler = new EditScheduler(pace({ perSecond: 5 }), clock);
    const jobs = Array.from({ length: 20 }, (_, i) => ({ name: `p${i}`, since: i }));
    const { ran } = queue(scheduler, clock, jobs);
    await clock.advance(1000);
    // At 0, 200, 400, 600, 800 and 1000 ms.
    expect(ran.map((r) => r.at)).toEqual([0, 200, 400, 600, 800, 1000]);
    await clock.advance(2000);
    expect(ran).toHaveLength(16);
    expect(scheduler.figures()).toMatchObject({ turns: 16, waiting: 4 });
  });

  it('lets a burst go at once after a quiet moment, then keeps the rate', async () => {
    const clock = new ManualClock();
    const scheduler = new EditScheduler(pace({ perSecond: 10, burst: 3 }), clock);
    const { ran } = queue(
      scheduler,
      clock,
      Array.from({ length: 6 }, (_, i) => ({ name: `p${i}`, since: i })),
    );
    await clock.advance(300);
    expect(ran.map((r) => r.at)).toEqual([0, 0, 0, 100, 200, 300]);
  });

  it('gives the next turn to an urgent waiter, then to the oldest unshown update', async () => {
    const clock = new ManualClock();
    clock.t = 1000;
    const scheduler = new EditScheduler(pace({ perSecond: 1 }), clock);
    // The first takes the turn at once; the others wait and are ordered among themselves.
    const { ran } = queue(scheduler, clock, [
      { name: 'first', since: 990 },
      { name: 'move, newest', since: 900 },
      { name: 'move, oldest', since: 100 },
      { name: 'final', since: 999, urgent: true },
      { name: 'move, middle', since: 500 },
      { name: 'answer', since: 995, urgent: true },
    ]);
    await clock.advance(5000);
    expect(ran.map((r) => r.name)).toEqual([
      'first',
      // Both urgent: the older first.
      'answer',
      'final',
      'move, oldest',
      'move, middle',
      'move, newest',
    ]);
    expect(scheduler.figures().urgentTurns).toBe(2);
  });

  it('reads a waiter standing again when told: one that turns urgent while it waits goes next', async () => {
    const clock = new ManualClock();
    const scheduler = new EditScheduler(pace({ perSecond: 1 }), clock);
    const standing = { since: 50, urgent: false };
    const order: string[] = [];
    const add = (name: string, get: () => { since: number; urgent: boolean }) => {
      const request = { bucket: () => null, standing: get };
      void scheduler.run(request, async () => void order.push(name));
      return request;
    };
    add('first', () => ({ since: 0, urgent: false }));
    add('old move', () => ({ since: 10, urgent: false }));
    const ending = add('ends now', () => standing);
    standing.urgent = true;
    scheduler.restand(ending);
    await clock.advance(3000);
    expect(order).toEqual(['first', 'ends now', 'old move']);
  });

  it('costs a turn a few looks at its waiters, not one at each of them (1,000 posts waiting)', async () => {
    const clock = new ManualClock();
    const scheduler = new EditScheduler(pace({ perSecond: 10 }), clock);
    let looks = 0;
    const ran: number[] = [];
    // A permutation of 0..999 as the times of their oldest unshown update.
    const since = Array.from({ length: 1000 }, (_, i) => (i * 919) % 1000);
    for (let i = 0; i < 1000; i++)
      void scheduler.run(
        {
          bucket: () => (looks++, `channel ${i}`),
          standing: () => (looks++, { since: since[i]!, urgent: false }),
        },
        async () => void ran.push(since[i]!),
      );
    looks = 0;
    await clock.advance(1000);
    // At 0, 100, ..., 1000 ms, oldest first.
    expect(ran).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    // One pass over the waiters per turn would be 1,000 looks a turn.
    expect(looks).toBeLessThan(11 * 5);
  });

  it("keeps each bucket's limit, giving the turn meanwhile to another bucket's waiter", async () => {
    const clock = new ManualClock();
    const scheduler = new EditScheduler(
      pace({ perSecond: 100, perBucket: { limit: 2, windowMs: 1000 } }),
      clock,
    );
    const { ran } = queue(scheduler, clock, [
      { name: 'a1', bucket: 'a', since: 0 },
      { name: 'a2', bucket: 'a', since: 1 },
      { name: 'a3', bucket: 'a', since: 2 },
      { name: 'b1', bucket: 'b', since: 50 },
    ]);
    await clock.advance(999);
    expect(ran.map((r) => r.name)).toEqual(['a1', 'a2', 'b1']);
    await clock.advance(1);
    expect(ran.at(-1)).toEqual({ name: 'a3', at: 1000 });
  });

  it('holds a bucket for the wait the receiving side asked for', async () => {
    const clock = new ManualClock();
    const scheduler = new EditScheduler(pace({ perSecond: 100 }), clock);
    let refused = true;
    const first = scheduler.run({ bucket: () => 'a', standing: () => ({ since: 0, urgent: false }) }, () =>
      refused ? Promise.reject(new RetryLater(700)) : Promise.resolve(),
    );
    await expect(first).rejects.toBeInstanceOf(RetryLater);
    refused = false;
    const { ran } = queue(scheduler, clock, [
      { name: 'a', bucket: 'a', since: 1 },
      { name: 'b', bucket: 'b', since: 2 },
    ]);
    await clock.advance(699);
    expect(ran.map((r) => r.name)).toEqual(['b']);
    await clock.advance(1);
    expect(ran.map((r) => r.name)).toEqual(['b', 'a']);
    expect(scheduler.figures().heldBack).toBe(1);
  });

  it('gives no turn while the receiving side refuses everything', async () => {
    const clock = new ManualClock();
    let pausedUntil = 500;
    const scheduler = new EditScheduler(
      pace({ perSecond: 100, pausedForMs: () => Math.max(0, pausedUntil - clock.now()) }),
      clock,
    );
    const { ran } = queue(scheduler, clock, [{ name: 'a', since: 0 }]);
    await clock.advance(499);
    expect(ran).toEqual([]);
    pausedUntil = 0;
    await clock.advance(1);
    expect(ran).toEqual([{ name: 'a', at: 500 }]);
  });

  it('gives no turn at a pace of 0, and looks at the pace again until it has one', async () => {
    const clock = new ManualClock();
    let perSecond = 0;
    const scheduler = new EditScheduler(
      {
        ...pace(),
        get perSecond() {
          return perSecond;
        },
      },
      clock,
    );
    const { ran } = queue(scheduler, clock, [
      { name: 'a', since: 0 },
      { name: 'b', since: 1 },
    ]);
    await clock.advance(1000);
    expect(ran).toEqual([]);
    perSecond = 10;
    await clock.advance(NO_PACE_RECHECK_MS);
    expect(ran.map((r) => r.name)).toEqual(['a']);
    await clock.advance(100);
    expect(ran.map((r) => r.name)).toEqual(['a', 'b']);
  });

  it('keeps at most `inFlight` sends waiting for their answer', async () => {
    const clock = new ManualClock();
    const scheduler = new EditScheduler(pace({ perSecond: 1000, inFlight: 2 }), clock);
    const answers: (() => void)[] = [];
    let started = 0;
    for (let i = 0; i < 4; i++)
      void scheduler.run({ bucket: () => null, standing: () => ({ since: i, urgent: false }) }, () => {
        started++;
        return new Promise<void>((resolve) => answers.push(resolve));
      });
    await clock.advance(100);
    expect(started).toBe(2);
    answers[0]!();
    await clock.advance(10);
    expect(started).toBe(3);
  });

  it('drops a waiter whose signal aborts: its task never runs', async () => {
    const clock = new ManualClock();
    const scheduler = new EditScheduler(pace({ perSecond: 1 }), clock);
    const gone = new AbortController();
    const { ran } = queue(scheduler, clock, [{ name: 'first', since: 0 }]);
    let cancelledRan = false;
    const cancelled = scheduler.run(
      { bucket: () => null, standing: () => ({ since: 1, urgent: true }), signal: gone.signal },
      async () => void (cancelledRan = true),
    );
    queue(scheduler, clock, [{ name: 'after', since: 2 }]).ran.forEach((r) => ran.push(r));
    gone.abort();
    await expect(cancelled).resolves.toBeUndefined();
    await clock.advance(1000);
    expect(cancelledRan).toBe(false);
    expect(scheduler.figures()).toMatchObject({ turns: 2, waiting: 0 });
  });
});

describe('LatestWins in a scheduler', () => {
  it('takes the value in its turn (one send per turn), with the age of its oldest unshown value', async () => {
    const clock = new ManualClock();
    const scheduler = new EditScheduler(pace({ perSecond: 1 }), clock);
    const sent: number[] = [];
    const seen: { since: number; urgent: boolean }[] = [];
    const make = () =>
      new LatestWins<number>(
        {
          send: async (value) => void sent.push(value),
          urgent: (value) => value < 0,
          turn: (standing, go, signal) => {
            seen.push(standing());
            return scheduler.run({ bucket: () => null, standing, signal }, go);
          },
        },
        clock,
      );
    const busy = make();
    busy.push(100); // takes the first turn at 0
    clock.t = 10;
    const post = make();
    post.push(1); // waits, since 10
    clock.t = 20;
    post.push(2);
    post.push(3);
    await clock.advance(1000);
    // The newest value went, in the one turn the post got.
    expect(sent).toEqual([100, 3]);
    expect(seen.at(-1)).toEqual({ since: 10, urgent: false });
    expect(post.skipped).toBe(2);
    post.push(4);
    post.push(-1); // a final edit: urgent from now until it is sent
    busy.push(101);
    await clock.advance(1000);
    expect(sent).toEqual([100, 3, -1]);
    await clock.advance(1000);
    expect(sent).toEqual([100, 3, -1, 101]);
  });

  it('moves a waiting post up when its newest value is urgent (a final edit behind older moves)', async () => {
    const clock = new ManualClock();
    const scheduler = new EditScheduler(pace({ perSecond: 1 }), clock);
    const sent: number[] = [];
    const make = () => {
      let request: TurnRequest | null = null;
      return new LatestWins<number>(
        {
          send: async (value) => void sent.push(value),
          urgent: (value) => value < 0,
          hasten: () => {
            if (request !== null) scheduler.restand(request);
          },
          turn: (standing, go, signal) =>
            scheduler.run((request = { bucket: () => null, standing, signal }), go),
        },
        clock,
      );
    };
    const [busy, older, post] = [make(), make(), make()];
    busy.push(100); // takes the first turn at 0
    clock.t = 10;
    older.push(200);
    clock.t = 20;
    post.push(1);
    post.push(-1); // the game ended while its post waited behind an older move
    await clock.advance(1000);
    expect(sent).toEqual([100, -1]);
    await clock.advance(1000);
    expect(sent).toEqual([100, -1, 200]);
  });

  it('close() takes a waiting value out of the scheduler: it is never sent', async () => {
    const clock = new ManualClock();
    const scheduler = new EditScheduler(pace({ perSecond: 1 }), clock);
    const sent: number[] = [];
    const make = () =>
      new LatestWins<number>(
        {
          send: async (value) => void sent.push(value),
          turn: (standing, go, signal) => scheduler.run({ bucket: () => null, standing, signal }, go),
        },
        clock,
      );
    const first = make();
    const second = make();
    first.push(1);
    second.push(2);
    second.close();
    await second.idle();
    await clock.advance(2000);
    expect(sent).toEqual([1]);
    expect(scheduler.figures().waiting).toBe(0);
  });
});
