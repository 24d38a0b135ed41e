// The bot killed with SIGKILL in the middle of its work (a final edit waiting out a rate limit)
// and started again on the same database: it picks up every live post, edits the same messages
// (no second post anywhere), and every game, the one whose final edit was cut off included,
// reaches Discord with its final position and whole PGN.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BotChild } from '../load/bot-child.js';
import type { LoadWorld, PlayedGame } from '../load/world.js';
import { NOTHING_LOST, QUICK_FICS, allEnded, auditAll, pliesLater, smallWorld } from './harness.js';
import { built } from '../support/processes.js';
import { waitFor } from '../support/wait.js';

let world: LoadWorld | null = null;
let children: BotChild[] = [];
let dir: string | null = null;

afterEach(async () => {
  for (const child of children) await child.kill();
  await world?.close();
  if (dir !== null) rmSync(dir, { recursive: true, force: true });
  children = [];
  world = null;
  dir = null;
});

describe('SIGKILL and restart', () => {
  it('loses no post, no final position and no PGN, and posts nothing twice', async () => {
    dir = mkdtempSync(join(tmpdir(), 'kibitz-kill-'));
    const env = (w: LoadWorld) => w.botEnv(join(dir!, 'kibitz.db'));
    world = await smallWorld({ seed: 13, maxPlies: 40 });
    const first = await BotChild.start({
      env: env(world),
      fics: QUICK_FICS,
      entry: built('test/load/bot-process.ts'),
    });
    children.push(first);
    await world.commandsRegistered();
    await world.observeAll(50);
    expect(world.observeFailures).toEqual([]);

    // The first game to end: its final edit meets a long 429, and the bot dies while it waits.
    let cutOff: PlayedGame | null = null;
    world.onEnd = (game, slot) => {
      if (cutOff !== null) return;
      cutOff = game;
      // Longer than the bot lives after it: its final edit never goes out from the first bot.
      world!.discord.failNext(
        { method: 'PATCH', path: new RegExp(`^/channels/${slot.channelId}/messages/`) },
        { kind: 'rateLimit', retryAfterMs: 60_000 },
      );
    };
    world.startPacing();
    await waitFor(
      () => world!.discord.requests.some((r) => r.status === 429),
      'the cut-off final edit to meet its 429',
      10_000,
    );
    // From here no game may end on the first bot's sessions, which die with it. An end sent before
    // must reach Discord before the kill: FICS keeps nothing of a game once it is over, so an end
    // the bot is killed before reading is lost to any bot (the next one says "ended while
    // offline", without a PGN). Killed as another game ended, the test failed so (pgnMissing: 1),
    // at load or on purpose.
    world.retireSessions();
    await waitFor(
      () => {
        world!.audit();
        return world!.unaudited().every((g) => g === cutOff);
      },
      'every other end so far to reach Discord',
      10_000,
    );
    await first.kill();
    const game = cutOff as PlayedGame | null;
    expect(game?.ended).toBe(true);
    expect(game?.audit).toBeUndefined();
    // Games go on while the bot is down; none ends before it observes them again.
    await pliesLater(world, 12);

    const second = await BotChild.start({
      env: env(world),
      fics: QUICK_FICS,
      entry: built('test/load/bot-process.ts'),
    });
    children.push(second);
    await waitFor(() => allEnded(world!), 'every game to end', 20_000);
    const totals = await auditAll(world, 15_000);
    // What a channel shows of a game whose PGN falls short: read in the failure's log.
    for (const played of world.finished.filter((g) => g.audit !== undefined && !g.audit.pgnComplete)) {
      const channel = world.slots[played.slot]!.channelId;
      const pgns = world.discord
        .messagesIn(channel)
        .flatMap((m) => m.attachments.filter((a) => a.filename.endsWith('.pgn')))
        .map((a) => a.bytes.toString());
      console.error(
        `game ${played.number}: played ${played.played.join(' ')}; shown PGN:\n${pgns.join('\n---\n')}`,
      );
    }
    expect(totals).toMatchObject({ finished: 6, audited: 6, ...NOTHING_LOST });
    expect(game!.audit).toEqual({ messages: 1, finalShown: true, pgnComplete: true });
    await second.stop();
  });
});
