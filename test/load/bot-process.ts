// The bot as main.ts runs it (startBot, configuration from the environment), in its own process so
// that a run measures the bot alone, plus the meters a run reads over IPC: CPU, memory, event-loop
// delay, and the time from a board reaching the FICS pool to its edit request leaving for Discord.
// Started by bot-child.ts; KIBITZ_LOAD_FICS may hold pool settings as JSON (short back-offs).
import diagnostics from 'node:diagnostics_channel';
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { writeHeapSnapshot } from 'node:v8';
import BetterSqlite3 from 'better-sqlite3';
import { configSecrets, formatConfigErrors, loadConfig } from '../../src/config.js';
import { startBot } from '../../src/app.js';
import type { PoolOptions } from '../../src/fics/pool.js';
import type { TrackerUpdate } from '../../src/game/tracker.js';
import { createLogger, logUnhandledRejections } from '../../src/log.js';

/** What the parent asks. */
export type ParentMessage =
  | { type: 'metrics'; reset?: boolean; gc?: boolean; sweep?: boolean; heapSnapshot?: string }
  /** Sampling of the main thread's allocations, garbage included: start, then stop into a file. */
  | { type: 'allocations'; write?: string }
  | { type: 'stop' };

export interface BotMetrics {
  /** Since the last reset. */
  wallMs: number;
  cpuMs: number;
  rssBytes: number;
  rssMaxBytes: number;
  heapUsedBytes: number;
  /**
   * Where the resident memory is, now: the main thread's JavaScript heap (total reserved), memory
   * outside it held by JavaScript objects (buffers), and the kernel's split of the resident set
   * into anonymous memory (every heap: V8's, the render threads', malloc's) and mapped files (the
   * node binary, native modules, fonts).
   */
  memory: { heapTotalBytes: number; externalBytes: number; rssAnonBytes: number; rssFileBytes: number };
  /** Event-loop delay, ms: how late a 10 ms timer fired. */
  loop: { p50: number; p99: number; max: number; mean: number };
  /** Board reached the pool -> its PATCH headers went out, ms, one per edit that showed a new board. */
  editLatencyMs: number[];
  /** The same for edits a rate limit held back (discord.js said so and the relay waited). */
  heldEditLatencyMs: number[];
  /**
   * The same for boards that came while Discord had not yet answered the previous edit of the same
   * message: one edit in flight per message, so they waited for that answer.
   */
  queuedEditLatencyMs: number[];
  /** The same for final edits: result, PGN and the whole-game GIF (rendered in a worker first). */
  finalEditLatencyMs: number[];
  /**
   * Each update's synchronous turn, ms: from the pool's first listener to its last, i.e. through
   * the relay's, the clubs' and the live pages' listeners (the pages' event written to each open page).
   */
  updateTurnMs: number[];
  /** REST answers seen by discord.js by status, and its own waits for rate limits. */
  rest: { responses: number; status429: number; status5xx: number; limitWaits: number; globalWaits: number };
  fics: { online: number; connections: number; games: number };
  /** Live posts stored as live. */
  livePosts: number;
  /** Moves (boards after the first) the pool passed on, and the database statements run, since the last reset. */
  moves: number;
  statements: { reads: number; writes: number };
  /** Messages discord.js keeps in its channel caches. */
  cachedMessages: number;
  /** discord.js REST request queues (one per route and major parameter; swept hourly). */
  restHandlers: number;
}

export type ChildMessage =
  | { type: 'ready'; pid: number }
  | { type: 'failed'; error: string }
  | { type: 'metrics'; metrics: BotMetrics };

if (process.send === undefined) throw new Error('bot-process.ts runs under bot-child.ts (needs IPC)');
const send = (message: ChildMessage): void => void process.send!(message);

const loaded = loadConfig(process.env);
if (!loaded.ok) {
  send({ type: 'failed', error: formatConfigErrors(loaded.error) });
  process.exit(1);
}
const logger = createLogger({ level: loaded.value.logLevel, secrets: configSecrets(loaded.value) });
logUnhandledRejections(logger);
const fics = JSON.parse(process.env.KIBITZ_LOAD_FICS ?? '{}') as Partial<PoolOptions>;

const started = await startBot(loaded.value, { logger, fics });
if (!started.ok) {
  send({ type: 'failed', error: started.error.message });
  process.exit(1);
}
const bot = started.value;
const { storage } = bot.context;

// ---- meters ---------------------------------------------------------------------------------------

// The sampler's figures are the times between its ticks: the tick itself is taken off below.
const LOOP_RESOLUTION_MS = 10;
const loop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
loop.enable();
let since = performance.now();
let cpuSince = process.cpuUsage();
let rssMax = 0;
const sampler = setInterval(() => (rssMax = Math.max(rssMax, process.memoryUsage.rss())), 250);
sampler.unref();

/** Game number -> when its newest board reached the pool and no edit has shown it yet. */
const boardAt = new Map<number, { at: number; ended: boolean }>();
let latencies: number[] = [];
let heldLatencies: number[] = [];
let queuedLatencies: number[] = [];
let finalLatencies: number[] = [];
let updateTurns: number[] = [];
let turnStart = 0;
let moves = 0;
let statementsAt = { ...storage.statements };
/** When Discord's answer to the latest edit of each message came. */
const answeredAt = new Map<string, number>();
/** Messages whose next edit waits out a rate limit. */
const heldBack = new Set<string>();
// Before the relay's own listener: the clock starts before rendering and storage.
bot.context.fics.prependListener('update', (update: TrackerUpdate) => {
  // Not 'started': a game's first board goes out as a new message, not an edit, and the first
  // edit after it may be an evaluation that shows no new move.
  if (update.type === 'moved' || update.type === 'ended')
    boardAt.set(update.snapshot.game, { at: performance.now(), ended: update.type === 'ended' });
  if (update.type === 'moved') moves++;
  turnStart = performance.now();
});
// Last of all (after the feed that passes updates to the relay and to the live pages).
bot.context.fics.on('update', () => {
  // Bounded as the other meters are, by the window the parent resets.
  if (updateTurns.length < 1_000_000) updateTurns.push(performance.now() - turnStart);
});
// The meter answers inside undici's callbacks, synchronously: it reads the bot's SQLite file
// through a read-only connection of its own (WAL lets it read alongside the bot's writes).
const meterDb = new BetterSqlite3(loaded.value.dbPath, { readonly: true, fileMustExist: true });
const livePostMessages = meterDb.prepare(
  `SELECT message_id, game_number FROM live_posts WHERE state = 'live' AND message_id IS NOT NULL`,
);
const messageGame = new Map<string, number>();
const gameOfMessage = (messageId: string): number | undefined => {
  if (!messageGame.has(messageId)) {
    // Bounded: a day-long run must not see the meter's own map grow. Above the live posts of a
    // 1,000-game run, or it is cleared and read again (1,000 rows) every few edits.
    if (messageGame.size > 10_000) messageGame.clear();
    for (const row of livePostMessages.all() as { message_id: string; game_number: number }[])
      messageGame.set(row.message_id, row.game_number);
  }
  return messageGame.get(messageId);
};
const EDIT_PATH = /\/channels\/\d+\/messages\/(\d+)$/;
diagnostics.subscribe('undici:client:sendHeaders', (message) => {
  const { request } = message as { request: { method: string; path: string } };
  const edit = request.method === 'PATCH' ? EDIT_PATH.exec(request.path.split('?')[0]!) : null;
  if (edit === null) return;
  const game = gameOfMessage(edit[1]!);
  const board = game === undefined ? undefined : boardAt.get(game);
  if (game === undefined || board === undefined) return;
  boardAt.delete(game);
  const { at } = board;
  const latency = performance.now() - at;
  if (heldBack.delete(edit[1]!)) heldLatencies.push(latency);
  else if (board.ended) finalLatencies.push(latency);
  else if ((answeredAt.get(edit[1]!) ?? 0) > at) queuedLatencies.push(latency);
  else latencies.push(latency);
});
diagnostics.subscribe('undici:request:headers', (message) => {
  const { request } = message as { request: { method: string; path: string } };
  const edit = request.method === 'PATCH' ? EDIT_PATH.exec(request.path.split('?')[0]!) : null;
  if (edit === null) return;
  if (answeredAt.size > 1_000) answeredAt.clear();
  answeredAt.set(edit[1]!, performance.now());
});

const rest = { responses: 0, status429: 0, status5xx: 0, limitWaits: 0, globalWaits: 0 };
bot.client.rest.on('response', (_request, response) => {
  rest.responses++;
  if (response.status === 429) rest.status429++;
  if (response.status >= 500) rest.status5xx++;
});
bot.client.rest.on('rateLimited', (info) => {
  if (info.global) rest.globalWaits++;
  else rest.limitWaits++;
  const edit = info.method.toUpperCase() === 'PATCH' ? EDIT_PATH.exec(info.url.split('?')[0]!) : null;
  if (edit !== null) heldBack.add(edit[1]!);
});

async function metrics(): Promise<BotMetrics> {
  const ms = (ns: number): number => Math.max(0, ns / 1e6 - LOOP_RESOLUTION_MS);
  const cpu = process.cpuUsage(cpuSince);
  const memory = process.memoryUsage();
  const status = bot.context.fics.status();
  return {
    wallMs: performance.now() - since,
    cpuMs: (cpu.user + cpu.system) / 1000,
    rssBytes: memory.rss,
    rssMaxBytes: Math.max(rssMax, memory.rss),
    heapUsedBytes: memory.heapUsed,
    memory: {
      heapTotalBytes: memory.heapTotal,
      externalBytes: memory.external,
      rssAnonBytes: procStatusBytes('RssAnon'),
      rssFileBytes: procStatusBytes('RssFile'),
    },
    loop: {
      p50: ms(loop.percentile(50)),
      p99: ms(loop.percentile(99)),
      max: ms(loop.max),
      mean: ms(loop.mean),
    },
    editLatencyMs: latencies,
    updateTurnMs: updateTurns,
    heldEditLatencyMs: heldLatencies,
    queuedEditLatencyMs: queuedLatencies,
    finalEditLatencyMs: finalLatencies,
    rest: { ...rest },
    fics: {
      online: status.filter((c) => c.state === 'online').length,
      connections: status.length,
      games: status.reduce((n, c) => n + c.games.length, 0),
    },
    livePosts: (await storage.livePosts.listLive()).length,
    moves,
    statements: {
      reads: storage.statements.reads - statementsAt.reads,
      writes: storage.statements.writes - statementsAt.writes,
    },
    restHandlers: bot.client.rest.handlers.size,
    cachedMessages: bot.client.channels.cache.reduce(
      (n, channel) => n + ('messages' in channel ? channel.messages.cache.size : 0),
      0,
    ),
  };
}

/** A "kB" line of /proc/self/status (Linux), in bytes; 0 elsewhere. */
function procStatusBytes(field: string): number {
  try {
    const line = readFileSync('/proc/self/status', 'utf8')
      .split('\n')
      .find((l) => l.startsWith(`${field}:`));
    return line === undefined ? 0 : Number(/(\d+)/.exec(line)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

function reset(): void {
  loop.reset();
  since = performance.now();
  cpuSince = process.cpuUsage();
  rssMax = 0;
  latencies = [];
  updateTurns = [];
  heldLatencies = [];
  queuedLatencies = [];
  finalLatencies = [];
  for (const key of Object.keys(rest) as (keyof typeof rest)[]) rest[key] = 0;
  moves = 0;
  statementsAt = { ...storage.statements };
}

process.on('message', (message: ParentMessage) => void answer(message));

async function answer(message: ParentMessage): Promise<void> {
  if (message.type === 'stop') {
    await bot.stop().finally(() => process.exit(0));
    return;
  }
  if (message.type === 'allocations') {
    await sampleAllocations(message.write);
    send({ type: 'metrics', metrics: await metrics() });
    return;
  }
  if (message.sweep === true) await sweep();
  // Heap and RSS after a full collection (node --expose-gc): what a leak would grow.
  if (message.gc === true) (globalThis as { gc?: () => void }).gc?.();
  // For finding what grows: compare two snapshots (Chrome DevTools, Memory tab).
  if (message.heapSnapshot !== undefined) writeHeapSnapshot(message.heapSnapshot);
  send({ type: 'metrics', metrics: await metrics() });
  if (message.reset === true) reset();
}

let inspector: Session | null = null;

/**
 * What the bot allocates, sampled every 32 KB including what is collected at once (Node's
 * --heap-prof keeps only what is still alive): a `.heapprofile` for Chrome DevTools' Memory tab.
 */
async function sampleAllocations(write: string | undefined): Promise<void> {
  if (write === undefined) {
    inspector = new Session();
    inspector.connect();
    await inspector.post('HeapProfiler.startSampling', {
      samplingInterval: 32 * 1024,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    return;
  }
  if (inspector === null) return;
  const { profile } = await inspector.post('HeapProfiler.stopSampling');
  writeFileSync(write, JSON.stringify(profile));
  inspector.disconnect();
  inspector = null;
}

/**
 * A soak's hour lasts a minute: discord.js's hourly sweep of idle request queues (one per
 * interaction's webhook token) is done here at the soak's pace. discord.js counts no queue idle
 * while the global limit (50 requests a second) is spent, so the sweep waits for a fresh second.
 */
async function sweep(): Promise<void> {
  const rest = bot.client.rest;
  for (let tries = 0; tries < 20 && rest.globalRemaining <= 0 && Date.now() < rest.globalReset; tries++)
    await new Promise((resolve) => setTimeout(resolve, Math.max(1, rest.globalReset - Date.now())));
  rest.handlers.sweep((handler) => handler.inactive);
}
// The parent gone (killed, crashed) takes the bot with it.
process.on('disconnect', () => void bot.stop().finally(() => process.exit(0)));

send({ type: 'ready', pid: process.pid });
