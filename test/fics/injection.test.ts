// No user text reaches FICS unchecked: whatever a user types where a game number or a handle
// belongs is refused before the socket, and the server receives only the intended commands.
import { describe, expect, it } from 'vitest';
import { FicsInputError } from '../../src/fics/errors.js';
import { FicsPool } from '../../src/fics/pool.js';
import { poolOn, scriptOf, fixture, startFake, withoutId } from './harness.js';
import { gameNumber, handle } from '../support/fics-values.js';

const ATTACKS = [
  'foo\nshout hi',
  'foo\r\nshout hi',
  '1; shout hi',
  '12\r\nquit',
  '12\nquit',
  '12 ; quit',
  '3\u0000quit',
  'abc\u0015',
  'Guest\u00ffABCD',
  '-1',
  '1.5',
  '',
  'a b',
];

describe('user text that could carry a command', () => {
  it.each(['fatics', 'lasker'] as const)(
    '%s: is refused with a typed error and never sent',
    async (dialect) => {
      const fake = await startFake({ dialect });
      const n = fake.addGame(scriptOf(fixture('lasker_flag#0'), { white: 'Alice', black: 'Bob' }));
      fake.addGame(scriptOf(fixture('lasker_flag#0'), { white: 'Carol', black: 'Dave' }));
      const h = poolOn(fake);
      await h.pool.start();
      const setup = fake.commands();

      const tries: Promise<unknown>[] = [];
      // Past the types (as text from anywhere could be): the pool checks every value again.
      for (const input of ATTACKS) {
        tries.push(
          h.pool.observeGame(input as never),
          h.pool.observePlayer(input as never),
          h.pool.unobserve(input as never),
          h.pool.follow(input as never),
          h.pool.unfollow(input as never),
          h.pool.moves(input as never),
          h.pool.refresh(input as never),
          h.pool.listGames({ player: input as never }),
        );
      }
      const outcomes = await Promise.allSettled(tries);
      for (const outcome of outcomes) {
        expect(outcome.status).toBe('rejected');
        if (outcome.status === 'rejected') expect(outcome.reason).toBeInstanceOf(FicsInputError);
      }
      // The intended commands still work, and they are all the server ever got.
      await h.pool.observeGame(gameNumber(n));
      await h.pool.observePlayer(handle('Dave'));
      const sent = (): string[] => fake.commands().slice(setup.length).map(withoutId);
      await fake.waitFor(() => sent().length === 3, 'the two observes');
      // Each observe of a game number brings its move list along.
      expect(sent()).toEqual([`observe ${n}`, `moves ${n}`, 'observe Dave']);
      const everything = fake.received.map((r) => r.line).join('\n');
      expect(everything).not.toMatch(/shout|quit/);
    },
  );

  it('a password or user that could end the login line is refused before connecting', () => {
    expect(() => new FicsPool({ user: 'Kibitzer', password: 'pw\nshout hi' })).toThrow(FicsInputError);
    expect(() => new FicsPool({ user: 'Kib itzer', password: 'pw' })).toThrow(FicsInputError);
    expect(() => new FicsPool({ user: 'Kibitzer' })).toThrow(/go together/);
  });
});
