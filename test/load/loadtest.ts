// npm run loadtest [-- --games 300 --ply-ms 8000 --warmup-s 30 --measure-s 120 --engine --json] [-- --faults]
// [-- --compiled]: the bot compiled (as `npm start` runs it) instead of under tsx.
// The whole bot (its own process, as main.ts runs it) against a fake FICS server playing `games`
// simultaneous games over as many connections as the 30-game limit needs, each game observed by
// its own channel of the fake Discord through /observe, moves at blitz pace. Finished games are
// replaced by new ones (a new /observe) so the load stays level. Prints the bot's CPU, memory,
// event-loop delay, the latency from board to edit, and the 429s, then checks that every game that
// ended reached Discord (final position, PGN, one post per game).
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { BotChild, buildCompiledBot } from './bot-child.js';
import { runFaultLoad } from './fault-load.js';
import { logCounts, machine, MB, round, summarize, table, threadCpuMs, threadCpuRates } from './stats.js';
import { LoadWorld, sleep } from './world.js';
import { POSTS_AND_EDITS_PER_SECOND as DISCORD_EDITS_PER_SECOND } from '../../src/discord/live-port.js';

const { values: args } = parseArgs({
  options: {
    games: { type: 'string', default: '300' },
    'ply-ms': { type: 'string', default: '8000' },
    'warmup-s': { type: 'string', default: '30' },
    'measure-s': { type: 'string', default: '120' },
    'next-game-ms': { type: 'string', default: '3000' },
    seed: { type: 'string', default: '1' },
    json: { type: 'boolean', default: false },
    /** Keep the bot's database and log (their folder is printed). */
    keep: { type: 'boolean', default: false },
    /** Write a CPU profile of the bot into the kept folder (with --keep). */
    profile: { type: 'boolean', default: false },
    /** Write a sampling profile of the bot's allocations while measured into the kept folder (with --keep). */
    allocations: { type: 'boolean', default: false },
    /** Write a heap snapshot of the bot at the end of the measurement into the kept folder (with --keep). */
    'heap-snapshot': { type: 'boolean', default: false },
    /** Every fault in turn instead of a measurement (fault-load.ts). */
    faults: { type: 'boolean', default: false },
    /** KIBITZ_ENGINE=on and every game observed with `eval:` and `arrow:`. */
    engine: { type: 'boolean', default: false },
    /** The bot compiled into dist/, as `npm start` runs it, instead of the sources under tsx. */
    compiled: { type: 'boolean', default: false },
    /** A node or V8 option for the bot's process, to measure it (repeatable): `--node-option=--v8-pool-size=2`. */
    'node-option': { type: 'string', multiple: true, default: [] },
  },
});
const games = Number(args.games);
const plyMs = Number(args['ply-ms']);
const say = (text: string): void => void process.stderr.write(`${text}\n`);
if (args.faults) {
  await runFaultLoad({
    games,
    plyMs,
    warmupS: Number(args['warmup-s']),
    seed: Number(args.seed),
    json: args.json,
  });
  process.exit(0);
}

if (args.compiled) buildCompiledBot();
const dir = mkdtempSync(join(tmpdir(), 'kibitz-load-'));
const logFile = join(dir, 'bot.log');
const world = await LoadWorld.start({
  channels: games,
  plyMs,
  nextGameAfterMs: Number(args['next-game-ms']),
  joinMidGame: true,
  seed: Number(args.seed),
  ...(args.engine ? { observeOptions: { eval: true, arrow: true } } : {}),
});
const loadBefore = loadavg()[0]!;
const child = await BotChild.start({
  env: world.botEnv(join(dir, 'kibitz.db'), args.engine ? { KIBITZ_ENGINE: 'on' } : {}),
  logFile,
  nodeOptions: [...(args.profile ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : []), ...args['node-option']],
  compiled: args.compiled,
});
try {
  await world.commandsRegistered();
  say(`bot up (pid ${child.pid}); observing ${games} games...`);
  const observeStart = performance.now();
  await world.observeAll(20);
  const observeSeconds = (performance.now() - observeStart) / 1000;
  say(`observed in ${observeSeconds.toFixed(1)} s (${world.observeFailures.length} refused); playing...`);
  world.startPacing();
  const stopHousekeeping = world.startHousekeeping();

  await sleep(Number(args['warmup-s']) * 1000);
  await child.metrics({ reset: true });
  if (args.allocations) await child.allocations();
  const threadsBefore = threadCpuMs(child.pid);
  world.counts.editLatencyMs.length = 0;
  world.counts.stalenessMs.length = 0;
  world.counts.finalDelayMs.length = 0;
  const before = { ...world.counts, finished: world.finished.length };
  const driverCpu = process.cpuUsage();
  // The fakes' own event loop: when it stalls, Discord answers late and edits queue in the bot.
  const fakesLoop = monitorEventLoopDelay({ resolution: 10 });
  fakesLoop.enable();
  const loads: number[] = [];
  const measureEnd = Date.now() + Number(args['measure-s']) * 1000;
  while (Date.now() < measureEnd) {
    await sleep(Math.min(5_000, measureEnd - Date.now()));
    loads.push(loadavg()[0]!);
  }
  if (args.allocations) await child.allocations(join(dir, 'bot.heapprofile'));
  const bot = await child.metrics();
  const threads = threadCpuRates(threadsBefore, threadCpuMs(child.pid), bot.wallMs / 1000);
  const driver = process.cpuUsage(driverCpu);
  const during = {
    edits: world.counts.edits - before.edits,
    posts: world.counts.posts - before.posts,
    status429: world.counts.status429 - before.status429,
    globalLimited: world.counts.globalLimited - before.globalLimited,
    staleness: summarize(world.counts.stalenessMs),
    finalDelay: summarize(world.counts.finalDelayMs),
    finished: world.finished.length - before.finished,
    latency: summarize(world.counts.editLatencyMs),
  };
  stopHousekeeping();
  // After the figures, and with no command coming: writing it stops the bot for a minute or more
  // (at 1,000 games), and interactions would time out meanwhile.
  if (args['heap-snapshot']) await child.metrics({ heapSnapshot: join(dir, 'bot.heapsnapshot') });

  // Every game still running ends now; each must reach Discord with its final position and PGN.
  // Their finals all wait for turns at Discord's rate: the audit waits a minute plus that long, twice.
  const finalsBefore = world.counts.finalDelayMs.length;
  const audit = await world.endAllAndAudit({
    healMs: 0,
    auditMs: 60_000 + Math.ceil((2 * games * 1000) / DISCORD_EDITS_PER_SECOND),
  });
  const finalsTogether = summarize(world.counts.finalDelayMs.slice(finalsBefore));
  // The post the scheduler would come back to at its rate, were every post always behind.
  const fairBoundMs = (games / Math.max(1, during.edits / (bot.wallMs / 1000))) * 1000;

  const seconds = bot.wallMs / 1000;
  const latency = summarize(bot.editLatencyMs);
  const held = summarize(bot.heldEditLatencyMs);
  const queued = summarize(bot.queuedEditLatencyMs);
  const finals = summarize(bot.finalEditLatencyMs);
  const log = logCounts(logFile);
  const figures = {
    date: new Date().toISOString(),
    machine: machine(),
    loadAverageBefore: round(loadBefore),
    loadAverageDuring: round(Math.max(...loads)),
    games,
    plyMs,
    engine: args.engine,
    measuredSeconds: round(seconds),
    boardsPerSecond: round(during.edits / seconds),
    botCpuPercent: round((bot.cpuMs / bot.wallMs) * 100),
    // Every thread of the bot (render workers, V8's helpers) over the edits that arrived, as
    // docs/performance.md has always given it (new posts and final GIFs are in the CPU, not counted).
    botCpuPerEditMs: round(bot.cpuMs / Math.max(1, during.edits)),
    mainThreadCpuMsPerS: round(threads.get(child.pid) ?? Number.NaN),
    mainThreadCpuPerEditMs: round(
      ((threads.get(child.pid) ?? Number.NaN) * seconds) / Math.max(1, during.edits),
    ),
    // The other threads by id (creation order: V8's and libuv's helpers, then the render workers).
    otherThreadsCpuMsPerS: [...threads]
      .filter(([tid, rate]) => tid !== child.pid && rate >= 1)
      .sort(([a], [b]) => a - b)
      .map(([tid, rate]) => `${tid}: ${round(rate)}`)
      .join(', '),
    driverCpuPercent: round(((driver.user + driver.system) / 1000 / bot.wallMs) * 100),
    rssMB: round(bot.rssBytes / MB),
    rssMaxMB: round(bot.rssMaxBytes / MB),
    heapUsedMB: round(bot.heapUsedBytes / MB),
    heapTotalMB: round(bot.memory.heapTotalBytes / MB),
    externalMB: round(bot.memory.externalBytes / MB),
    rssAnonMB: round(bot.memory.rssAnonBytes / MB),
    rssFileMB: round(bot.memory.rssFileBytes / MB),
    loopDelayP50Ms: round(bot.loop.p50),
    loopDelayP99Ms: round(bot.loop.p99),
    loopDelayMaxMs: round(bot.loop.max),
    editLatencyP50Ms: round(latency.p50),
    editLatencyP99Ms: round(latency.p99),
    editLatencyMaxMs: round(latency.max),
    editLatencySamples: latency.count,
    heldEditLatencyP50Ms: round(held.p50),
    heldEdits: held.count,
    queuedEditLatencyP50Ms: round(queued.p50),
    queuedEdits: queued.count,
    finalEditLatencyP50Ms: round(finals.p50),
    finalEditLatencyP99Ms: round(finals.p99),
    finalEdits: finals.count,
    fakesLoopDelayP99Ms: round(Math.max(0, fakesLoop.percentile(99) / 1e6 - 10)),
    fakesLoopDelayMaxMs: round(Math.max(0, fakesLoop.max / 1e6 - 10)),
    stalenessP50Ms: round(during.staleness.p50),
    stalenessP99Ms: round(during.staleness.p99),
    stalenessMaxMs: round(during.staleness.max),
    stalenessSamples: during.staleness.count,
    fairBoundMs: round(fairBoundMs),
    finalDelayP50Ms: round(during.finalDelay.p50),
    finalDelayP99Ms: round(during.finalDelay.p99),
    finalDelayMaxMs: round(during.finalDelay.max),
    finalsTogether: finalsTogether.count,
    finalsTogetherP50Ms: round(finalsTogether.p50),
    finalsTogetherMaxMs: round(finalsTogether.max),
    globalLimited: during.globalLimited,
    wireLatencyP50Ms: round(during.latency.p50),
    wireLatencyP99Ms: round(during.latency.p99),
    status429: during.status429,
    botRateLimitWaits: bot.rest.limitWaits,
    botGlobalLimitWaits: bot.rest.globalWaits,
    ficsConnections: bot.fics.connections,
    ficsGamesObserved: bot.fics.games,
    gamesFinishedDuring: during.finished,
    movesDuring: bot.moves,
    dbReadsPerMove: round(bot.statements.reads / Math.max(1, bot.moves)),
    dbWritesPerMove: round(bot.statements.writes / Math.max(1, bot.moves)),
    observeRefused: world.observeFailures.length,
    ...Object.fromEntries(Object.entries(audit).map(([k, v]) => [`audit_${k}`, v])),
    botWarnings: log.warnings,
    botErrors: log.errors,
  };
  if (args.json) process.stdout.write(`${JSON.stringify(figures)}\n`);
  else {
    const goal = (ok: boolean): string => (ok ? 'met' : 'NOT met');
    process.stdout.write(
      `${table(
        ['figure', 'measured', 'goal'],
        [
          ['machine', figures.machine, ''],
          [
            'bot run',
            `${args.compiled ? 'compiled (dist/), as npm start runs it' : 'under tsx (npm run dev)'}${args['node-option'].map((option) => ` ${option}`).join('')}`,
            '',
          ],
          ['load average before / during', `${figures.loadAverageBefore} / ${figures.loadAverageDuring}`, ''],
          ['live games (channels)', games, '300'],
          ['board edits per second', figures.boardsPerSecond, ''],
          ['bot CPU (% of one core)', figures.botCpuPercent, ''],
          ['bot CPU per edit ms (all threads)', figures.botCpuPerEditMs, '<= 5'],
          [
            'main thread ms of CPU a second, per edit ms',
            `${figures.mainThreadCpuMsPerS}, ${figures.mainThreadCpuPerEditMs}`,
            '',
          ],
          ['other threads ms of CPU a second (thread id: ms)', figures.otherThreadsCpuMsPerS, ''],
          ['fakes CPU (% of one core)', figures.driverCpuPercent, ''],
          ['resident memory (max) MB', figures.rssMaxMB, `< 400: ${goal(figures.rssMaxMB < 400)}`],
          ['heap used MB', figures.heapUsedMB, ''],
          [
            'at the end: resident anonymous / file-backed MB; main heap reserved / outside the heap MB',
            `${figures.rssAnonMB} / ${figures.rssFileMB}; ${figures.heapTotalMB} / ${figures.externalMB}`,
            '',
          ],
          [
            'event-loop delay p50 / p99 / max ms',
            `${figures.loopDelayP50Ms} / ${figures.loopDelayP99Ms} / ${figures.loopDelayMaxMs}`,
            `p99 < 50: ${goal(figures.loopDelayP99Ms < 50)}`,
          ],
          [
            'move -> edit request, no rate limit, p50 / p99 / max ms',
            `${figures.editLatencyP50Ms} / ${figures.editLatencyP99Ms} / ${figures.editLatencyMaxMs}`,
            `p99 < 15: ${goal(figures.editLatencyP99Ms < 15)}`,
          ],
          [
            'game end -> final edit request (the GIF follows later): count, p50 / p99 ms',
            `${figures.finalEdits}, ${figures.finalEditLatencyP50Ms} / ${figures.finalEditLatencyP99Ms}`,
            '',
          ],
          [
            'database statements per move, games starting and ending included: reads / writes',
            `${figures.dbReadsPerMove} / ${figures.dbWritesPerMove} (${figures.movesDuring} moves)`,
            // The move path alone is checked by test/relay/relay.test.ts: no read, one batched write.
            `<= 1 write: ${goal(figures.dbWritesPerMove <= 1)}`,
          ],
          [
            'edits a rate limit held back: count, p50 ms',
            `${figures.heldEdits}, ${figures.heldEditLatencyP50Ms}`,
            '',
          ],
          [
            'boards that waited for Discord to answer the previous edit: count, p50 ms',
            `${figures.queuedEdits}, ${figures.queuedEditLatencyP50Ms}`,
            '',
          ],
          [
            'fakes event-loop delay p99 / max ms',
            `${figures.fakesLoopDelayP99Ms} / ${figures.fakesLoopDelayMaxMs}`,
            '',
          ],
          [
            'move sent -> edit received (fakes) p50 / p99 ms',
            `${figures.wireLatencyP50Ms} / ${figures.wireLatencyP99Ms}`,
            '',
          ],
          [
            'staleness per ply (move -> first image showing it) p50 / p99 / max ms; fair bound (posts / edits per s)',
            `${figures.stalenessP50Ms} / ${figures.stalenessP99Ms} / ${figures.stalenessMaxMs}; ${figures.fairBoundMs}`,
            `p99 < 1.5 x bound: ${goal(figures.stalenessP99Ms < 1.5 * figures.fairBoundMs)}`,
          ],
          [
            'game end -> final edit received, p50 / p99 / max ms',
            `${figures.finalDelayP50Ms} / ${figures.finalDelayP99Ms} / ${figures.finalDelayMaxMs}`,
            '',
          ],
          [
            'all games ended together: finals received, p50 / max ms',
            `${figures.finalsTogether}, ${figures.finalsTogetherP50Ms} / ${figures.finalsTogetherMaxMs}`,
            '',
          ],
          ['429 answers', figures.status429, `0: ${goal(figures.status429 === 0)}`],
          ['429 for the global limit', figures.globalLimited, '0'],
          [
            'discord.js waits (bucket / global)',
            `${figures.botRateLimitWaits} / ${figures.botGlobalLimitWaits}`,
            '',
          ],
          ['games finished (all audited)', `${audit.finished} (${audit.audited})`, ''],
          [
            'lost: final / PGN / duplicate posts',
            `${audit.finalMissing} / ${audit.pgnMissing} / ${audit.duplicates}`,
            '0 / 0 / 0',
          ],
          ['observe refused', figures.observeRefused, '0'],
          ['posts never made', audit.unposted, '0'],
          ['bot warnings / errors logged', `${figures.botWarnings} / ${figures.botErrors}`, ''],
        ],
      )}\n`,
    );
  }
  if (world.observeFailures.length > 0)
    say(`first refusals: ${world.observeFailures.slice(0, 3).join(' | ')}`);
  // A run that lost or refused anything failed, whatever its speed.
  const failures = [
    world.observeFailures.length > 0 ? `${world.observeFailures.length} observations refused` : '',
    audit.finalMissing + audit.pgnMissing > 0
      ? `${audit.finalMissing} finals, ${audit.pgnMissing} PGNs lost`
      : '',
    audit.duplicates > 0 ? `${audit.duplicates} games posted twice` : '',
    audit.unposted > 0 ? `${audit.unposted} posts never made` : '',
    audit.audited < audit.finished ? `${audit.finished - audit.audited} games not audited` : '',
  ].filter((f) => f !== '');
  if (failures.length > 0) {
    say(`FAILED: ${failures.join('; ')}`);
    process.exitCode = 1;
  }
} finally {
  await child.stop();
  await world.close();
  if (args.keep) say(`database and log kept in ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
