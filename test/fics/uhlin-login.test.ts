// The FICS 1.6.2 lineage (uhlin/fics): its real login replayed by the fake FICS, then its stub
// `iset` and one input line read per wake-up. No session line ends that login: the first prompt
// does; a guest keeps the name it typed.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FICS_FIXTURES } from '../support/fixtures.js';
import { poolOn, startFake } from './harness.js';

// Recorded on loopback like the other transcripts (test/fixtures/fics/extra-captures/uhlin_login).
const CAPTURE = `${FICS_FIXTURES}extra-captures/uhlin_login/`;
const loginReplay = (() => {
  const sent = readFileSync(`${CAPTURE}login.sent.jsonl`, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { raw_offset: number });
  // The name exchange and the return; the capture's third line is its first command.
  return {
    raw: readFileSync(`${CAPTURE}login.raw`),
    offsets: sent.map((s) => s.raw_offset),
    name: 'GuestGUHH',
  };
})();

describe('a FICS 1.6.2-lineage server (uhlin_login capture)', () => {
  it('logs in without a session line, typing a guest name of its own, and asks no ivariable twice', async () => {
    const fake = await startFake({ dialect: 'uhlin', loginReplay, lineIntervalMs: 20 });
    const h = poolOn(fake, { loginTimeoutMs: 5_000 });
    await h.pool.start();
    const login = fake.received.filter((r) => r.phase === 'login').map((r) => r.line);
    // The banner asks for "a unique ID": not the literal "guest", which a second login would share.
    expect(login).toHaveLength(2);
    expect(login[0]).toMatch(/^Guest[A-Z]{4}$/);
    expect(login[1]).toBe('');
    const logged = h.logger.records.find((r) => r.message === 'logged in to FICS')?.fields;
    expect(logged).toMatchObject({ handle: 'GuestGUHH', guest: true });
    // A command answered after the settings proves every setting was read before it.
    expect(await h.pool.listGames()).toEqual([]);
    // `com_iset: block 1` says the server has no ivariables: none of the others is asked.
    expect(fake.commands()).toEqual([
      'iset block 1',
      'set style 12',
      'set seek 0',
      'set kibitz 1',
      'set interface Kibitz 0.1.0',
      'games',
    ]);
  });

  it('remembers the refused ivariables: a reconnect does not ask again', async () => {
    const fake = await startFake({ dialect: 'uhlin', loginReplay, lineIntervalMs: 5 });
    const h = poolOn(fake, { loginTimeoutMs: 5_000 });
    await h.pool.start();
    await h.pool.listGames();
    fake.drop();
    await fake.waitFor(() => fake.loggedIn().length === 1 && fake.commands(2).length > 0, 'the second login');
    await h.pool.listGames();
    expect(fake.commands(2)).toEqual([
      'set style 12',
      'set seek 0',
      'set kibitz 1',
      'set interface Kibitz 0.1.0',
      'games',
    ]);
  });
});

describe('a FICS 1.6.2-lineage server (the fake, no capture)', () => {
  it('types another name when the server says the one typed is taken', async () => {
    // The capture's guest is logged in already: the fake refuses a second one of that name.
    const fake = await startFake({ dialect: 'uhlin' });
    const h = poolOn(fake, { random: sequence([0, 0, 0, 0, 0.99, 0.99, 0.99, 0.99]) });
    const other = poolOn(fake, { random: sequence([0, 0, 0, 0]) });
    await other.pool.start();
    await h.pool.start();
    const names = fake.received.filter((r) => r.phase === 'login' && r.line !== '').map((r) => r.line);
    expect(names).toEqual(['GuestAAAA', 'GuestAAAA', 'GuestZZZZ']);
    expect(h.logger.records.find((r) => r.message === 'logged in to FICS')?.fields).toMatchObject({
      handle: 'GuestZZZZ',
    });
  });
});

/** A random source returning `values` in turn, then repeating the last. */
function sequence(values: number[]): () => number {
  let i = 0;
  return () => values[Math.min(i++, values.length - 1)]!;
}
