import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IN_MEMORY, migrate, migrations, openStorage } from '../../src/storage/index.js';
import type { Migration, NewLivePost, Storage } from '../../src/storage/index.js';

let dir: string;
let opened: Storage[];
let clock: number;

function open(
  path = join(dir, 'data', 'kibitz.db'),
  extra: { migrations?: readonly Migration[] } = {},
): Storage {
  const result = openStorage(path, { now: () => clock, ...extra });
  if (!result.ok) throw new Error(result.error);
  opened.push(result.storage);
  return result.storage;
}

const game12: NewLivePost = {
  guildId: '100000000000000001',
  channelId: '200000000000000001',
  game: 12,
  gameKey: '12:Alice:Bob:1700000000',
  white: 'Alice',
  black: 'Bob',
  options: { flip: false, thread: true },
  requestedBy: '300000000000000001',
};

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kibitz-storage-'));
  opened = [];
  clock = 1_700_000_000_000;
});

afterEach(() => {
  for (const storage of opened) storage.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('openStorage', () => {
  it('creates the folder and a WAL database at the latest schema version', () => {
    const path = join(dir, 'nested', 'deeper', 'kibitz.db');
    const storage = open(path);
    expect(existsSync(path)).toBe(true);
    expect(storage.schemaVersion).toBe(migrations.length);
    storage.close();
    const raw = new BetterSqlite3(path, { readonly: true });
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(raw.pragma('user_version', { simple: true })).toBe(migrations.length);
    raw.close();
  });

  it('accepts :memory:', () => {
    const storage = open(IN_MEMORY);
    expect(storage.follows.add({ guildId: 'g', channelId: 'c', handle: 'Alice', createdBy: 'u' }).added).toBe(
      true,
    );
  });

  it('refuses a database written by a newer schema, as a value', () => {
    const path = join(dir, 'future.db');
    const raw = new BetterSqlite3(path);
    raw.pragma(`user_version = ${migrations.length + 5}`);
    raw.close();
    const result = openStorage(path);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(/newer version/);
  });

  it('reports a path it cannot create, as a value', () => {
    const blocker = join(dir, 'file');
    open(blocker).close(); // a file where a folder would have to be
    const result = openStorage(join(blocker, 'sub', 'kibitz.db'));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(/cannot open the database/);
  });
});

describe('openStorage checks the database before the bot starts', () => {
  it('refuses a damaged file with what to do', () => {
    const path = join(dir, 'kibitz.db');
    const storage = open(path);
    for (let i = 0; i < 50; i++) storage.livePosts.create({ ...game12, channelId: `2000000000000${i}` });
    storage.close();
    // The last page (an index or table page) overwritten; the header and schema still read.
    const bytes = readFileSync(path);
    const pageSize = bytes.readUInt16BE(16);
    bytes.fill(0x5a, bytes.length - pageSize + 8);
    writeFileSync(path, bytes);
    const result = openStorage(path);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatch(
      new RegExp(
        `^cannot use the database ${path}: it (is damaged|cannot be read whole) \\(.+\\)\\. Restore a backup, or move the file away to start with an empty one\\.$`,
      ),
    );
  });

  it('refuses a database it cannot write to (another program holds it locked)', () => {
    const path = join(dir, 'kibitz.db');
    open(path).close();
    const other = new BetterSqlite3(path);
    other.exec('BEGIN EXCLUSIVE');
    try {
      const result = openStorage(path);
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error).toBe(
        `cannot use the database ${path}: it cannot be written (database is locked). Check the file's and its folder's permissions and the free disk space, and that no other program holds the database.`,
      );
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    expect(openStorage(path).ok).toBe(true);
  }, 20_000);
});

describe('migrate', () => {
  it('applies only the migrations not yet applied, in order, and records the version', () => {
    const db = new BetterSqlite3(join(dir, 'm.db'));
    const ran: string[] = [];
    const list: Migration[] = [
      { description: 'one', up: (d) => (ran.push('one'), d.exec('CREATE TABLE a (x)')) },
      { description: 'two', up: (d) => (ran.push('two'), d.exec('CREATE TABLE b (y)')) },
    ];
    expect(migrate(db, list.slice(0, 1))).toEqual({ ok: true, from: 0, to: 1 });
    expect(migrate(db, list)).toEqual({ ok: true, from: 1, to: 2 });
    expect(migrate(db, list)).toEqual({ ok: true, from: 2, to: 2 });
    expect(ran).toEqual(['one', 'two']);
    db.close();
  });

  it('rolls a failing migration back and keeps the previous version', () => {
    const db = new BetterSqlite3(join(dir, 'm.db'));
    const list: Migration[] = [
      { description: 'fine', up: (d) => d.exec('CREATE TABLE a (x)') },
      {
        description: 'broken',
        up: (d) => {
          d.exec('CREATE TABLE half_done (x)');
          d.exec('THIS IS NOT SQL');
        },
      },
    ];
    const result = migrate(db, list);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(/migration 2 \(broken\) failed/);
    expect(db.pragma('user_version', { simple: true })).toBe(1);
    expect(db.prepare(`SELECT name FROM sqlite_master WHERE name = 'half_done'`).get()).toBeUndefined();
    db.close();
  });

  it('upgrades a database made by an older release, keeping its rows', () => {
    const path = join(dir, 'old.db');
    const v1 = open(path);
    v1.follows.add({ guildId: 'g', channelId: 'c', handle: 'Alice', createdBy: 'u' });
    v1.close();
    const next: Migration = {
      description: 'add a column',
      up: (d) => d.exec('ALTER TABLE follows ADD COLUMN note TEXT'),
    };
    const v2 = open(path, { migrations: [...migrations, next] });
    expect(v2.schemaVersion).toBe(migrations.length + 1);
    expect(v2.follows.listForChannel('c').map((f) => f.handle)).toEqual(['Alice']);
  });
});

describe('live posts', () => {
  it('creates a post without a message, then records the message, flip, touch and end', () => {
    const storage = open();
    const created = storage.livePosts.create(game12);
    expect(created.ok).toBe(true);
    if (!created.ok) return;
    const post = created.post;
    expect(post).toMatchObject({
      ...game12,
      messageId: null,
      messageChannelId: null,
      threadId: null,
      state: 'live',
      createdAt: clock,
      updatedAt: clock,
    });

    clock += 1000;
    expect(
      storage.livePosts.setMessage(post.id, { messageChannelId: '400', messageId: '500', threadId: '400' }),
    ).toBe(true);
    clock += 1000;
    expect(storage.livePosts.setFlip(post.id, true)).toBe(true);
    clock += 1000;
    expect(storage.livePosts.touch(post.id)).toBe(true);
    expect(storage.livePosts.get(post.id)).toMatchObject({
      messageChannelId: '400',
      messageId: '500',
      threadId: '400',
      options: { flip: true, thread: true },
      createdAt: 1_700_000_000_000,
      updatedAt: clock,
    });

    expect(storage.livePosts.end(post.id, 'ended')).toBe(true);
    expect(storage.livePosts.get(post.id)?.state).toBe('ended');
    expect(storage.livePosts.listLive()).toEqual([]);
    expect(storage.livePosts.setFlip(9999, true)).toBe(false);
    expect(storage.livePosts.get(9999)).toBeNull();
  });

  it('refuses the same game twice in one channel while live, but not once it ended', () => {
    const storage = open();
    const first = storage.livePosts.create(game12);
    const again = storage.livePosts.create(game12);
    expect(again.ok).toBe(false);
    if (!first.ok || again.ok) return;
    expect(again.existing.id).toBe(first.post.id);

    // Same number, other players: a different game (FICS reuses numbers).
    const reused = storage.livePosts.create({
      ...game12,
      gameKey: '12:Carol:Dave:1700000500',
      white: 'Carol',
    });
    expect(reused.ok).toBe(true);
    // Same game in another channel is fine.
    expect(storage.livePosts.create({ ...game12, channelId: '200000000000000002' }).ok).toBe(true);

    storage.livePosts.end(first.post.id, 'ended_offline');
    expect(storage.livePosts.create(game12).ok).toBe(true);
  });

  it('lists and counts live posts by guild and by game number, and deletes', () => {
    const storage = open();
    const a = storage.livePosts.create(game12);
    const b = storage.livePosts.create({ ...game12, channelId: 'c2', game: 40, gameKey: '40:x' });
    const other = storage.livePosts.create({ ...game12, guildId: 'g2', channelId: 'c3' });
    if (!a.ok || !b.ok || !other.ok) throw new Error('setup failed');
    expect(storage.livePosts.countLiveInGuild(game12.guildId)).toBe(2);
    expect(storage.livePosts.listLiveInGuild(game12.guildId).map((p) => p.id)).toEqual([
      a.post.id,
      b.post.id,
    ]);
    expect(storage.livePosts.listLiveByGame(12).map((p) => p.id)).toEqual([a.post.id, other.post.id]);
    expect(storage.livePosts.findLive('c2', '40:x')?.id).toBe(b.post.id);
    expect(storage.livePosts.findLive('c2', '12:nope')).toBeNull();
    expect(storage.livePosts.delete(b.post.id)).toBe(true);
    expect(storage.livePosts.delete(b.post.id)).toBe(false);
    expect(storage.livePosts.countLiveInGuild(game12.guildId)).toBe(1);
  });

  it('survives a restart: live posts are there to resume after reopening the file', () => {
    const path = join(dir, 'restart.db');
    const before = open(path);
    const created = before.livePosts.create(game12);
    if (!created.ok) throw new Error('setup failed');
    before.livePosts.setMessage(created.post.id, { messageChannelId: game12.channelId, messageId: '777' });
    before.close();

    const after = open(path);
    const live = after.livePosts.listLive();
    expect(live).toHaveLength(1);
    expect(live[0]).toMatchObject({ id: created.post.id, messageId: '777', gameKey: game12.gameKey });
  });
});

describe('follows', () => {
  it('adds once per channel and handle, ignoring case, lists and removes', () => {
    const storage = open();
    const added = storage.follows.add({ guildId: 'g', channelId: 'c1', handle: 'Alice', createdBy: 'u1' });
    expect(added).toMatchObject({
      added: true,
      follow: { handle: 'Alice', createdBy: 'u1', createdAt: clock },
    });
    const twice = storage.follows.add({ guildId: 'g', channelId: 'c1', handle: 'ALICE', createdBy: 'u2' });
    expect(twice).toMatchObject({ added: false, follow: { handle: 'Alice', createdBy: 'u1' } });
    storage.follows.add({ guildId: 'g', channelId: 'c2', handle: 'alice', createdBy: 'u2' });
    storage.follows.add({ guildId: 'g', channelId: 'c1', handle: 'Bob', createdBy: 'u1' });
    storage.follows.add({ guildId: 'h', channelId: 'c9', handle: 'Carol', createdBy: 'u3' });

    expect(storage.follows.listForChannel('c1').map((f) => f.handle)).toEqual(['Alice', 'Bob']);
    expect(storage.follows.listForGuild('g')).toHaveLength(3);
    expect(storage.follows.listForHandle('aLiCe').map((f) => f.channelId)).toEqual(['c1', 'c2']);
    expect(storage.follows.handles().map((h) => h.toLowerCase())).toEqual(['alice', 'bob', 'carol']);

    expect(storage.follows.remove('c1', 'alice')).toBe(true);
    expect(storage.follows.remove('c1', 'alice')).toBe(false);
    expect(storage.follows.listForHandle('Alice').map((f) => f.channelId)).toEqual(['c2']);
  });

  it('survives a restart', () => {
    const path = join(dir, 'follows.db');
    open(path).follows.add({ guildId: 'g', channelId: 'c1', handle: 'Alice', createdBy: 'u1' });
    opened.pop()?.close();
    expect(
      open(path)
        .follows.listForChannel('c1')
        .map((f) => f.handle),
    ).toEqual(['Alice']);
  });
});

describe('guild settings', () => {
  it('defaults to nulls, updates fields, falls back to the configured cap, and persists', () => {
    const path = join(dir, 'settings.db');
    const storage = open(path);
    expect(storage.guildSettings.get('g')).toEqual({ guildId: 'g', maxLiveGames: null });
    expect(storage.guildSettings.maxLiveGames('g', 10)).toBe(10);
    expect(storage.guildSettings.update('g', { maxLiveGames: 3 })).toEqual({ guildId: 'g', maxLiveGames: 3 });
    expect(storage.guildSettings.maxLiveGames('g', 10)).toBe(3);
    expect(storage.guildSettings.update('g', {})).toEqual({ guildId: 'g', maxLiveGames: 3 });
    storage.close();

    const reopened = open(path);
    expect(reopened.guildSettings.get('g').maxLiveGames).toBe(3);
    expect(reopened.guildSettings.update('g', { maxLiveGames: null }).maxLiveGames).toBeNull();
    expect(reopened.guildSettings.maxLiveGames('g', 7)).toBe(7);
    expect(() => reopened.guildSettings.update('g', { maxLiveGames: 0 })).toThrow(/CHECK/);
  });
});

describe('finished games', () => {
  const pgn =
    '[Event "FICS rated blitz game"]\n[White "Alice"]\n[Black "Bob"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n';

  it('saves, replaces by key, queries by number and player, prunes, and persists', () => {
    const path = join(dir, 'games.db');
    const storage = open(path);
    const base = {
      game: 12,
      white: 'Alice',
      black: 'Bob',
      pgn,
      result: '1-0' as const,
      reason: 'Bob checkmated',
    };
    storage.finishedGames.save({ ...base, gameKey: 'k1', endedAt: 1000 });
    storage.finishedGames.save({
      ...base,
      gameKey: 'k2',
      white: 'Carol',
      black: 'Alice',
      result: '1/2-1/2',
      endedAt: 2000,
    });
    storage.finishedGames.save({
      ...base,
      gameKey: 'k3',
      game: 40,
      white: 'Dave',
      black: 'Erin',
      endedAt: 3000,
    });
    storage.finishedGames.save({ ...base, gameKey: 'k1', reason: null, endedAt: 1500 });

    expect(storage.finishedGames.get('k1')).toEqual({ ...base, gameKey: 'k1', reason: null, endedAt: 1500 });
    expect(storage.finishedGames.get('nope')).toBeNull();
    expect(storage.finishedGames.recent().map((g) => g.gameKey)).toEqual(['k3', 'k2', 'k1']);
    expect(storage.finishedGames.recent({ game: 12 }).map((g) => g.gameKey)).toEqual(['k2', 'k1']);
    expect(storage.finishedGames.recent({ player: 'alice' }).map((g) => g.gameKey)).toEqual(['k2', 'k1']);
    expect(
      storage.finishedGames.recent({ player: 'ALICE', game: 12, limit: 1 }).map((g) => g.gameKey),
    ).toEqual(['k2']);
    storage.close();

    const reopened = open(path);
    expect(reopened.finishedGames.get('k3')?.pgn).toBe(pgn);
    expect(reopened.finishedGames.prune(2000)).toBe(1);
    expect(reopened.finishedGames.recent().map((g) => g.gameKey)).toEqual(['k3', 'k2']);
  });
});
