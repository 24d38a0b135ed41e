// The writes that do not hold the bot up (src/storage/writes.ts), against a database the test
// turns off and on, on the test's clock: queued writes go in order, the head is retried with
// back-off until the database takes it, batched writes keep only the newest per key, and close()
// tries once what is left and logs what it loses.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Writes } from '../../src/storage/writes.js';
import type { Sql, SqlStatement } from '../../src/storage/sql.js';
import type { Logger } from '../../src/log.js';

/** A database that records what it took, and refuses everything while `down`. */
class FakeDatabase {
  down = false;
  readonly taken: string[] = [];
  readonly tries: string[] = [];
  readonly sql: Sql = {
    all: () => Promise.reject(new Error('not used')),
    get: () => Promise.reject(new Error('not used')),
    insert: () => Promise.reject(new Error('not used')),
    run: (sql) => this.#take([sql]).then(() => 1),
    transaction: (statements: readonly SqlStatement[]) =>
      this.#take(statements.map((s) => `${s.sql} ${s.params.join(',')}`)),
  };

  #take(texts: string[]): Promise<void> {
    this.tries.push(...texts);
    if (this.down) return Promise.reject(new Error('connection refused'));
    this.taken.push(...texts);
    return Promise.resolve();
  }
}

const BACKOFF = { initialMs: 100, maxMs: 400, factor: 2, jitter: 0 };

function logger(): { logger: Logger; lines: { level: string; data: unknown; msg: string }[] } {
  const lines: { level: string; data: unknown; msg: string }[] = [];
  const at =
    (level: string) =>
    (data: unknown, msg: string): void =>
      void lines.push({ level, data, msg });
  return {
    logger: {
      error: at('error'),
      warn: at('warn'),
      info: at('info'),
      debug: at('debug'),
    } as unknown as Logger,
    lines,
  };
}

let db: FakeDatabase;

beforeEach(() => {
  vi.useFakeTimers();
  db = new FakeDatabase();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('queued writes', () => {
  it('are written in order, the head retried with back-off until the database takes it', async () => {
    const log = logger();
    const writes = new Writes(db.sql, { backoff: BACKOFF, logger: log.logger });
    db.down = true;
    for (const n of [1, 2, 3]) writes.later(`write ${n}`, () => db.sql.run(`w${n}`));
    await vi.advanceTimersByTimeAsync(0);
    // Only the head is tried while it is refused: its retries at 100, 200, 400, 400 ms.
    expect(db.tries).toEqual(['w1']);
    expect(writes.status()).toEqual({ queued: 3, failing: 'connection refused' });
    await vi.advanceTimersByTimeAsync(99);
    expect(db.tries).toEqual(['w1']);
    await vi.advanceTimersByTimeAsync(1);
    expect(db.tries).toEqual(['w1', 'w1']);
    await vi.advanceTimersByTimeAsync(200 + 400 + 400);
    expect(db.tries).toEqual(['w1', 'w1', 'w1', 'w1', 'w1']);
    // One error for the refused write, not one per try.
    expect(log.lines.filter((l) => l.level === 'error')).toHaveLength(1);
    expect(log.lines[0]!.data).toMatchObject({ what: 'write 1' });

    db.down = false;
    await vi.advanceTimersByTimeAsync(400);
    expect(db.taken).toEqual(['w1', 'w2', 'w3']);
    expect(writes.status()).toEqual({ queued: 0, failing: null });
    await writes.idle();
  });

  it('idle() waits for the queue to be stored, not just tried', async () => {
    const writes = new Writes(db.sql, { backoff: BACKOFF });
    db.down = true;
    writes.later('one', () => db.sql.run('w1'));
    let idle = false;
    void writes.idle().then(() => (idle = true));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(idle).toBe(false);
    db.down = false;
    await vi.advanceTimersByTimeAsync(400);
    expect(idle).toBe(true);
  });

  it('keep at most maxQueued; one more is dropped and logged', async () => {
    const log = logger();
    const writes = new Writes(db.sql, { backoff: BACKOFF, maxQueued: 2, logger: log.logger });
    db.down = true;
    for (const n of [1, 2, 3]) writes.later(`write ${n}`, () => db.sql.run(`w${n}`));
    expect(writes.status().queued).toBe(2);
    expect(log.lines.some((l) => l.msg === 'database write queue full: write dropped')).toBe(true);
  });

  it('close() tries what is left once, and logs each write it loses', async () => {
    const log = logger();
    const writes = new Writes(db.sql, { backoff: BACKOFF, logger: log.logger });
    db.down = true;
    for (const n of [1, 2]) writes.later(`write ${n}`, () => db.sql.run(`w${n}`));
    await vi.advanceTimersByTimeAsync(0);
    await writes.close();
    expect(log.lines.filter((l) => l.msg === 'database write lost at shutdown').map((l) => l.data)).toEqual([
      expect.objectContaining({ what: 'write 1' }),
      expect.objectContaining({ what: 'write 2' }),
    ]);
    // The second was not tried: the first said the database is down.
    expect(db.tries).toEqual(['w1', 'w1']);
  });
});

describe('batched writes', () => {
  it('keep the newest statement per key and go out together after batchMs', async () => {
    const writes = new Writes(db.sql, { backoff: BACKOFF, batchMs: 1_000 });
    writes.batch('touch 1', { sql: 'touch', params: [1, 10] });
    writes.batch('touch 2', { sql: 'touch', params: [2, 10] });
    writes.batch('touch 1', { sql: 'touch', params: [1, 20] });
    await vi.advanceTimersByTimeAsync(999);
    expect(db.tries).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(db.taken).toEqual(['touch 1,20', 'touch 2,10']);
  });

  it('wait behind a refused write, then go with the newest values', async () => {
    const writes = new Writes(db.sql, { backoff: BACKOFF, batchMs: 50 });
    db.down = true;
    writes.later('end', () => db.sql.run('end'));
    writes.batch('touch 1', { sql: 'touch', params: [1, 10] });
    await vi.advanceTimersByTimeAsync(60);
    writes.batch('touch 1', { sql: 'touch', params: [1, 30] });
    await vi.advanceTimersByTimeAsync(60);
    // One batch in the queue however long the outage: it takes what is batched when its turn comes.
    expect(writes.status().queued).toBe(2);
    db.down = false;
    await vi.advanceTimersByTimeAsync(400);
    expect(db.taken).toEqual(['end', 'touch 1,30']);
    expect(writes.status().queued).toBe(0);
  });
});
