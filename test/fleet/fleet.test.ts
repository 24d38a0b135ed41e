// A fleet of three machines: three bot processes, each running one of three Discord shards, on
// one PostgreSQL, with the fake FICS and the fake Discord (which routes each guild to its shard).
// Every game is posted on two machines (its channel's, and a channel on the next shard), yet
// observed once on FICS for the whole fleet. One machine is killed (SIGKILL): the games it
// observed are taken over by the machines that post them too once its leases expire (the test
// ends them on the database's clock instead of waiting), and every game finishes with its final
// position and whole PGN in every channel it was posted in, the killed machine's own channels
// included once it is started again (it resumes its posts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { shardOfGuild } from '../../src/shard.js';
import { BotChild } from '../load/bot-child.js';
import type { GameAudit, LoadWorld, PlayedGame } from '../load/world.js';
import { NOTHING_LOST, QUICK_FICS, allEnded, auditAll, smallWorld } from '../faults/harness.js';
import { freshPostgresDatabase } from '../storage/backends.js';
import { built } from '../support/processes.js';
import { waitFor } from '../support/wait.js';
import { moveLeaseEnd } from './leases.js';

const SHARDS = 3;
/** Each machine runs the bot compiled, as `npm start` does (test/support/processes.ts). */
const BOT = built('test/load/bot-process.ts');
/**
 * Games in all (one per channel); each is posted a second time on another machine. 18 rather than
 * 30: three bot processes at 30 games each slowed the test files running beside them on two cores
 * past their time limits.
 */
const GAMES = 18;
const LEASE_MS = 5_000;

let server: { url: string } | null = null;
let world: LoadWorld | null = null;
let bots: (BotChild | null)[] = [];
let dir: string | null = null;
let db: pg.Pool | null = null;

afterAll(async () => {
  await db?.end();
  for (const bot of bots) await bot?.kill();
  await world?.close();
  if (dir !== null) rmSync(dir, { recursive: true, force: true });
});

/** `observe <n>` commands the fake FICS received, by game number (any login, any session). */
function observeCommands(world: LoadWorld): Map<number, number> {
  const counts = new Map<number, number>();
  for (const line of world.fics.commands()) {
    const match = /^\$*(?:\d+ )?observe (\d+)\s*$/.exec(line.trim());
    if (match !== null) counts.set(Number(match[1]), (counts.get(Number(match[1])) ?? 0) + 1);
  }
  return counts;
}

describe('a fleet of three machines on one PostgreSQL', () => {
  it('observes each game once, and loses nothing when a machine is killed', async () => {
    // A database of its own on the run's server (test/support/postgres-setup.ts).
    server = { url: await freshPostgresDatabase() };
    dir = mkdtempSync(join(tmpdir(), 'kibitz-fleet-'));
    world = await smallWorld({
      channels: GAMES,
      channelsPerGuild: 2,
      shards: SHARDS,
      plyMs: 200,
      maxPlies: 50,
      seed: 17,
    });
    const w = world;
    const shardOf = (guildId: string): number => shardOfGuild(guildId, SHARDS)!;
    expect(new Set(w.slots.map((slot) => shardOf(slot.guildId)))).toEqual(new Set([0, 1, 2]));

    // Machine i runs shard i with its own SQLite file and FICS logins; they share the fleet's database.
    const env = (machine: number): Record<string, string> =>
      w.botEnv(join(dir!, `machine-${machine}.db`), {
        SHARDS: JSON.stringify([machine]),
        SHARD_COUNT: String(SHARDS),
        KIBITZ_FLEET_DB: server!.url,
        KIBITZ_FLEET_LEASE_MS: String(LEASE_MS),
        // A guild shows its two games and the mirrored games of the previous shard's guilds.
        KIBITZ_MAX_LIVE_PER_GUILD: '10',
      });
    bots = await Promise.all(
      [0, 1, 2].map((machine) => BotChild.start({ env: env(machine), fics: QUICK_FICS, entry: BOT })),
    );
    await w.commandsRegistered();

    await w.observeAll(20);
    expect(w.observeFailures).toEqual([]);
    // Each game is posted again in a channel of a guild on the next shard: a second machine wants it.
    const guildsOf = (shard: number): string[] => [
      ...new Set(w.slots.filter((s) => shardOf(s.guildId) === shard).map((s) => s.guildId)),
    ];
    const mirrors = new Map<PlayedGame, { guildId: string; channelId: string }>();
    for (const slot of w.slots) {
      const next = guildsOf((shardOf(slot.guildId) + 1) % SHARDS);
      const guildId = next[slot.index % next.length]!;
      const channel = w.discord.createChannel(guildId, { name: `mirror-${slot.index + 1}` });
      mirrors.set(slot.game!, { guildId, channelId: channel.id });
    }
    const replies = await Promise.all(
      [...mirrors].map(([game, { guildId, channelId }]) =>
        w.discord.command(guildId, channelId, 'observe', { game: game.number }).reply(30_000),
      ),
    );
    expect(replies.filter((reply) => !reply.content.includes('is live')).map((r) => r.content)).toEqual([]);

    // Posted on two machines each, observed once on FICS for the whole fleet.
    const games = [...mirrors.keys()].map((game) => game.number);
    const before = observeCommands(w);
    expect(games.map((game) => before.get(game) ?? 0)).toEqual(games.map(() => 1));
    expect(games.every((game) => w.fics.observers(game).length === 1)).toBe(true);

    // Which machine observes which game, from the lease table (a holder names its process).
    db = new pg.Pool({ connectionString: server.url, max: 1 });
    const leases = await db.query<{ game: number; holder: string }>('SELECT game, holder FROM fleet_leases');
    const holderOf = new Map(leases.rows.map((row) => [row.game, Number(row.holder.split(':')[1])]));
    expect(games.every((game) => holderOf.has(game))).toBe(true);

    w.startPacing();
    // Machine 1 dies with its FICS logins while its games are running.
    const victim = bots[1]!;
    const orphaned = games.filter((game) => holderOf.get(game) === victim.pid);
    expect(orphaned.length).toBeGreaterThan(0);
    // The fake FICS notices the dead logins' sockets close a moment later: they do not count.
    const dead = new Set(orphaned.flatMap((game) => w.fics.observers(game)));
    // No move and no end from now until the fake FICS has seen the dead logins go, and every end so
    // far has reached Discord in every channel first: FICS keeps nothing of a game once it is over,
    // so an end only the dying machine had heard of (not yet stored) would be lost to any bot.
    w.stopPacing();
    const endsShown = (): boolean => {
      w.audit();
      const mirrored = [...mirrors].filter(([game]) => game.ended);
      return (
        w.unaudited().length === 0 &&
        mirrored.every(([game, { channelId }]) => w.auditIn(channelId, game).pgnComplete)
      );
    };
    await waitFor(endsShown, 'every end so far to reach Discord', 20_000);
    const killedAt = performance.now();
    await victim.kill();
    bots[1] = null;
    // Its leases run out now on the database's clock (as in store.test.ts), not LEASE_MS later: the
    // others take its games at their next renewal, as they would once the lease had expired.
    const victimHolders = [...new Set(leases.rows.map((row) => row.holder))].filter(
      (holder) => Number(holder.split(':')[1]) === victim.pid,
    );
    expect(victimHolders).toHaveLength(1);
    await moveLeaseEnd(db, { holder: victimHolders[0]! });
    await waitFor(
      () => w.fics.loggedIn().every((session) => !dead.has(session.id)),
      'the fake FICS to see the killed machine’s logins go',
      5_000,
    );
    w.startPacing();
    // A game ends only while observed (the world holds endings meanwhile): ended is observed again.
    const playedGame = new Map([...mirrors.keys()].map((game) => [game.number, game]));
    await waitFor(
      () =>
        orphaned.every(
          (game) => playedGame.get(game)!.ended || w.fics.observers(game).some((id) => !dead.has(id)),
        ),
      'the killed machine’s games to be observed again',
      { timeoutMs: 15_000, intervalMs: 20 },
    );
    const failoverMs = performance.now() - killedAt;
    console.info(
      `fleet fail-over: ${orphaned.length} games observed again ${Math.round(failoverMs)} ms after SIGKILL and its leases' end (renewals every ${Math.round(LEASE_MS / 3)} ms)`,
    );

    // Started again, machine 1 resumes its posts; the games stay with the machines that took them.
    bots[1] = await BotChild.start({ env: env(1), fics: QUICK_FICS, entry: BOT });
    await waitFor(() => allEnded(w), 'every game to end', 60_000);
    const totals = await auditAll(w, 20_000);
    expect(
      w.lostReport((g) => `shard ${shardOf(w.slots[g.slot]!.guildId)} orphan ${orphaned.includes(g.number)}`),
    ).toEqual([]);
    expect(totals).toMatchObject({ finished: GAMES, audited: GAMES, ...NOTHING_LOST, lostUnobserved: 0 });
    const auditMirrors = (): GameAudit[] =>
      [...mirrors].map(([game, { channelId }]) => w.auditIn(channelId, game));
    let mirrored = auditMirrors();
    for (let tries = 0; tries < 100 && !mirrored.every((a) => a.pgnComplete); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      mirrored = auditMirrors();
    }
    expect(
      [...mirrors]
        .map(([game, { guildId }], i) => ({
          game: game.number,
          shard: shardOf(guildId),
          orphan: orphaned.includes(game.number),
          ...mirrored[i]!,
        }))
        .filter((a) => a.messages !== 1 || !a.finalShown || !a.pgnComplete),
    ).toEqual([]);

    // Once more for each game taken over, never more: one observer at a time.
    const after = observeCommands(w);
    expect(games.map((game) => after.get(game) ?? 0)).toEqual(
      games.map((game) => (orphaned.includes(game) ? 2 : 1)),
    );
  }, 180_000);
});
