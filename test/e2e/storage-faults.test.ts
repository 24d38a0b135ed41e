// A database that stops taking writes while the bot runs (a read-only remount, a full disk): the
// real bot against the fakes. The tests run as root here, which no file mode keeps from writing,
// so the storage's writes are made to fail the way better-sqlite3 fails on a read-only database:
// with its own SqliteError, code SQLITE_READONLY.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openStorage, type Storage } from '../../src/storage/index.js';
import { World, embedOf, shuffleScript } from './harness.js';
import { gameId } from '../support/fics-values.js';

let world: World | null = null;
let mounted: string | null = null;

afterEach(async () => {
  await world?.close();
  world = null;
  if (mounted !== null) {
    execFileSync('umount', [mounted]);
    rmSync(mounted, { recursive: true, force: true });
  }
  mounted = null;
});

/** A 2 MiB tmpfs of its own, or null where this process may not mount one. */
function smallFileSystem(): string | null {
  const dir = mkdtempSync(join(tmpdir(), 'kibitz-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
  return (mounted = dir);
}

/**
 * Every write the relay makes to live posts and finished games now fails as on a read-only file:
 * a new post at once, the queued writes (src/storage/writes.ts) each time they are tried, until
 * the returned function lets them through.
 */
function refuseWrites(storage: Storage): () => void {
  let refusing = true;
  const refuse = (): Promise<never> =>
    Promise.reject(new BetterSqlite3.SqliteError('attempt to write a readonly database', 'SQLITE_READONLY'));
  (storage.livePosts as unknown as Record<string, unknown>).create = refuse;
  const later = storage.writes.later.bind(storage.writes);
  storage.writes.later = (what, write) => later(what, () => (refusing ? refuse() : write()));
  return () => (refusing = false);
}

describe('a damaged database at start', () => {
  it('stops the bot before it logs in, saying what is wrong and what to do', async () => {
    world = await World.start({ dbFile: true });
    const w = world;
    const made = await openStorage(w.dbPath);
    if (!made.ok) throw new Error(made.error);
    for (let i = 0; i < 50; i++) {
      await made.value.livePosts.create({
        guildId: w.guildId,
        channelId: `20000000000000${String(i).padStart(4, '0')}`,
        game: gameId(12),
        gameKey: '12:Alice:Bob',
        white: 'Alice',
        black: 'Bob',
        options: { flip: false, thread: false },
        requestedBy: '300000000000000001',
      });
    }
    await made.value.close();
    const bytes = readFileSync(w.dbPath);
    const pageSize = bytes.readUInt16BE(16);
    bytes.fill(0x5a, bytes.length - pageSize + 8);
    writeFileSync(w.dbPath, bytes);

    await expect(w.startBot()).rejects.toThrow(
      new RegExp(
        `^cannot use the database ${w.dbPath}: it (is damaged|cannot be read whole) \\(.+\\)\\. Restore a backup`,
      ),
    );
    expect(w.fics.received).toEqual([]);
    expect(w.bot).toBeNull();
  });
});

describe('a database that refuses writes while the bot runs', () => {
  it('/observe says the post could not be recorded, and FICS does not keep the game', async () => {
    world = await World.start({ dbFile: true });
    const w = world;
    const game = w.fics.addGame(shuffleScript(20));
    await w.startBot();
    refuseWrites(w.running.context.storage);

    const reply = await w.command('observe', { game }).reply();
    expect(reply.content).toBe(
      'Kibitz could not record the post in its database, so it does not relay this game. Its operator has to check the database (see the log).',
    );
    await w.fics.waitFor(() => w.fics.observers(game).length === 0, 'the game let go on FICS');
    const sent = w.fics.commands().map((c) => c.replace(/^\d+ /, ''));
    expect(sent.filter((c) => c === `observe ${game}` || c === `unobserve ${game}`)).toEqual([
      `observe ${game}`,
      `unobserve ${game}`,
    ]);
    expect(w.livePosts()).toEqual([]);
    expect(w.logLines.some((l) => l.includes('"what":"record a live post"'))).toBe(true);
  });

  it('the final edit lands, with the PGN, while the finished game cannot be saved; it is saved after', async () => {
    world = await World.start({ dbFile: true });
    const w = world;
    const game = w.fics.addGame(shuffleScript(6, { result: '1/2-1/2', reason: 'Game drawn by repetition' }));
    await w.startBot();
    const reply = await w.command('observe', { game }).reply();
    expect(reply.content).toContain('is live here');
    const post = await w.fake.waitFor(() => w.livePosts()[0], 'the post');

    const storage = w.running.context.storage;
    const allow = refuseWrites(storage);
    w.fics.playAll(game);
    const final = await w.waitForMessage(
      post.id,
      (m) => embedOf(m).footer === '½-½ · Game drawn by repetition',
      'the final edit',
    );
    expect(final.attachments.map((a) => a.filename)).toContain(`game-${game}.pgn`);
    const pgn = final.attachments.find((a) => a.filename === `game-${game}.pgn`)!.bytes.toString();
    expect(pgn).toContain('[Result "1/2-1/2"]');
    await w.fake.waitFor(
      () => (w.logLines.some((l) => l.includes('database write failed: retrying')) ? true : undefined),
      'the refused write logged',
      5_000,
    );
    expect(await storage.finishedGames.recent({ game: gameId(game) })).toEqual([]);

    allow();
    await storage.writes.idle();
    expect((await storage.finishedGames.recent({ game: gameId(game) })).map((g) => g.result)).toEqual([
      '1/2-1/2',
    ]);
    expect(await storage.livePosts.listLive()).toEqual([]);
  });
});

describe('a full disk while the bot runs', () => {
  it('/follow says the database could not be used, ephemerally, and stores nothing', async (context) => {
    const fs = smallFileSystem();
    if (fs === null) return context.skip('this process may not mount a tmpfs');
    world = await World.start();
    const w = world;
    await w.startBot({ env: { KIBITZ_DB: join(fs, 'kibitz.db') } });
    expect(() => writeFileSync(join(fs, 'filler'), Buffer.alloc(4 << 20))).toThrow(/ENOSPC/);

    const reply = await w.command('follow', { player: 'Alice' }, { user: w.fake.owner }).reply();
    expect(reply.content).toBe(
      'Kibitz could not use its database just now, so /follow was not done. It has been logged; please try again later.',
    );
    expect(reply.flags & 64).toBe(64);
    expect(await w.running.context.storage.follows.listForChannel(w.channelId)).toEqual([]);
  });
});
