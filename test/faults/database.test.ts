// PostgreSQL stopped in the middle of a game, the real bot against the fakes: boards keep moving,
// the game's end reaches Discord with its result while the database is still down, /healthz's
// check says the database is failing, and once the server is back the finished game and the
// post's end are in the database (queued, src/storage/writes.ts). The server stays down until all
// of that was seen during the outage, and no longer: its length proves nothing more (the issue
// measured a 12 s one, which was waited out in full).
import { afterEach, describe, expect, it } from 'vitest';
import { query } from '../storage/backends.js';
import { startPostgres, type PostgresServer } from '../support/postgres.js';
import { World, embedOf, shuffleScript } from '../e2e/harness.js';

let world: World | null = null;
let server: PostgresServer | null = null;

afterEach(async () => {
  await world?.close();
  await server?.stop();
  world = null;
  server = null;
});

/** Re-runs an async check every 100 ms until it holds; fails after `timeoutMs`. */
async function eventually(check: () => Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('PostgreSQL stopped and restarted mid-game', () => {
  it('the game ends on Discord during the outage, and is stored once the server is back', async () => {
    server = await startPostgres();
    const pg = server;
    world = await World.start();
    const w = world;
    const game = w.fics.addGame(shuffleScript(12, { result: '1-0', reason: 'Mirror resigns' }));
    await w.startBot({ env: { KIBITZ_DB: pg.url } });
    const storage = w.running.context.storage;
    expect((await w.command('observe', { game }).reply(20_000)).content).toContain('is live here');
    const post = await w.fake.waitFor(() => w.livePosts()[0], 'the post', 5_000);
    const [stored] = await query<{ id: number; game_key: string }>(
      pg.url,
      `SELECT id, game_key FROM live_posts WHERE state = 'live'`,
    );

    await pg.halt();
    expect(await storage.health()).toMatchObject({ writable: false });
    // A move while it is down: the board is edited (the move is read from memory, not the database).
    const san = w.fics.playMove(game);
    await w.waitForMessage(post.id, (m) => embedOf(m).description.includes(san), 'the move shown', 10_000);
    w.fics.playAll(game);
    const final = await w.waitForMessage(
      post.id,
      (m) => embedOf(m).footer === '1-0 · Mirror resigns',
      'the final edit during the outage',
      10_000,
    );
    expect(final.attachments.map((a) => a.filename)).toContain(`game-${game}.pgn`);
    const down = await storage.health();
    expect(down.writable).toBe(false);
    expect(down.queued).toBeGreaterThan(0);
    expect(w.logLines.some((l) => l.includes('"what":"save a finished game"'))).toBe(true);

    // Back only now: everything above happened while the database was down.
    await pg.restart();
    await eventually(
      async () =>
        (
          await query<{ state: string }>(pg.url, 'SELECT state FROM live_posts WHERE id = $1', [stored!.id])
        )[0]?.state === 'ended' &&
        (await query(pg.url, 'SELECT 1 FROM finished_games WHERE game_key = $1', [stored!.game_key]))
          .length === 1,
      'the finished game and the post end stored',
      15_000,
    );
    const [finished] = await query<{ result: string; pgn: string }>(
      pg.url,
      'SELECT result, pgn FROM finished_games WHERE game_key = $1',
      [stored!.game_key],
    );
    expect(finished!.result).toBe('1-0');
    expect(finished!.pgn).toContain('[Result "1-0"]');
    await eventually(async () => (await storage.health()).writable, 'health to say writable', 10_000);
    expect((await storage.health()).queued).toBe(0);
  });
});
