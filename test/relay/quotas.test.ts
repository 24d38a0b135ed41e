// A guild's cap under a database that answers after a round trip (PostgreSQL): the live posts are
// read, then the decision is taken; nothing that happens in between may let a request through.
import { setImmediate as settled } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { Quotas } from '../../src/relay/quotas.js';
import type { Storage } from '../../src/storage/index.js';

/** A storage whose count of live posts answers when the test says, with what it says. */
function slowCount(): { storage: Storage; answer: (n: number) => Promise<void>; waiting: () => number } {
  const pending: ((n: number) => void)[] = [];
  const storage = {
    guildSettings: { maxLiveGames: (_guildId: string, fallback: number) => Promise.resolve(fallback) },
    livePosts: { countLiveInGuild: () => new Promise<number>((resolve) => pending.push(resolve)) },
  } as unknown as Storage;
  return {
    storage,
    answer: async (n) => {
      await settled();
      const next = pending.shift();
      if (next === undefined) throw new Error('no read is waiting');
      next(n);
      await settled();
    },
    waiting: () => pending.length,
  };
}

describe('Quotas.admit', () => {
  it('lets one of two requests at once through a cap of 1, whichever read answers first', async () => {
    const db = slowCount();
    const quotas = new Quotas(db.storage, 1);
    const first = quotas.admit('g');
    const second = quotas.admit('g');
    await settled();
    // One check at a time: the second has not read yet.
    expect(db.waiting()).toBe(1);
    await db.answer(0);
    await db.answer(0);
    expect([await first, await second].filter((full) => full === null)).toHaveLength(1);
  });

  it('counts a post being recorded while a check reads: as coming, never as neither', async () => {
    const db = slowCount();
    const quotas = new Quotas(db.storage, 1);
    const a = quotas.admit('g');
    await db.answer(0);
    expect(await a).toBeNull();
    // B checks; its read is on its way when A's post is recorded and A gives its place back.
    const b = quotas.admit('g');
    await settled();
    quotas.admitDone('g');
    // The read answers as of before A's post was recorded.
    await db.answer(0);
    expect(await b).toMatch(/limit/);
    // Once A's place went back, a new check reads A's post among the live ones.
    const c = quotas.admit('g');
    await db.answer(1);
    expect(await c).toMatch(/limit/);
  });
});
