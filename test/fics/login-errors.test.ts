// Login failures end `start()` with a typed error a human understands; transient ones are retried.
import { describe, expect, it } from 'vitest';
import { FicsLoginError } from '../../src/fics/errors.js';
import { FicsPool } from '../../src/fics/pool.js';
import { FAST, poolOn, RecordingLogger, startFake } from './harness.js';

describe.each(['fatics', 'lasker'] as const)('%s login failures', (dialect) => {
  it('guest logins refused: a clear error that names FICS_USER, and no retrying', async () => {
    const fake = await startFake({ dialect, guests: false });
    const h = poolOn(fake);
    const error = await h.pool.start().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FicsLoginError);
    expect(error).toMatchObject({ code: 'guestsDisabled', permanent: true });
    expect((error as Error).message).toBe(
      `127.0.0.1:${fake.port} does not accept guest logins right now ("Due to abuse problems, guest connections have been prevented."). Set FICS_USER and FICS_PASSWORD to a registered FICS account.`,
    );
    expect(fake.received.filter((r) => r.line === 'guest')).toHaveLength(1);
    expect(h.pool.status()).toEqual([{ name: 'fics#1', state: 'failed', handle: null, games: [] }]);
  });

  it('a wrong password says so, without the password', async () => {
    const fake = await startFake({ dialect, accounts: { Kibitzer: 'sesame' } });
    const h = poolOn(fake, { user: 'Kibitzer', password: 'open' });
    const error = await h.pool.start().catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'FicsLoginError', code: 'badPassword' });
    expect((error as Error).message).toMatch(
      /rejected the password for FICS_USER "Kibitzer".*Check FICS_PASSWORD/,
    );
    expect(JSON.stringify(h.logger.records)).not.toContain('open"');
  });

  it('a FICS_USER the server does not know is refused, not turned into a guest', async () => {
    const fake = await startFake({ dialect });
    const h = poolOn(fake, { user: 'Nobodyhere', password: 'pw' });
    await expect(h.pool.start()).rejects.toMatchObject({ code: 'notRegistered' });
    expect(fake.loggedIn()).toEqual([]);
  });

  it('a full server is retried, then reported', async () => {
    const fake = await startFake({ dialect, full: true });
    const h = poolOn(fake, { startAttempts: 3 });
    await expect(h.pool.start()).rejects.toMatchObject({ code: 'serverFull' });
    expect(fake.received.filter((r) => r.phase === 'login')).toHaveLength(3);
    expect(h.errors).toHaveLength(3);
  });
});

describe('unreachable server', () => {
  it('gives a message naming the address', async () => {
    const fake = await startFake();
    const port = fake.port;
    await fake.close();
    const pool = new FicsPool({ ...FAST, port, startAttempts: 1 });
    try {
      await expect(pool.start()).rejects.toThrow(`cannot reach FICS at 127.0.0.1:${port}`);
    } finally {
      pool.close();
    }
  });

  it('is logged once per attempt, without a stack: the next delay while it retries, an error when it stops', async () => {
    const fake = await startFake();
    const port = fake.port;
    await fake.close();
    const logger = new RecordingLogger();
    const backoff = { initialMs: 100, maxMs: 400, factor: 2, jitter: 0 };
    const pool = new FicsPool({ ...FAST, port, logger, backoff, startAttempts: 3 });
    pool.on('error', () => undefined);
    try {
      await expect(pool.start()).rejects.toThrow(`cannot reach FICS at 127.0.0.1:${port}`);
    } finally {
      pool.close();
    }
    const failures = logger.records.filter((r) => r.message.startsWith('FICS login failed'));
    expect(failures.map((r) => [r.level, r.message, r.fields.attempt, r.fields.retryInMs])).toEqual([
      ['warn', 'FICS login failed; trying again in 0.2 s', 1, 200],
      ['warn', 'FICS login failed; trying again in 0.4 s', 2, 400],
      ['error', 'FICS login failed; not trying again', undefined, undefined],
    ]);
    expect(JSON.stringify(logger.records)).not.toMatch(/"stack"|\bat \w+ \(/);
  });

  it('a pool closed while it waits to try again logs nothing more, and nothing at error', async () => {
    const fake = await startFake();
    const port = fake.port;
    await fake.close();
    const logger = new RecordingLogger();
    const pool = new FicsPool({
      ...FAST,
      port,
      logger,
      backoff: { initialMs: 60_000, maxMs: 60_000, factor: 1, jitter: 0 },
    });
    pool.on('error', () => undefined);
    const started = pool.start().catch((e: unknown) => e);
    await fake.waitFor(() => logger.records.length > 0, 'the first failed attempt');
    pool.close();
    expect(await started).toMatchObject({ code: 'closed' });
    expect(logger.records.map((r) => [r.level, r.message])).toEqual([
      ['warn', 'FICS login failed; trying again in 60.0 s'],
    ]);
  });
});
