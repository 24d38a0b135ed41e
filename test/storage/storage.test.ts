// The repositories against both stores (backends.ts): every behaviour the bot relies on, the
// same on SQLite and on PostgreSQL; then what only one of them has (a file, a server).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IN_MEMORY, migrateSqlite, migrations, openStorage } from '../../src/storage/index.js';
import type { Migration, NewLivePost, Storage, StorageOptions } from '../../src/storage/index.js';
import { createLogger } from '../../src/log.js';
import { backends, postgresBackend, postgresUrl, query, sqliteBackend, writeBehind } from './backends.js';
import { gameId } from '../support/fics-values.js';

let opened: Storage[];
let clock: number;

beforeEach(() => {
  opened = [];
  clock = 1_700_000_000_000;
});

afterEach(async () => {
  for (const storage of opened) await storage.close();
});

async function openAt(
  where: string,
  extra: Pick<StorageOptions, 'migrations' | 'logger'> = {},
): Promise<Storage> {
  const result = await openStorage(where, { now: () => clock, ...extra });
  if (!result.ok) throw new Error(result.error);
  opened.push(result.value);
  return result.value;
}

const game12: NewLivePost = {
  guildId: '100000000000000001',
  channelId: '200000000000000001',
  game: gameId(12),
  gameKey: '12:Alice:Bob:1700000000',
  white: 'Alice',
  black: 'Bob',
  options: { flip: false, thread: true },
  requestedBy: '300000000000000001',
};

/** A migration of test tables, written for both dialects. */
const table = (name: string, sql = `CREATE TABLE ${name} (x INTEGER)`): Migration => ({
  description: name,
  sqlite: sql,
  postgres: sql,
});

for (const backend of backends) {
  describe(backend.name, () => {
    afterAll(() => backend.cleanUp());

    /** Opens the database at `where`, a fresh one when omitted. */
    const open = async (
      where?: string,
      extra: Pick<StorageOptions, 'migrations' | 'logger'> = {},
    ): Promise<Storage> => openAt(where ?? (await backend.fresh()), extra);

    describe('migrations', () => {
      it('apply at open up to the latest schema version, once each, in order', async () => {
        const where = await backend.fresh();
        const v1 = await open(where, { migrations: [...migrations, table('a')] });
        expect(v1.schemaVersion).toBe(migrations.length + 1);
        await v1.close();
        const v2 = await open(where, { migrations: [...migrations, table('a'), table('b')] });
        expect(v2.schemaVersion).toBe(migrations.length + 2);
        await v2.close();
        // Run again, 'a' would fail (the table exists): nothing runs twice.
        const v3 = await open(where, { migrations: [...migrations, table('a'), table('b')] });
        expect(v3.schemaVersion).toBe(migrations.length + 2);
        expect(await backend.tables(where)).toEqual(expect.arrayContaining(['a', 'b']));
      });

      it('roll a failing migration back and keep the previous version', async () => {
        const where = await backend.fresh();
        const broken: Migration = {
          description: 'broken',
          sqlite: 'CREATE TABLE half_done (x INTEGER); THIS IS NOT SQL',
          postgres: 'CREATE TABLE half_done (x INTEGER); THIS IS NOT SQL',
        };
        const result = await openStorage(where, { migrations: [...migrations, table('a'), broken] });
        expect(result.ok).toBe(false);
        if (!result.ok)
          expect(result.error).toMatch(new RegExp(`migration ${migrations.length + 2} \\(broken\\) failed`));
        expect(await backend.tables(where)).not.toContain('half_done');
        const kept = await open(where, { migrations: [...migrations, table('a')] });
        expect(kept.schemaVersion).toBe(migrations.length + 1);
      });

      it('upgrade a database made by an older release, keeping its rows', async () => {
        const where = await backend.fresh();
        const v1 = await open(where);
        await v1.follows.add({ guildId: 'g', channelId: 'c', handle: 'Alice', createdBy: 'u' });
        await v1.close();
        const next = table('note', 'ALTER TABLE follows ADD COLUMN note TEXT');
        const v2 = await open(where, { migrations: [...migrations, next] });
        expect(v2.schemaVersion).toBe(migrations.length + 1);
        expect((await v2.follows.listForChannel('c')).map((f) => f.handle)).toEqual(['Alice']);
      });

      it('refuse a database written by a newer schema, as a value', async () => {
        const where = await backend.fresh();
        await (await open(where)).close();
        const result = await openStorage(where, { migrations: migrations.slice(0, -1) });
        expect(result.ok).toBe(false);
        if (!result.ok)
          expect(result.error).toMatch(
            new RegExp(
              `schema version ${migrations.length} but this Kibitz knows only ${migrations.length - 1}.*newer version`,
            ),
          );
      });
    });

    describe('live posts', () => {
      it('creates a post without a message, then records the message, touch and end', async () => {
        const storage = await open();
        const created = await storage.livePosts.create(game12);
        expect(created.ok).toBe(true);
        if (!created.ok) return;
        const post = created.value;
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
          await storage.livePosts.setMessage(post.id, {
            messageChannelId: '400',
            messageId: '500',
            threadId: '400',
          }),
        ).toBe(true);
        clock += 1000;
        expect(await storage.livePosts.touch(post.id)).toBe(true);
        expect(await storage.livePosts.get(post.id)).toMatchObject({
          messageChannelId: '400',
          messageId: '500',
          threadId: '400',
          options: { flip: false, thread: true },
          createdAt: 1_700_000_000_000,
          updatedAt: clock,
        });

        expect(await storage.livePosts.end(post.id, 'ended')).toBe(true);
        expect((await storage.livePosts.get(post.id))?.state).toBe('ended');
        expect(await storage.livePosts.listLive()).toEqual([]);
        expect(await storage.livePosts.touch(9999)).toBe(false);
        expect(await storage.livePosts.get(9999)).toBeNull();
      });

      it('refuses the same game twice in one channel while live, but not once it ended', async () => {
        const storage = await open();
        const first = await storage.livePosts.create(game12);
        const again = await storage.livePosts.create(game12);
        expect(again.ok).toBe(false);
        if (!first.ok || again.ok) return;
        expect(again.error.existing.id).toBe(first.value.id);

        // Same number, other players: a different game (FICS reuses numbers).
        const reused = await storage.livePosts.create({
          ...game12,
          gameKey: '12:Carol:Dave:1700000500',
          white: 'Carol',
        });
        expect(reused.ok).toBe(true);
        // Same game in another channel is fine.
        expect((await storage.livePosts.create({ ...game12, channelId: '200000000000000002' })).ok).toBe(
          true,
        );

        await storage.livePosts.end(first.value.id, 'ended_offline');
        expect((await storage.livePosts.create(game12)).ok).toBe(true);
      });

      it('lists and counts live posts by guild and by game number, and deletes', async () => {
        const storage = await open();
        const a = await storage.livePosts.create(game12);
        const b = await storage.livePosts.create({
          ...game12,
          channelId: 'c2',
          game: gameId(40),
          gameKey: '40:x',
        });
        const other = await storage.livePosts.create({ ...game12, guildId: 'g2', channelId: 'c3' });
        if (!a.ok || !b.ok || !other.ok) throw new Error('setup failed');
        expect(await storage.livePosts.countLiveInGuild(game12.guildId)).toBe(2);
        expect((await storage.livePosts.listLiveInGuild(game12.guildId)).map((p) => p.id)).toEqual([
          a.value.id,
          b.value.id,
        ]);
        expect((await storage.livePosts.listLiveByGame(gameId(12))).map((p) => p.id)).toEqual([
          a.value.id,
          other.value.id,
        ]);
        expect((await storage.livePosts.findLive('c2', '40:x'))?.id).toBe(b.value.id);
        expect(await storage.livePosts.findLive('c2', '12:nope')).toBeNull();
        expect(await storage.livePosts.delete(b.value.id)).toBe(true);
        expect(await storage.livePosts.delete(b.value.id)).toBe(false);
        expect(await storage.livePosts.countLiveInGuild(game12.guildId)).toBe(1);
      });

      it('survives a restart: live posts are there to resume after reopening the file', async () => {
        const where = await backend.fresh();
        const before = await open(where);
        const created = await before.livePosts.create(game12);
        if (!created.ok) throw new Error('setup failed');
        await before.livePosts.setMessage(created.value.id, {
          messageChannelId: game12.channelId,
          messageId: '777',
        });
        await before.close();

        const after = await open(where);
        const live = await after.livePosts.listLive();
        expect(live).toHaveLength(1);
        expect(live[0]).toMatchObject({ id: created.value.id, messageId: '777', gameKey: game12.gameKey });
      });

      it('keeps whether the message shows a partner board; a post stored before migration 6 does not know', async () => {
        const where = await backend.fresh();
        // A post stored by the release before: its row has no pair.
        await (await open(where, { migrations: migrations.slice(0, 5) })).close();
        await writeBehind(
          where,
          `INSERT INTO live_posts (guild_id, channel_id, game_number, game_key, white, black, flip, thread,
             requested_by, state, created_at, updated_at)
           VALUES ('g', 'c', 7, '7:A:B', 'A', 'B', 0, 0, 'u', 'live', 1, 1)`,
        );
        const storage = await open(where);
        const [old] = await storage.livePosts.listLive();
        expect(old!.options).toEqual({ flip: false, thread: false });
        const created = await storage.livePosts.create(game12);
        if (!created.ok) throw new Error('setup failed');
        expect(created.value.options.pair).toBe(false);
        expect(await storage.livePosts.setPair(created.value.id, true)).toBe(true);
        expect((await storage.livePosts.get(created.value.id))?.options.pair).toBe(true);
        await storage.close();

        const reopened = await open(where);
        const pairs = (await reopened.livePosts.listLive()).map((post) => post.options.pair);
        expect(pairs).toEqual([undefined, true]);
      });
    });

    describe('rows whose game number is not a game id', () => {
      it('are left out, and logged once per kind of row however often they are read', async () => {
        const where = await backend.fresh();
        await (await open(where)).close();
        // Two bad rows of each kind (a database edited by hand): 0, and one past every source's range.
        const rows = (values: (game: number) => string) => [0, 2_100_000_000].map(values).join(', ');
        await writeBehind(
          where,
          `INSERT INTO live_posts (guild_id, channel_id, game_number, game_key, white, black, flip, thread,
             requested_by, state, created_at, updated_at)
           VALUES ${rows((n) => `('g', 'c', ${n}, '${n}:A:B', 'A', 'B', 0, 0, 'u', 'live', 1, 1)`)};
           INSERT INTO finished_games (game_key, game_number, white, black, pgn, result, reason, ended_at)
           VALUES ${rows((n) => `('${n}:A:B', ${n}, 'A', 'B', '*', '*', NULL, 1)`)};
           INSERT INTO club_games (guild_id, channel_id, game_key, game_number, white, black, result,
             started_at, ended_at)
           VALUES ${rows((n) => `('g', 'c', '${n}:A:B', ${n}, 'A', 'B', '1-0', 1, 2)`)}`,
        );
        const lines: string[] = [];
        const logger = createLogger({
          level: 'info',
          destination: { write: (line) => void lines.push(line) },
        });
        const storage = await open(where, { logger });
        for (let tick = 0; tick < 3; tick++) {
          expect(await storage.livePosts.listLive()).toEqual([]);
          expect(await storage.livePosts.get(1)).toBeNull();
          expect(await storage.finishedGames.recent()).toEqual([]);
          expect(await storage.clubs.results('g', 0)).toEqual([]);
        }
        const logged = lines.map(
          (line) => JSON.parse(line) as { msg: string; rows: string; gameNumber: string },
        );
        expect(logged.map(({ rows, gameNumber }) => ({ rows, gameNumber }))).toEqual([
          { rows: 'live post', gameNumber: '0' },
          { rows: 'finished game', gameNumber: '2100000000' },
          { rows: 'club game', gameNumber: '2100000000' },
        ]);
        for (const { msg } of logged) expect(msg).toMatch(/left out: its game number is not a game id/);
      });
    });

    describe('follows', () => {
      it('adds once per channel and handle, ignoring case, lists and removes', async () => {
        const storage = await open();
        const added = await storage.follows.add({
          guildId: 'g',
          channelId: 'c1',
          handle: 'Alice',
          createdBy: 'u1',
        });
        expect(added).toMatchObject({
          added: true,
          follow: { handle: 'Alice', createdBy: 'u1', createdAt: clock },
        });
        const twice = await storage.follows.add({
          guildId: 'g',
          channelId: 'c1',
          handle: 'ALICE',
          createdBy: 'u2',
        });
        expect(twice).toMatchObject({ added: false, follow: { handle: 'Alice', createdBy: 'u1' } });
        await storage.follows.add({ guildId: 'g', channelId: 'c2', handle: 'alice', createdBy: 'u2' });
        await storage.follows.add({ guildId: 'g', channelId: 'c1', handle: 'Bob', createdBy: 'u1' });
        await storage.follows.add({ guildId: 'h', channelId: 'c9', handle: 'Carol', createdBy: 'u3' });

        expect((await storage.follows.listForChannel('c1')).map((f) => f.handle)).toEqual(['Alice', 'Bob']);
        expect(await storage.follows.listForGuild('g')).toHaveLength(3);
        expect((await storage.follows.listForHandle('aLiCe')).map((f) => f.channelId)).toEqual(['c1', 'c2']);
        expect((await storage.follows.handles()).map((h) => h.toLowerCase())).toEqual([
          'alice',
          'bob',
          'carol',
        ]);

        expect(await storage.follows.remove('c1', 'alice')).toBe(true);
        expect(await storage.follows.remove('c1', 'alice')).toBe(false);
        expect((await storage.follows.listForHandle('Alice')).map((f) => f.channelId)).toEqual(['c2']);
      });

      it('survives a restart', async () => {
        const where = await backend.fresh();
        await (
          await open(where)
        ).follows.add({ guildId: 'g', channelId: 'c1', handle: 'Alice', createdBy: 'u1' });
        await opened.pop()?.close();
        expect((await (await open(where)).follows.listForChannel('c1')).map((f) => f.handle)).toEqual([
          'Alice',
        ]);
      });
    });

    describe('guild settings', () => {
      it('defaults to nulls, updates fields, falls back to the configured cap, and persists', async () => {
        const where = await backend.fresh();
        const storage = await open(where);
        expect(await storage.guildSettings.get('g')).toEqual({
          guildId: 'g',
          maxLiveGames: null,
          theme: null,
          kibitz: null,
        });
        expect(await storage.guildSettings.maxLiveGames('g', 10)).toBe(10);
        expect(await storage.guildSettings.update('g', { maxLiveGames: 3 })).toEqual({
          guildId: 'g',
          maxLiveGames: 3,
          theme: null,
          kibitz: null,
        });
        expect(await storage.guildSettings.maxLiveGames('g', 10)).toBe(3);
        // The same cap, from memory, for the FICS pool's shares.
        expect(storage.interest.maxLiveGames('g', 10)).toBe(3);
        expect(storage.interest.maxLiveGames('other', 10)).toBe(10);
        expect(await storage.guildSettings.update('g', {})).toEqual({
          guildId: 'g',
          maxLiveGames: 3,
          theme: null,
          kibitz: null,
        });
        await storage.close();

        const reopened = await open(where);
        expect((await reopened.guildSettings.get('g')).maxLiveGames).toBe(3);
        expect((await reopened.guildSettings.update('g', { maxLiveGames: null })).maxLiveGames).toBeNull();
        expect(await reopened.guildSettings.maxLiveGames('g', 7)).toBe(7);
        expect(reopened.interest.maxLiveGames('g', 7)).toBe(7);
        await expect(reopened.guildSettings.update('g', { maxLiveGames: 0 })).rejects.toThrow(/check/i);
      });
    });

    describe('finished games', () => {
      const pgn =
        '[Event "FICS rated blitz game"]\n[White "Alice"]\n[Black "Bob"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n';

      it('saves, replaces by key, queries by number and player, prunes, and persists', async () => {
        const where = await backend.fresh();
        const storage = await open(where);
        const base = {
          game: gameId(12),
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
          game: gameId(40),
          white: 'Dave',
          black: 'Erin',
          endedAt: 3000,
        });
        storage.finishedGames.save({ ...base, gameKey: 'k1', reason: null, endedAt: 1500 });
        // Queued (writes.ts): stored in order once the database takes them.
        await storage.writes.idle();

        expect(await storage.finishedGames.get('k1')).toEqual({
          ...base,
          gameKey: 'k1',
          reason: null,
          endedAt: 1500,
        });
        expect(await storage.finishedGames.get('nope')).toBeNull();
        expect((await storage.finishedGames.recent()).map((g) => g.gameKey)).toEqual(['k3', 'k2', 'k1']);
        expect((await storage.finishedGames.recent({ game: gameId(12) })).map((g) => g.gameKey)).toEqual([
          'k2',
          'k1',
        ]);
        expect((await storage.finishedGames.recent({ player: 'alice' })).map((g) => g.gameKey)).toEqual([
          'k2',
          'k1',
        ]);
        expect(
          (await storage.finishedGames.recent({ player: 'ALICE', game: gameId(12), limit: 1 })).map(
            (g) => g.gameKey,
          ),
        ).toEqual(['k2']);
        await storage.close();

        const reopened = await open(where);
        expect((await reopened.finishedGames.get('k3'))?.pgn).toBe(pgn);
        expect(await reopened.finishedGames.prune(2000)).toBe(1);
        expect((await reopened.finishedGames.recent()).map((g) => g.gameKey)).toEqual(['k3', 'k2']);
      });
    });
  });
}

describe('sqlite only', () => {
  const files = sqliteBackend();
  afterAll(() => files.cleanUp());

  it('creates the folder and a WAL database at the latest schema version', async () => {
    const path = join(await files.fresh(), '..', 'nested', 'deeper', 'kibitz.db');
    const storage = await openAt(path);
    expect(storage.schemaVersion).toBe(migrations.length);
    await storage.close();
    const raw = new BetterSqlite3(path, { readonly: true });
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(raw.pragma('user_version', { simple: true })).toBe(migrations.length);
    raw.close();
  });

  it('accepts :memory:', async () => {
    const storage = await openAt(IN_MEMORY);
    const added = await storage.follows.add({
      guildId: 'g',
      channelId: 'c',
      handle: 'Alice',
      createdBy: 'u',
    });
    expect(added.added).toBe(true);
  });

  it('reports a path it cannot create, as a value', async () => {
    const blocker = await files.fresh();
    await (await openAt(blocker)).close(); // a file where a folder would have to be
    const result = await openStorage(join(blocker, 'sub', 'kibitz.db'));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(/cannot open the database/);
  });

  it('migrateSqlite records the version in PRAGMA user_version', async () => {
    const db = new BetterSqlite3(await files.fresh().then((p) => join(p, '..', '..', 'm.db')));
    expect(migrateSqlite(db, [table('a')])).toEqual({ ok: true, value: { from: 0, to: 1 } });
    expect(db.pragma('user_version', { simple: true })).toBe(1);
    db.close();
  });

  it('refuses a damaged file with what to do', async () => {
    const path = await files.fresh();
    const storage = await openAt(path);
    for (let i = 0; i < 50; i++)
      await storage.livePosts.create({ ...game12, channelId: `2000000000000${i}` });
    await storage.close();
    // The last page (an index or table page) overwritten; the header and schema still read.
    const bytes = readFileSync(path);
    const pageSize = bytes.readUInt16BE(16);
    bytes.fill(0x5a, bytes.length - pageSize + 8);
    writeFileSync(path, bytes);
    const result = await openStorage(path);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatch(
      new RegExp(
        `^cannot use the database ${path}: it (is damaged|cannot be read whole) \\(.+\\)\\. Restore a backup, or move the file away to start with an empty one\\.$`,
      ),
    );
  });

  it('refuses a database it cannot write to (another program holds it locked)', async () => {
    const path = await files.fresh();
    await (await openAt(path)).close();
    const other = new BetterSqlite3(path);
    other.exec('BEGIN EXCLUSIVE');
    try {
      // Not the bot's 5 s of patience (SQLITE_BUSY_MS): the lock is held for the whole test.
      const result = await openStorage(path, { busyTimeoutMs: 50 });
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error).toBe(
        `cannot use the database ${path}: it cannot be written (database is locked). Check the file's and its folder's permissions and the free disk space, and that no other program holds the database.`,
      );
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    expect((await openStorage(path)).ok).toBe(true);
  });
});

describe('postgres only', () => {
  const server = postgresBackend();

  it('is chosen by a postgres:// or postgresql:// URL, and logs the URL without its password', async () => {
    const where = await server.fresh();
    expect(where).toMatch(/^postgres:\/\//);
    const storage = await openAt(where.replace(/^postgres:/, 'postgresql:'));
    expect(storage.path).toMatch(/^postgresql:\/\/kibitz:\*\*\*@127\.0\.0\.1:\d+\/kibitz_/);
    expect(await server.tables(where)).toEqual(expect.arrayContaining(['live_posts', 'schema_version']));
    const [row] = await query<{ version: number }>(where, 'SELECT version FROM schema_version');
    expect(row?.version).toBe(migrations.length);
  });

  it('reports a server it cannot reach, as a value', async () => {
    const url = new URL(postgresUrl());
    url.port = '1';
    const result = await openStorage(url.toString());
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.error).toMatch(
        /^cannot open the database postgres:\/\/kibitz:\*\*\*@127\.0\.0\.1:1\/postgres: .*ECONNREFUSED/,
      );
  });

  it('migrates once when several machines open a new database at the same moment', async () => {
    const where = await server.fresh();
    const all = await Promise.all([openAt(where), openAt(where), openAt(where)]);
    expect(all.map((s) => s.schemaVersion)).toEqual([
      migrations.length,
      migrations.length,
      migrations.length,
    ]);
    expect(await query(where, 'SELECT version FROM schema_version')).toEqual([
      { version: migrations.length },
    ]);
  });

  it('keeps two adds of one follow at the same moment to one row', async () => {
    const storage = await openAt(await server.fresh());
    const follow = { guildId: 'g', channelId: 'c1', handle: 'Alice', createdBy: 'u1' };
    const results = await Promise.all([1, 2, 3, 4].map(() => storage.follows.add(follow)));
    expect(results.filter((r) => r.added)).toHaveLength(1);
    expect(new Set(results.map((r) => r.follow.id)).size).toBe(1);
    const posts = await Promise.all([1, 2, 3].map(() => storage.livePosts.create(game12)));
    expect(posts.filter((r) => r.ok)).toHaveLength(1);
    expect(await storage.livePosts.countLiveInGuild(game12.guildId)).toBe(1);
  });
});
