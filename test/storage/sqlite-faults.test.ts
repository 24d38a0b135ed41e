// A SQLite file that stops taking writes while the bot has it open: a full disk (a small tmpfs,
// mounted for the test where the process may; a read-only remount is refused while the file is
// open for writing, so the full disk stands for both), and a file deleted or replaced under the bot. Every write that must be answered now
// fails loudly, the queued ones are stored once the file takes writes again, and health() says
// what is wrong.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openStorage, type NewLivePost, type Storage } from '../../src/storage/index.js';
import { gameId } from '../support/fics-values.js';

const post: NewLivePost = {
  guildId: '100000000000000001',
  channelId: '200000000000000001',
  game: gameId(12),
  gameKey: '12:Alice:Bob:1700000000',
  white: 'Alice',
  black: 'Bob',
  options: { flip: false, thread: false },
  requestedBy: '300000000000000001',
};

const follow = {
  guildId: post.guildId,
  channelId: post.channelId,
  handle: 'Alice',
  createdBy: post.requestedBy,
};

/** Retries at once: the test says when the file takes writes again. */
const QUICK = { backoff: { initialMs: 10, maxMs: 50, factor: 2, jitter: 0 }, batchMs: 10 };

let storage: Storage | null = null;
let mounted: string | null = null;
let dir: string | null = null;

afterEach(async () => {
  await storage?.close();
  storage = null;
  if (mounted !== null) execFileSync('umount', [mounted]);
  if (dir !== null) rmSync(dir, { recursive: true, force: true });
  mounted = dir = null;
});

async function open(path: string): Promise<Storage> {
  const result = await openStorage(path, { writes: QUICK });
  if (!result.ok) throw new Error(result.error);
  return (storage = result.value);
}

/** A 2 MiB tmpfs of its own, or null where this process may not mount one. */
function smallFileSystem(): string | null {
  dir = mkdtempSync(join(tmpdir(), 'kibitz-fs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    return null;
  }
  return (mounted = dir);
}

/** Rows of `table` read by a second connection (what a restart would see). */
function rows(path: string, sql: string): unknown[] {
  const db = new BetterSqlite3(path, { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all();
  } finally {
    db.close();
  }
}

const canMount = smallFileSystem() !== null;
if (mounted !== null) execFileSync('umount', [mounted]);
if (dir !== null) rmSync(dir, { recursive: true, force: true });
mounted = dir = null;

describe.runIf(canMount)('a SQLite file on a file system that fails', () => {
  it('full: /follow and a new post throw instead of reporting rows that were never stored', async () => {
    const fs = smallFileSystem()!;
    const path = join(fs, 'kibitz.db');
    const s = await open(path);
    // Every byte left taken: the next write of the WAL has nowhere to go.
    expect(() => writeFileSync(join(fs, 'filler'), Buffer.alloc(4 << 20))).toThrow(/ENOSPC/);

    await expect(s.follows.add(follow)).rejects.toThrow(/full/);
    await expect(s.livePosts.create(post)).rejects.toThrow(/full/);
    await expect(
      s.clubs.recordGame({
        guildId: post.guildId,
        channelId: post.channelId,
        gameKey: post.gameKey,
        game: post.game,
        white: post.white,
        black: post.black,
        postId: null,
        messageChannelId: null,
        messageId: null,
      }),
    ).rejects.toThrow(/full/);
    expect(await s.livePosts.listLive()).toEqual([]);
    expect(await s.health()).toMatchObject({ writable: false, error: expect.stringMatching(/full/) });

    // Room again: the same write goes through.
    unlinkSync(join(fs, 'filler'));
    expect((await s.follows.add(follow)).added).toBe(true);
    expect(rows(path, 'SELECT handle FROM follows')).toEqual([{ handle: 'Alice' }]);
    expect(await s.health()).toEqual({ writable: true, queued: 0, error: null });
  });

  it('full: queued writes wait, in order, and are stored once it takes writes again', async () => {
    const fs = smallFileSystem()!;
    const path = join(fs, 'kibitz.db');
    const s = await open(path);
    const created = await s.livePosts.create(post);
    if (!created.ok) throw new Error('not created');
    const id = created.value.id;
    expect(() => writeFileSync(join(fs, 'filler'), Buffer.alloc(4 << 20))).toThrow(/ENOSPC/);

    await s.livePosts.setMessage(id, { messageChannelId: post.channelId, messageId: '400000000000000001' });
    await s.livePosts.touch(id);
    await s.livePosts.end(id, 'ended');
    s.finishedGames.save({
      gameKey: post.gameKey,
      game: post.game,
      white: post.white,
      black: post.black,
      pgn: '1. e4 1-0',
      result: '1-0',
      reason: 'Bob resigns',
      endedAt: 5,
    });
    // Memory has every change at once: the relay goes on without the database.
    expect(await s.livePosts.listLive()).toEqual([]);
    expect((await s.livePosts.get(id))?.messageId).toBe('400000000000000001');
    const down = await s.health();
    expect(down).toMatchObject({ writable: false, error: expect.stringMatching(/full/) });
    expect(down.queued).toBeGreaterThanOrEqual(4);
    await expect(s.follows.add(follow)).rejects.toThrow(/full/);
    expect(rows(path, 'SELECT state, message_id FROM live_posts')).toEqual([
      { state: 'live', message_id: null },
    ]);

    unlinkSync(join(fs, 'filler'));
    await s.writes.idle();
    expect(rows(path, 'SELECT state, message_id FROM live_posts')).toEqual([
      { state: 'ended', message_id: '400000000000000001' },
    ]);
    expect(rows(path, 'SELECT game_key, result FROM finished_games')).toEqual([
      { game_key: post.gameKey, result: '1-0' },
    ]);
    expect((await s.health()).writable).toBe(true);
  });
});

describe('a SQLite file taken away under the bot', () => {
  it('deleted: health() says so (writes would go to a file no restart sees)', async () => {
    dir = mkdtempSync(join(tmpdir(), 'kibitz-gone-'));
    const path = join(dir, 'kibitz.db');
    const s = await open(path);
    expect(await s.health()).toEqual({ writable: true, queued: 0, error: null });
    for (const file of [path, `${path}-wal`, `${path}-shm`]) rmSync(file, { force: true });
    expect(await s.health()).toEqual({
      writable: false,
      queued: 0,
      error: `the file ${path} was deleted while Kibitz had it open`,
    });
  });

  it('replaced: health() says so', async () => {
    dir = mkdtempSync(join(tmpdir(), 'kibitz-swap-'));
    const path = join(dir, 'kibitz.db');
    const s = await open(path);
    writeFileSync(join(dir, 'other.db'), '');
    renameSync(join(dir, 'other.db'), path);
    expect(await s.health()).toMatchObject({
      writable: false,
      error: `the file ${path} was replaced while Kibitz had it open`,
    });
  });
});
