// npm run loadtest:fleet [-- --games 300 --ply-ms 8000 --mirror-every 10 --warmup-s 20 --measure-s 60 --json]
// Three bot processes on one machine as a fleet of three: each runs one of three Discord shards,
// with its own SQLite file and FICS logins, and all share one embedded PostgreSQL. `games` games
// are posted in channels spread over the three shards, and every n-th is posted a second time in a
// channel of another shard: a machine observes it on FICS and another follows it through
// PostgreSQL (all games twice would pass Discord's 50 requests a second at blitz pace). Prints the time from a move leaving the fake FICS to its edit
// reaching the fake Discord, for the observing machine's posts and the following machine's, and
// PostgreSQL's statements (transactions, counted by the server) per move played.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import type { RecordedRequest } from '../fake-discord/index.js';
import { shardOfGuild } from '../../src/shard.js';
import { startPostgres } from '../support/postgres.js';
import { BotChild } from './bot-child.js';
import { machine, round, summarize, table } from './stats.js';
import { LoadWorld, sleep, type PlayedGame } from './world.js';

const { values: args } = parseArgs({
  options: {
    games: { type: 'string', default: '300' },
    'ply-ms': { type: 'string', default: '8000' },
    'warmup-s': { type: 'string', default: '20' },
    'measure-s': { type: 'string', default: '60' },
    'lease-ms': { type: 'string', default: '15000' },
    /** Every n-th game is posted a second time, on another machine (1: every game). */
    'mirror-every': { type: 'string', default: '10' },
    json: { type: 'boolean', default: false },
  },
});
const SHARDS = 3;
const games = Number(args.games);
const say = (text: string): void => void process.stderr.write(`${text}\n`);

const server = await startPostgres();
const dir = mkdtempSync(join(tmpdir(), 'kibitz-fleet-load-'));
const world = await LoadWorld.start({
  channels: games,
  channelsPerGuild: 10,
  shards: SHARDS,
  plyMs: Number(args['ply-ms']),
  nextGameAfterMs: null,
  joinMidGame: true,
});
const db = new pg.Pool({ connectionString: server.url, max: 1 });
const bots: BotChild[] = [];
try {
  const shardOf = (guildId: string): number => shardOfGuild(guildId, SHARDS)!;
  for (let shard = 0; shard < SHARDS; shard++) {
    const env = world.botEnv(join(dir, `machine-${shard}.db`), {
      SHARDS: JSON.stringify([shard]),
      SHARD_COUNT: String(SHARDS),
      KIBITZ_FLEET_DB: server.url,
      KIBITZ_FLEET_LEASE_MS: args['lease-ms'],
      // Ten games of its own and ten of the previous shard's guilds per guild.
      KIBITZ_MAX_LIVE_PER_GUILD: '20',
    });
    bots.push(await BotChild.start({ env, logFile: join(dir, `machine-${shard}.log`) }));
  }
  await world.commandsRegistered();
  say(`three machines up; posting ${games} games, every ${args['mirror-every']}th on a second machine...`);
  await world.observeAll(20);
  const guilds = [...new Set(world.slots.map((s) => s.guildId))];
  /** Channel -> game, for the second post of each game. */
  const mirrors = new Map<string, PlayedGame>();
  for (const slot of world.slots.filter((s) => s.index % Number(args['mirror-every']) === 0)) {
    // A guild of another shard: another machine posts the game too.
    const others = guilds.filter((id) => shardOf(id) !== shardOf(slot.guildId));
    if (others.length === 0) throw new Error('every guild landed on one shard: run again');
    const guildId = others[slot.index % others.length]!;
    const channel = world.discord.createChannel(guildId, { name: `mirror-${slot.index + 1}` });
    mirrors.set(channel.id, slot.game!);
    await world.discord.command(guildId, channel.id, 'observe', { game: slot.game!.number }).reply(30_000);
    await sleep(50);
  }
  // Move sent by the fake FICS -> its edit received by the fake Discord, in the following machine's channels.
  const followed: number[] = [];
  world.discord.on('request', (request: RecordedRequest) => {
    const game = mirrors.get(request.params.channel_id ?? '');
    if (game === undefined || request.method !== 'PATCH' || request.status !== 200) return;
    if (request.route !== '/channels/:channel_id/messages/:message_id' || game.played.length === 0) return;
    followed.push(performance.now() - (Date.now() - request.at) - game.lastPlyAt);
  });
  world.startPacing();
  const stopHousekeeping = world.startHousekeeping();
  await sleep(Number(args['warmup-s']) * 1000);

  const transactions = async (): Promise<number> => {
    // The server's own count of statements run (each of the fleet's is a transaction of its own).
    const row = await db.query<{ n: string }>(
      'SELECT pg_stat_force_next_flush(), xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()',
    );
    return Number(row.rows[0]!.n);
  };
  const plies = (): number =>
    [...world.games.values(), ...world.finished].reduce((n, game) => n + game.played.length, 0);
  world.counts.editLatencyMs.length = 0;
  followed.length = 0;
  const before = { transactions: await transactions(), plies: plies() };
  // The bots' own storage statements are counted from here (bot-process.ts).
  await Promise.all(bots.map((bot) => bot.metrics({ reset: true })));
  await sleep(Number(args['measure-s']) * 1000);
  // Stats reach pg_stat_database within a second of a statement.
  await sleep(1_000);
  const moves = plies() - before.plies;
  const statements = (await transactions()) - before.transactions;
  stopHousekeeping();
  const own = summarize(world.counts.editLatencyMs);
  const remote = summarize(followed);
  const metrics = await Promise.all(bots.map((bot) => bot.metrics()));
  const figures = {
    date: new Date().toISOString(),
    machine: machine(),
    games,
    posts: games + mirrors.size,
    plyMs: Number(args['ply-ms']),
    movesMeasured: moves,
    observingEditP50Ms: round(own.p50),
    observingEditP99Ms: round(own.p99),
    observingEdits: own.count,
    followingEditP50Ms: round(remote.p50),
    followingEditP99Ms: round(remote.p99),
    followingEdits: remote.count,
    postgresStatementsPerMove: round(statements / Math.max(1, moves)),
    storageReadsPerMove: round(metrics.reduce((n, m) => n + m.statements.reads, 0) / Math.max(1, moves)),
    storageWritesPerMove: round(metrics.reduce((n, m) => n + m.statements.writes, 0) / Math.max(1, moves)),
    ficsGamesObserved: metrics.map((m) => m.fics.games),
    rssMaxMB: metrics.map((m) => round(m.rssMaxBytes / (1024 * 1024))),
  };
  if (args.json) process.stdout.write(`${JSON.stringify(figures)}\n`);
  else
    process.stdout.write(
      `${table(
        ['figure', 'measured'],
        [
          ['machine', figures.machine],
          ['games (posts; the second posts follow through PostgreSQL)', `${games} (${figures.posts})`],
          ['moves in the window', moves],
          [
            'move -> edit, machine observing it on FICS: p50 / p99 ms (edits)',
            `${figures.observingEditP50Ms} / ${figures.observingEditP99Ms} (${own.count})`,
          ],
          [
            'move -> edit, machine following it through PostgreSQL: p50 / p99 ms (edits)',
            `${figures.followingEditP50Ms} / ${figures.followingEditP99Ms} (${remote.count})`,
          ],
          ['PostgreSQL statements per move (all three machines)', figures.postgresStatementsPerMove],
          [
            "each machine's own database (live posts, finished games): reads / writes per move",
            `${figures.storageReadsPerMove} / ${figures.storageWritesPerMove}`,
          ],
          ['games observed on FICS per machine', figures.ficsGamesObserved.join(' / ')],
          ['resident memory (max) per machine MB', figures.rssMaxMB.join(' / ')],
        ],
      )}\n`,
    );
} finally {
  for (const bot of bots) await bot.stop();
  await db.end();
  await world.close();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
