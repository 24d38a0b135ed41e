import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { FicsLoginError } from '../../src/fics/errors.js';
import { LoginMachine, type Credentials, type LoginStep } from '../../src/fics/login.js';
import { ObserverDecoder } from '../../src/protocol/decode.js';

/** Runs server bytes through the decoder and the machine as the session does, in reads of `size`. */
function run(
  bytes: Uint8Array,
  size: number,
  credentials: Credentials | null = null,
  guestName?: () => string,
): LoginStep[] {
  const decoder = new ObserverDecoder();
  const machine = new LoginMachine(credentials, 'test:5000', guestName);
  const steps: LoginStep[] = [];
  for (let at = 0; at < bytes.length && !machine.done; at += size) {
    for (const item of decoder.push(bytes.subarray(at, at + size))) {
      if (item.kind === 'other' || item.kind === 'undecoded') steps.push(...machine.line(item.line));
    }
    steps.push(...machine.partial(decoder.partial));
    if (!machine.done && decoder.takePrompt()) steps.push(...machine.prompted());
  }
  return steps;
}

const fixture = (name: string): Buffer =>
  readFileSync(new URL(`../fixtures/fics-login/${name}`, import.meta.url));
const text = (s: string): Buffer => Buffer.from(s.replaceAll('\n', '\n\r'), 'latin1');

describe('LoginMachine on real login transcripts', () => {
  for (const [file, handle] of [
    ['lasker-guest.raw', 'GuestLGGH'],
    ['fatics-guest.raw', 'GuestSZHQ'],
  ] as const) {
    it.each([1, 2, 7, 64, 100_000])(`${file}: guest login in reads of %i bytes`, (size) => {
      expect(run(fixture(file), size)).toEqual([
        { type: 'send', text: 'guest', secret: false },
        { type: 'send', text: '', secret: false },
        { type: 'loggedIn', handle, guest: true },
      ]);
    });
  }
});

describe('LoginMachine on a server without the session line (FICS 1.6.2 lineage)', () => {
  const names = (): (() => string) => {
    let n = 0;
    return () => `Guest${'ABCD'[n++]!.repeat(4)}`;
  };
  const banner = 'If you are not a registered player, enter a unique ID to join the server.\nlogin: ';

  it.each([1, 3, 64])('the first prompt after the return ends the login (reads of %i bytes)', (size) => {
    const said = `${banner}\n"GuestAAAA" is not a registered name.\n\nPress return to enter the FICS as "GuestAAAA":\xff\xfc\x01Welcome\n\nfics% `;
    expect(run(text(said), size, null, names())).toEqual([
      { type: 'send', text: 'GuestAAAA', secret: false },
      { type: 'send', text: '', secret: false },
      { type: 'loggedIn', handle: 'GuestAAAA', guest: true },
    ]);
  });

  it('a taken name is followed by another when the server asks again', () => {
    const said = `${banner}\n*** Sorry GuestAAAA is already logged in ***\nlogin: \nPress return to enter the FICS as "GuestBBBB":\n\nfics% `;
    expect(run(text(said), 5, null, names())).toEqual([
      { type: 'send', text: 'GuestAAAA', secret: false },
      { type: 'notice', text: '*** Sorry GuestAAAA is already logged in ***' },
      { type: 'send', text: 'GuestBBBB', secret: false },
      { type: 'send', text: '', secret: false },
      { type: 'loggedIn', handle: 'GuestBBBB', guest: true },
    ]);
  });

  it('a registered login ends at the first prompt after the password', () => {
    const steps = run(text(`${banner}\npassword: \n\nfics% `), 4, { user: 'Kibitzer', password: 'pw' });
    expect(steps[steps.length - 1]).toEqual({ type: 'loggedIn', handle: 'Kibitzer', guest: false });
  });
});

describe('LoginMachine refusals', () => {
  const failure = (steps: LoginStep[]): FicsLoginError => {
    const last = steps[steps.length - 1];
    if (last?.type !== 'failed') throw new Error(`no failure in ${JSON.stringify(steps)}`);
    return last.error;
  };

  it('guest logins switched off: says so and names FICS_USER/FICS_PASSWORD', () => {
    const error = failure(
      run(text('login: \nDue to abuse problems, guest connections have been prevented.\nlogin: '), 3),
    );
    expect(error.code).toBe('guestsDisabled');
    expect(error.permanent).toBe(true);
    expect(error.message).toMatch(/does not accept guest logins.*FICS_USER and FICS_PASSWORD/);
  });

  it('registered login: sends the password as a secret, then fails on "Invalid password"', () => {
    const steps = run(
      text(
        'login: \n"Kibitzer" is a registered name.  If it is yours, type the password.\nIf not, just hit return to try another name.\n\npassword: \n\n**** Invalid password! ****\n\nlogin: ',
      ),
      5,
      { user: 'Kibitzer', password: 'hunter2' },
    );
    expect(steps.slice(0, 2)).toEqual([
      { type: 'send', text: 'Kibitzer', secret: false },
      { type: 'send', text: 'hunter2', secret: true },
    ]);
    const error = failure(steps);
    expect(error.code).toBe('badPassword');
    expect(error.message).toMatch(/rejected the password for FICS_USER "Kibitzer".*Check FICS_PASSWORD/);
    expect(error.message).not.toContain('hunter2');
  });

  it('registered login succeeds with the handle as the server spells it', () => {
    const steps = run(
      text('login: \npassword: \n**** Starting FICS session as KiBitzer(TD) ****\nfics% '),
      4,
      { user: 'kibitzer', password: 'pw' },
    );
    expect(steps[steps.length - 1]).toEqual({ type: 'loggedIn', handle: 'KiBitzer', guest: false });
  });

  it('an unregistered FICS_USER is refused rather than logged in as a guest', () => {
    const error = failure(
      run(text('login: \nPress return to enter the server as "Nobodyhere":'), 6, {
        user: 'Nobodyhere',
        password: 'pw',
      }),
    );
    expect(error.code).toBe('notRegistered');
    expect(error.permanent).toBe(true);
  });

  it.each([
    ['*** Sorry GuestABCD is already logged in ***', 'handleInUse', false],
    ['Sorry, the server is full.  Please try again later.', 'serverFull', false],
    ['Player "Foo" is banned.', 'banned', true],
  ] as const)('%s -> %s', (said, code, permanent) => {
    const error = failure(run(text(`login: \n${said}\n`), 8));
    expect(error.code).toBe(code);
    expect(error.permanent).toBe(permanent);
    expect(error.serverText).toBe(said);
  });

  it('a connection closed mid-login says what was last seen', () => {
    const machine = new LoginMachine(null, 'host:5000');
    machine.line('Some banner');
    const [step] = machine.closed();
    expect(step?.type === 'failed' && step.error.message).toMatch(
      /host:5000 closed the connection.*Some banner/,
    );
  });

  it('a registered handle logged in elsewhere is a notice, not a failure', () => {
    const machine = new LoginMachine({ user: 'Kibitzer', password: 'pw' }, 'h:1');
    expect(machine.line(' **** Kibitzer is already logged in - kicking them out. ****')).toEqual([
      { type: 'notice', text: '**** Kibitzer is already logged in - kicking them out. ****' },
    ]);
  });
});
