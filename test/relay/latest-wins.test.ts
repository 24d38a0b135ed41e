import { describe, expect, it } from 'vitest';
import { LatestWins, Refused, RetryLater } from '../../src/relay/latest-wins.js';
import { ManualClock } from '../support/manual-clock.js';

/** A send that completes only when the test says so, recording what was sent. */
function gatedSend() {
  const sent: number[] = [];
  const gates: (() => void)[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const send = (value: number) =>
    new Promise<void>((resolve) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      sent.push(value);
      gates.push(() => {
        inFlight--;
        resolve();
      });
    });
  const release = async () => {
    gates.shift()?.();
    await new Promise((r) => setImmediate(r));
  };
  return { sent, send, release, max: () => maxInFlight };
}

describe('LatestWins', () => {
  it('sends the first value at once, then only the newest of those that came meanwhile', async () => {
    const g = gatedSend();
    const lw = new LatestWins({ send: g.send });
    for (let i = 1; i <= 30; i++) lw.push(i);
    await g.release();
    await g.release();
    await lw.idle();
    expect(g.sent).toEqual([1, 30]);
    expect(lw.skipped).toBe(28);
    expect(g.max()).toBe(1);
  });

  it('always delivers the final value, and nothing after it', async () => {
    const g = gatedSend();
    const lw = new LatestWins({ send: g.send });
    lw.push(1);
    lw.push(2);
    const done = lw.finish(99);
    lw.push(100);
    await g.release();
    await g.release();
    await done;
    expect(g.sent).toEqual([1, 99]);
  });

  it('reports a failed send and goes on with the next value without retrying', async () => {
    const errors: number[] = [];
    const sent: number[] = [];
    const lw = new LatestWins<number>({
      send: async (v) => {
        sent.push(v);
        if (v === 1) throw new Error('500');
      },
      onError: (_e, v) => errors.push(v),
    });
    lw.push(1);
    await lw.idle();
    lw.push(2);
    await lw.idle();
    expect(sent).toEqual([1, 2]);
    expect(errors).toEqual([1]);
  });

  it('waits out a RetryLater, then sends the newest value: the refused one only if nothing came since', async () => {
    const sent: number[] = [];
    let refuse = 1;
    const clock = new ManualClock();
    const lw = new LatestWins<number>(
      {
        send: async (v) => {
          if (refuse-- > 0) throw new RetryLater(20);
          sent.push(v);
        },
      },
      clock,
    );
    lw.push(1);
    lw.push(2); // waits behind 1
    await clock.advance(19);
    expect(sent).toEqual([]);
    await clock.advance(1);
    await lw.idle();
    expect(sent).toEqual([2]);
    refuse = 1;
    lw.push(3);
    await clock.advance(20);
    await lw.idle();
    expect(sent).toEqual([2, 3]);
    expect(lw.skipped).toBe(1);
  });

  it('drops a retry and what is pending when closed', async () => {
    const sent: number[] = [];
    const lw = new LatestWins<number>({
      send: async (v) => {
        if (v === 1) throw new RetryLater(60_000);
        sent.push(v);
      },
    });
    lw.push(1);
    lw.push(2);
    lw.close();
    lw.push(3);
    await lw.idle(); // does not wait the minute
    expect(sent).toEqual([]);
  });
});

describe('LatestWins and a refusal for good', () => {
  it('stops at once: no retry, nothing pending sent, nothing later taken, the owner told once', async () => {
    const sent: number[] = [];
    const refusals: [string, number][] = [];
    const lw = new LatestWins<number>({
      send: async (value) => {
        sent.push(value);
        await Promise.resolve();
        if (value === 2)
          throw new Refused('the board message was deleted', {
            code: 10008,
            tooLarge: false,
            canNotify: true,
          });
      },
      onRefused: (refusal, value) => refusals.push([refusal.reason, value]),
    });
    lw.push(1);
    await lw.idle();
    lw.push(2);
    lw.push(3);
    await lw.idle();
    lw.push(4);
    await lw.finish(5);
    // 2 went out alone (3 came while it was in flight); after its refusal neither 3, 4 nor 5 went.
    expect(sent).toEqual([1, 2]);
    expect(refusals).toEqual([['the board message was deleted', 2]]);
  });
});
