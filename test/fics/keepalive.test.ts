// FICS logs out a login idle for 60 minutes. The connection sends a harmless command before
// that. The clock is fake and shared with the fake server's idle accounting, so an hour passes
// in milliseconds.
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../fake-fics/clock.js';
import { poolOn, startFake, withoutId } from './harness.js';

const MINUTE = 60_000;

describe('keep-alive', () => {
  it.each(['fatics', 'lasker'] as const)(
    '%s: a command goes out after 45 idle minutes and the 60-minute idle logout never comes',
    async (dialect) => {
      const clock = new FakeClock();
      const fake = await startFake({ dialect, clock });
      const h = poolOn(fake, { clock });
      await h.pool.start();
      // Everything sent so far has been answered: only the keep-alive timer waits.
      await fake.waitFor(() => clock.pending === 1, 'the setup to finish');
      const before = fake.commands().length;

      // Three idle stretches: well over two hours logged in.
      for (let i = 1; i <= 3; i++) {
        clock.advance(44 * MINUTE);
        expect(fake.commands()).toHaveLength(before + i - 1);
        clock.advance(1 * MINUTE);
        await fake.waitFor(() => fake.commands().length === before + i, `keep-alive ${i}`);
        const keepAlive = fake.commands()[before + i - 1]!;
        // `$$` would not reset the server's idle timer.
        expect(keepAlive.startsWith('$')).toBe(false);
        expect(withoutId(keepAlive)).toBe('date');
        await fake.waitFor(() => clock.pending === 1, 'the keep-alive answer');
        fake.enforceIdle();
        expect(fake.loggedIn()).toHaveLength(1);
      }
      clock.advance(16 * MINUTE);
      fake.enforceIdle();
      expect(fake.loggedIn()).toHaveLength(1);
      expect(clock.now()).toBeGreaterThan(2 * 60 * MINUTE);
    },
  );

  it('without it (interval above an hour) the server logs the connection out', async () => {
    const clock = new FakeClock();
    const fake = await startFake({ dialect: 'fatics', clock });
    const h = poolOn(fake, { clock, keepAliveMs: 70 * MINUTE });
    await h.pool.start();
    await fake.waitFor(() => clock.pending === 1, 'the setup to finish');
    clock.advance(61 * MINUTE);
    fake.enforceIdle();
    await fake.waitFor(() => fake.loggedIn().length === 0, 'the idle logout');
  });
});
