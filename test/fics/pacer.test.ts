// Commands go out at a bounded pace per connection, in order, with a bounded queue: the pacer on
// a fake clock, then a pool against the fake FICS server on the same clock.
import { describe, expect, it } from 'vitest';
import { FicsCommandError } from '../../src/fics/errors.js';
import { CommandPacer } from '../../src/fics/pacer.js';
import { FakeClock } from '../fake-fics/clock.js';
import { poolOn, startFake, withoutId } from './harness.js';

describe('CommandPacer', () => {
  it('sends a burst at once, then one command per interval, in order; refuses past its queue', () => {
    const clock = new FakeClock();
    const pacer = new CommandPacer({ burst: 3, perSecond: 10, maxQueued: 2 }, clock);
    const sent: number[] = [];
    const dropped: number[] = [];
    const admitted = [1, 2, 3, 4, 5, 6].map((n) =>
      pacer.admit({ send: () => sent.push(n), drop: () => dropped.push(n) }),
    );
    expect(admitted).toEqual([true, true, true, true, true, false]);
    expect(sent).toEqual([1, 2, 3]);
    clock.advance(99);
    expect(sent).toEqual([1, 2, 3]);
    clock.advance(1);
    expect(sent).toEqual([1, 2, 3, 4]);
    // Room in the queue again.
    expect(pacer.admit({ send: () => sent.push(7), drop: () => dropped.push(7) })).toBe(true);
    clock.advance(100);
    expect(sent).toEqual([1, 2, 3, 4, 5]);
    pacer.close(new Error('closed'));
    clock.advance(1_000);
    expect(sent).toEqual([1, 2, 3, 4, 5]);
    expect(dropped).toEqual([7]);
  });
});

describe('a connection under a flood of requests', () => {
  it('sends a burst, holds the rest to the pace, and refuses what the queue cannot take', async () => {
    const clock = new FakeClock();
    const fake = await startFake({ dialect: 'fatics', clock });
    const h = poolOn(fake, { clock, commandPace: { burst: 20, perSecond: 10, maxQueued: 10 } });
    await h.pool.start();
    await fake.waitFor(() => clock.pending === 1, 'the setup to finish');
    // The setup took 11 of the 20; two seconds later the burst is whole again.
    clock.advance(2_000);
    const games = (): number => fake.commands().filter((c) => withoutId(c) === 'games').length;

    const asks = Array.from({ length: 40 }, () => h.pool.listGames());
    const settled = Promise.allSettled(asks);
    const refused = await Promise.allSettled(asks.slice(30));
    expect(refused.every((r) => r.status === 'rejected')).toBe(true);
    const reason = (refused[0] as PromiseRejectedResult).reason as FicsCommandError;
    expect(reason).toBeInstanceOf(FicsCommandError);
    expect(reason.code).toBe('overloaded');
    expect(reason.message).toBe('Kibitz has 10 commands waiting for FICS already; try again in a moment.');
    // The burst is answered; the queued ten wait for the clock.
    await Promise.all(asks.slice(0, 20));
    expect(games()).toBe(20);
    clock.advance(100);
    await asks[20];
    expect(games()).toBe(21);
    clock.advance(900);
    const all = await settled;
    expect(all.filter((r) => r.status === 'fulfilled')).toHaveLength(30);
    expect(games()).toBe(30);
  });
});
