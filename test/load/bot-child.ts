// Runs bot-process.ts as a child process (node --import tsx, or compiled as `npm start` runs the
// bot) and talks to it over IPC: wait until it is up, read its meters, stop it, or kill it with
// SIGKILL as a crash would.
import { fork, spawnSync, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { openSync, closeSync } from 'node:fs';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { BotMetrics, ChildMessage, ParentMessage } from './bot-process.js';

const ENTRY = fileURLToPath(new URL('./bot-process.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** bot-process.ts and the bot compiled into dist/ (tsconfig.load.json), as `npm start` runs it. */
const COMPILED_ENTRY = fileURLToPath(new URL('../../dist/test/load/bot-process.js', import.meta.url));

/** Compiles the bot and its meters into dist/ (about 10 s); throws when the build fails. */
export function buildCompiledBot(): void {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const built = spawnSync(process.execPath, [tsc, '-p', 'test/load/tsconfig.load.json'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (built.status !== 0) throw new Error('the compiled bot did not build');
}

export interface BotChildOptions {
  env: Record<string, string>;
  /** Pool settings beyond the configuration (back-offs, timeouts). */
  fics?: Record<string, unknown>;
  /** The bot's log (JSON lines) goes to this file; discarded when omitted. */
  logFile?: string;
  /** Give up when the bot has not started by then. */
  startTimeoutMs?: number;
  /** More node options for the bot (e.g. `--cpu-prof`). */
  nodeOptions?: string[];
  /** Runs the compiled bot (buildCompiledBot() first) instead of the sources under tsx. */
  compiled?: boolean;
  /**
   * Runs this compiled bot-process.js with plain node instead (a test run's build:
   * `built('test/load/bot-process.ts')`, test/support/processes.ts).
   */
  entry?: string;
}

export class BotChild {
  private waiting: ((metrics: BotMetrics) => void)[] = [];
  private constructor(readonly process: ChildProcess) {
    process.on('message', (message: ChildMessage) => {
      if (message.type === 'metrics') this.waiting.shift()?.(message.metrics);
    });
  }

  /** Starts the bot and resolves once it is logged in to Discord. */
  static async start(options: BotChildOptions): Promise<BotChild> {
    const log = options.logFile === undefined ? 'ignore' : openSync(options.logFile, 'a');
    const child = fork(options.entry ?? (options.compiled === true ? COMPILED_ENTRY : ENTRY), [], {
      execArgv: [
        // Compiled, with the V8 settings of package.json's start script.
        ...(options.compiled === true ? ['--max-semi-space-size=4', '--heap-growing-percent=100'] : []),
        ...(options.entry === undefined && options.compiled !== true ? ['--import', 'tsx'] : []),
        '--expose-gc',
        ...(options.nodeOptions ?? []),
      ],
      env: {
        PATH: process.env.PATH ?? '',
        // glibc's arenas: `npm start` sets 2 (package.json); set it here to run as it does.
        ...(process.env.MALLOC_ARENA_MAX === undefined
          ? {}
          : { MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX }),
        ...options.env,
        KIBITZ_LOAD_FICS: JSON.stringify(options.fics ?? {}),
      },
      stdio: ['ignore', log, log, 'ipc'],
    });
    if (typeof log === 'number') closeSync(log);
    const started = await Promise.race([
      once(child, 'message') as Promise<[ChildMessage]>,
      once(child, 'exit').then(([code]) => [{ type: 'failed', error: `bot exited with ${String(code)}` }]),
      new Promise<[ChildMessage]>((resolve) =>
        setTimeout(
          () => resolve([{ type: 'failed', error: 'bot did not start in time' }]),
          options.startTimeoutMs ?? 60_000,
        ).unref(),
      ),
    ]);
    const message = started[0] as ChildMessage;
    if (message.type !== 'ready') {
      child.kill('SIGKILL');
      throw new Error(`the bot did not start: ${message.type === 'failed' ? message.error : message.type}`);
    }
    return new BotChild(child);
  }

  get pid(): number {
    return this.process.pid!;
  }

  /** The meters now; `reset` starts a new window, `gc` collects garbage first, `sweep` (see bot-process.ts). */
  metrics(
    options: { reset?: boolean; gc?: boolean; sweep?: boolean; heapSnapshot?: string } = {},
  ): Promise<BotMetrics> {
    return new Promise((resolve, reject) => {
      // A heap snapshot of a bot at 1,000 games takes over 30 s on a loaded machine.
      const timeoutMs = options.heapSnapshot === undefined ? 30_000 : 300_000;
      const timer = setTimeout(() => reject(new Error('the bot did not answer for its metrics')), timeoutMs);
      this.waiting.push((metrics) => {
        clearTimeout(timer);
        resolve(metrics);
      });
      this.send({ type: 'metrics', ...options });
    });
  }

  /** Starts sampling the bot's allocations, or (`write`) stops and writes them (bot-process.ts). */
  allocations(write?: string): Promise<BotMetrics> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.send({ type: 'allocations', ...(write === undefined ? {} : { write }) });
    });
  }

  /** Stops the bot as SIGTERM would (clean logout); SIGKILL after `timeoutMs`. */
  async stop(timeoutMs = 10_000): Promise<void> {
    if (this.process.exitCode !== null || this.process.signalCode !== null) return;
    const exited = once(this.process, 'exit');
    this.send({ type: 'stop' });
    const timer = setTimeout(() => this.process.kill('SIGKILL'), timeoutMs);
    await exited;
    clearTimeout(timer);
  }

  /** Ends the bot at once, as a crash or `kill -9` would: nothing is flushed. */
  async kill(): Promise<void> {
    if (this.process.exitCode !== null || this.process.signalCode !== null) return;
    const exited = once(this.process, 'exit');
    this.process.kill('SIGKILL');
    await exited;
  }

  private send(message: ParentMessage): void {
    this.process.send(message);
  }
}
