// npm run soak [-- --hours 24 --hour-s 60 --channels 60 --ply-ms 400 --json]
// A day of traffic at high speed: every simulated hour lasts `hour-s` seconds. Channels observe
// game after game (thousands over the run), observers leave mid-game now and then (/unobserve),
// a FICS connection is cut every hour and the Discord gateway every six. After every hour the bot
// collects its garbage and reports its heap and resident memory: both must stay flat from the
// first hours to the last. At the end every game that ran to its end must have reached Discord
// with its final position and whole PGN, posted once.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { BotChild } from './bot-child.js';
import { Dice } from './random.js';
import { logCounts, machine, MB, round, table } from './stats.js';
import { LoadWorld, sleep } from './world.js';

const { values: args } = parseArgs({
  options: {
    hours: { type: 'string', default: '24' },
    'hour-s': { type: 'string', default: '60' },
    channels: { type: 'string', default: '60' },
    'ply-ms': { type: 'string', default: '400' },
    seed: { type: 'string', default: '1' },
    json: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    /** Heap snapshots after hour 2 and after the last hour, in the kept folder (with --keep). */
    snapshots: { type: 'boolean', default: false },
  },
});
const hours = Number(args.hours);
const hourMs = Number(args['hour-s']) * 1000;
const say = (text: string): void => void process.stderr.write(`${text}\n`);
const dice = new Dice(Number(args.seed) + 1);

const dir = mkdtempSync(join(tmpdir(), 'kibitz-soak-'));
const logFile = join(dir, 'bot.log');
const world = await LoadWorld.start({
  channels: Number(args.channels),
  plyMs: Number(args['ply-ms']),
  nextGameAfterMs: 500,
  joinMidGame: true,
  // A game that ends while the bot reconnects cannot reach Discord (FICS keeps no record an
  // observer could fetch): the soak holds such endings; `npm run loadtest -- --faults` counts them.
  holdEndsWhileUnobserved: true,
  seed: Number(args.seed),
});
const child = await BotChild.start({
  env: world.botEnv(join(dir, 'kibitz.db')),
  logFile,
  fics: { backoff: { initialMs: 200, maxMs: 2_000, factor: 2, jitter: 0.5 } },
});

interface HourRow {
  hour: number;
  gamesFinished: number;
  rssMB: number;
  heapAfterGcMB: number;
  loopP99Ms: number;
  cpuPercent: number;
  cachedMessages: number;
  restHandlers: number;
}
const rows: HourRow[] = [];
let left = 0;
let leaveReplies = 0;
try {
  await world.commandsRegistered();
  say(`bot up (pid ${child.pid}); ${args.channels} channels, ${hours} hours of ${args['hour-s']} s...`);
  await world.observeAll(20);
  world.startPacing();
  await child.metrics({ reset: true });
  for (let hour = 1; hour <= hours; hour++) {
    const end = Date.now() + hourMs;
    let step = 0;
    while (Date.now() < end) {
      await sleep(Math.min(1_000, end - Date.now()));
      step++;
      // Observers come and go: now and then one leaves in the middle of a game.
      if (dice.chance(0.5)) {
        const slot = dice.pick(world.slots);
        if (slot.game?.posted === true && !slot.game.ended) {
          left++;
          if ((await world.leave(slot)).startsWith('Stopped')) leaveReplies++;
        }
      }
      if (step % 5 === 0) {
        world.audit();
        world.forgetAudited();
        world.trimRevisions();
      }
    }
    // Once an hour a FICS connection drops; every six hours the gateway does.
    const sessions = world.fics.loggedIn();
    if (sessions.length > 0) world.fics.drop(dice.pick(sessions).id);
    if (hour % 6 === 0) world.discord.dropGateway();
    const snapshot =
      args.snapshots && (hour === 2 || hour === hours) ? join(dir, `hour-${hour}.heapsnapshot`) : undefined;
    const m = await child.metrics({
      sweep: true,
      gc: true,
      reset: true,
      ...(snapshot ? { heapSnapshot: snapshot } : {}),
    });
    rows.push({
      hour,
      gamesFinished: world.finished.length,
      rssMB: round(m.rssBytes / MB),
      heapAfterGcMB: round(m.heapUsedBytes / MB),
      loopP99Ms: round(m.loop.p99),
      cpuPercent: round((m.cpuMs / m.wallMs) * 100),
      cachedMessages: m.cachedMessages,
      restHandlers: m.restHandlers,
    });
    say(`hour ${hour}: ${JSON.stringify(rows.at(-1))}`);
  }

  // The last hour's cut may still be healing: the games end once the bot observes them again.
  const audit = await world.endAllAndAudit({ healMs: 30_000, settleMs: 1_000, auditMs: 120_000 });

  // Flat: the last hours against the first ones (the first hour fills caches and warms the JIT).
  const mean = (values: number[]): number => values.reduce((a, b) => a + b, 0) / values.length;
  const span = Math.max(1, Math.floor(hours / 6));
  const early = rows.slice(1, 1 + span);
  const late = rows.slice(-span);
  const heapEarly = mean(early.map((r) => r.heapAfterGcMB));
  const heapLate = mean(late.map((r) => r.heapAfterGcMB));
  const rssEarly = mean(early.map((r) => r.rssMB));
  const rssLate = mean(late.map((r) => r.rssMB));
  const log = logCounts(logFile);
  const figures = {
    date: new Date().toISOString(),
    machine: machine(),
    loadAverageEnd: round(loadavg()[0]!),
    hours,
    hourSeconds: hourMs / 1000,
    channels: Number(args.channels),
    gamesFinished: audit.finished,
    observersLeft: left,
    heapAfterGcEarlyMB: round(heapEarly),
    heapAfterGcLateMB: round(heapLate),
    heapGrowthPercent: round(((heapLate - heapEarly) / heapEarly) * 100),
    rssEarlyMB: round(rssEarly),
    rssLateMB: round(rssLate),
    rssGrowthPercent: round(((rssLate - rssEarly) / rssEarly) * 100),
    ...Object.fromEntries(Object.entries(audit).map(([k, v]) => [`audit_${k}`, v])),
    leaveAnswered: leaveReplies,
    botErrors: log.errors,
    hourly: rows,
  };
  if (args.json) process.stdout.write(`${JSON.stringify(figures)}\n`);
  else {
    process.stdout.write(
      `${table(
        [
          'hour',
          'games finished',
          'RSS MB',
          'heap after GC MB',
          'loop p99 ms',
          'CPU %',
          'cached messages',
          'REST queues',
        ],
        rows.map((r) => [
          r.hour,
          r.gamesFinished,
          r.rssMB,
          r.heapAfterGcMB,
          r.loopP99Ms,
          r.cpuPercent,
          r.cachedMessages,
          r.restHandlers,
        ]),
      )}\n\n`,
    );
    process.stdout.write(
      `${table(
        ['figure', 'measured'],
        [
          ['machine / load average at the end', `${figures.machine} / ${figures.loadAverageEnd}`],
          ['games finished / observers who left', `${audit.finished} / ${left}`],
          [
            `heap after GC, hours 2-${1 + span} vs last ${span}`,
            `${figures.heapAfterGcEarlyMB} -> ${figures.heapAfterGcLateMB} MB (${figures.heapGrowthPercent} %)`,
          ],
          [
            `RSS, hours 2-${1 + span} vs last ${span}`,
            `${figures.rssEarlyMB} -> ${figures.rssLateMB} MB (${figures.rssGrowthPercent} %)`,
          ],
          [
            'lost: final / PGN / duplicate posts / never posted',
            `${audit.finalMissing} / ${audit.pgnMissing} / ${audit.duplicates} / ${audit.unposted}`,
          ],
          ['bot errors logged', figures.botErrors],
        ],
      )}\n`,
    );
  }
  for (const line of world.lostReport()) say(line);
  if (world.observeFailures.length > 0)
    say(
      `${world.observeFailures.length} /observe not live, e.g.: ${[...new Set(world.observeFailures)].slice(0, 3).join(' | ')}`,
    );
} finally {
  await child.stop();
  await world.close();
  if (args.keep) say(`database and log kept in ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
