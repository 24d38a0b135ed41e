// The measured side of `npm run limits`: one scenario in a process of its own, so that its
// resident memory and event loop are Kibitz's alone. Told what to do by the parent over IPC;
// answers with figures.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pino } from 'pino';
import { readSource } from '../../src/chesslive/source.js';
import { FicsPool } from '../../src/fics/pool.js';
import { ChessLiveFeed } from '../../src/chesslive/feed.js';
import { gameId, gameNumber } from '../support/fics-values.js';

export type Scenario =
  | { kind: 'line'; port: number; game: number }
  | { kind: 'banner'; port: number }
  | { kind: 'body'; url: string }
  | { kind: 'grow'; path: string; pollMs: number; maxPlies: number; finalPlies: number };

export type ChildReport =
  | { type: 'ready'; idleRss: number }
  | {
      type: 'done';
      idleRss: number;
      peakRss: number;
      maxRss: number;
      detail: Record<string, number | string>;
    };

const send = (report: ChildReport): void => void process.send!(report);
const gc = (): void => (globalThis as { gc?: () => void }).gc?.();

/** Samples the resident memory every few milliseconds; `peak` is the highest seen. */
function rssSampler(): { peak: () => number; stop: () => void } {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 2);
  return { peak: () => Math.max(peak, process.memoryUsage.rss()), stop: () => clearInterval(timer) };
}

async function settled(): Promise<number> {
  gc();
  await new Promise((resolve) => setTimeout(resolve, 500));
  gc();
  return process.memoryUsage.rss();
}

const go = (): Promise<void> => new Promise((resolve) => process.once('message', () => resolve()));
const maxRss = (): number => process.resourceUsage().maxRSS * 1024;

async function line(s: Extract<Scenario, { kind: 'line' }>): Promise<void> {
  let warnings = 0;
  const count = (): void => void warnings++;
  const logger = { debug: () => {}, info: () => {}, warn: count, error: count };
  const pool = new FicsPool({ host: '127.0.0.1', port: s.port, logger });
  await pool.start();
  await pool.observeGame(gameNumber(s.game));
  // The server played one move before: once it is in, the next is the one after the line.
  const first = await new Promise<number>((resolve) => {
    const known = pool.snapshot(gameId(s.game))?.san.length ?? 0;
    if (known > 0) return resolve(known);
    pool.on('update', (u) => {
      if (u.type === 'moved' || u.type === 'started')
        if (u.snapshot.san.length > 0) resolve(u.snapshot.san.length);
    });
  });
  // The move the server sends after the line.
  const moved = new Promise<number>((resolve) =>
    pool.on('update', (u) => {
      if (u.type === 'moved' && u.snapshot.san.length > first) resolve(u.snapshot.san.length);
    }),
  );
  const idleRss = await settled();
  const sampler = rssSampler();
  send({ type: 'ready', idleRss });
  const started = performance.now();
  const plies = await moved;
  sampler.stop();
  const seconds = (performance.now() - started) / 1000;
  send({
    type: 'done',
    idleRss,
    peakRss: sampler.peak(),
    maxRss: maxRss(),
    detail: { plies, warnings, seconds },
  });
  pool.close();
}

async function banner(s: Extract<Scenario, { kind: 'banner' }>): Promise<void> {
  const idleRss = await settled();
  const sampler = rssSampler();
  send({ type: 'ready', idleRss });
  await go();
  const started = performance.now();
  const cpu = process.cpuUsage();
  const pool = new FicsPool({ host: '127.0.0.1', port: s.port });
  await pool.start();
  const { user, system } = process.cpuUsage(cpu);
  sampler.stop();
  const seconds = (performance.now() - started) / 1000;
  pool.close();
  send({
    type: 'done',
    idleRss,
    peakRss: sampler.peak(),
    maxRss: maxRss(),
    detail: { 'logged in after s': seconds, 'CPU s': (user + system) / 1e6 },
  });
}

async function body(s: Extract<Scenario, { kind: 'body' }>): Promise<void> {
  const idleRss = await settled();
  const sampler = rssSampler();
  send({ type: 'ready', idleRss });
  await go();
  const started = performance.now();
  const error = await readSource({ name: 'big', kind: 'url', location: s.url }).then(
    () => 'read whole',
    (e: Error) => e.message,
  );
  sampler.stop();
  const seconds = (performance.now() - started) / 1000;
  send({ type: 'done', idleRss, peakRss: sampler.peak(), maxRss: maxRss(), detail: { error, seconds } });
}

async function grow(s: Extract<Scenario, { kind: 'grow' }>): Promise<void> {
  const logger = pino({ level: 'silent' });
  const feed = new ChessLiveFeed({
    sources: [{ name: 'grow', kind: 'file', location: s.path }],
    pollMs: s.pollMs,
    maxPlies: s.maxPlies,
    logger,
  });
  const idleRss = await settled();
  const sampler = rssSampler();
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const observeStarted = performance.now();
  const game = await feed.observeGame(feed.gameOf('grow')!);
  const observeMs = performance.now() - observeStarted;
  const initial = feed.snapshot(game)!.san.length;
  const done = new Promise<number>((resolve) =>
    feed.on('update', (u) => {
      if (
        u.type !== 'needs' &&
        u.type !== 'undecoded' &&
        (u.snapshot.san.length >= s.finalPlies || u.type === 'ended')
      )
        resolve(u.snapshot.san.length);
    }),
  );
  send({ type: 'ready', idleRss });
  const plies = await done;
  delay.disable();
  sampler.stop();
  feed.close();
  const ms = (ns: number): number => ns / 1e6;
  send({
    type: 'done',
    idleRss,
    peakRss: sampler.peak(),
    maxRss: maxRss(),
    detail: {
      initialPlies: initial,
      finalPlies: plies,
      observeMs,
      p50: ms(delay.percentile(50)),
      p99: ms(delay.percentile(99)),
      max: ms(delay.max),
    },
  });
}

const scenario = JSON.parse(process.env.KIBITZ_LIMITS_SCENARIO ?? '{}') as Scenario;
const run = { line, banner, body, grow }[scenario.kind] as (s: Scenario) => Promise<void>;
await run(scenario);
process.disconnect();
