// Rendering off the main thread. A whole-game GIF takes 60-80 ms of CPU (and a cold first one
// several hundred): done on the bot's event loop, every game end would stall the edits of every
// other game behind it. Worker threads take that work; the main thread only posts scenes and gets
// bytes back (moved, not copied). Errors are values: a crashed worker fails its own renders and is
// started again for the next one.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ChartScene } from './chart.js';
import type { GifOptions } from './game-gif.js';
import { RENDERER_CLOSED, type Renderer } from './renderer.js';
import type { BoardScene, RenderResult } from './scene.js';

/** What the main thread sends a worker. */
export type RenderRequest =
  | { id: number; kind: 'png'; scene: BoardScene }
  | { id: number; kind: 'gif'; scenes: BoardScene[]; options?: GifOptions }
  | { id: number; kind: 'chart'; scene: ChartScene };

/** What a worker answers. */
export type RenderResponse =
  { id: number; ok: true; bytes: Uint8Array } | { id: number; ok: false; error: string };

export interface RenderPoolOptions {
  /** Worker threads; by default one per core the main thread leaves, from 1 to 4. */
  workers?: number;
}

type Task =
  | { kind: 'png'; scene: BoardScene }
  | { kind: 'gif'; scenes: BoardScene[]; options?: GifOptions }
  | { kind: 'chart'; scene: ChartScene };

interface Thread {
  worker: Worker;
  pending: Map<number, (result: RenderResult<Buffer>) => void>;
}

export class RenderPool implements Renderer {
  /** A slot is null until its first render and after its worker died. */
  private readonly threads: (Thread | null)[];
  private nextId = 1;
  private closed = false;

  constructor(options: RenderPoolOptions = {}) {
    const size = options.workers ?? Math.min(4, Math.max(1, availableParallelism() - 1));
    this.threads = Array.from({ length: Math.max(1, size) }, () => null);
  }

  png(scene: BoardScene): Promise<RenderResult<Buffer>> {
    return this.run({ kind: 'png', scene });
  }

  gif(scenes: BoardScene[], options?: GifOptions): Promise<RenderResult<Buffer>> {
    return this.run({ kind: 'gif', scenes, ...(options === undefined ? {} : { options }) });
  }

  chart(scene: ChartScene): Promise<RenderResult<Buffer>> {
    return this.run({ kind: 'chart', scene });
  }

  /** Starts every thread now, so that the first render does not wait for one to load. */
  warm(): void {
    if (this.closed) return;
    for (let slot = 0; slot < this.threads.length; slot++) if (this.threads[slot] === null) this.spawn(slot);
  }

  /**
   * Renders still waiting when the pool closes fail with RENDERER_CLOSED; later ones fail at once.
   * Resolves to how many were waiting, for one line at the bot's stop instead of one per render.
   */
  async close(): Promise<number> {
    this.closed = true;
    const running = this.threads.filter((t): t is Thread => t !== null);
    this.threads.fill(null);
    const waiting = running.reduce((sum, thread) => sum + thread.pending.size, 0);
    for (const thread of running) this.fail(thread, RENDERER_CLOSED);
    await Promise.all(running.map((t) => t.worker.terminate()));
    return waiting;
  }

  private run(task: Task): Promise<RenderResult<Buffer>> {
    if (this.closed) return Promise.resolve({ ok: false, error: RENDERER_CLOSED });
    const thread = this.leastBusy();
    const id = this.nextId++;
    return new Promise((resolve) => {
      thread.pending.set(id, resolve);
      // Only a thread with work keeps the process alive.
      thread.worker.ref();
      thread.worker.postMessage({ ...task, id } satisfies RenderRequest);
    });
  }

  private leastBusy(): Thread {
    let best = 0;
    for (let i = 0; i < this.threads.length; i++) {
      const thread = this.threads[i] ?? null;
      if (thread === null) {
        best = i;
        break;
      }
      if (thread.pending.size < this.threads[best]!.pending.size) best = i;
    }
    return this.threads[best] ?? this.spawn(best);
  }

  private spawn(slot: number): Thread {
    const thread: Thread = { worker: startWorker(), pending: new Map() };
    this.threads[slot] = thread;
    thread.worker.on('message', (response: RenderResponse) => {
      const resolve = thread.pending.get(response.id);
      thread.pending.delete(response.id);
      if (thread.pending.size === 0) thread.worker.unref();
      resolve?.(
        response.ok
          ? {
              ok: true,
              value: Buffer.from(response.bytes.buffer, response.bytes.byteOffset, response.bytes.length),
            }
          : { ok: false, error: response.error },
      );
    });
    const lost = (why: string): void => {
      if (this.threads[slot] === thread) this.threads[slot] = null;
      this.fail(thread, why);
    };
    thread.worker.on('error', (error) => lost(`the render worker failed: ${error.message}`));
    thread.worker.on('exit', (code) => lost(`the render worker stopped (exit code ${code})`));
    // After the listeners: a 'message' listener refs the worker's port again, and an idle pool
    // (warmed, never used) would then keep its process alive.
    thread.worker.unref();
    return thread;
  }

  private fail(thread: Thread, error: string): void {
    for (const resolve of thread.pending.values()) resolve({ ok: false, error });
    thread.pending.clear();
  }
}

/**
 * A render thread's young generation (where V8 puts new objects) kept to 8 MB: V8 lets it grow to
 * 32 MB or more per thread under allocation, yet drawing keeps few objects alive (the pixels live
 * outside the JavaScript heap). Measured at 300 games: 20 MB less memory for the two threads.
 */
const RESOURCE_LIMITS = { maxYoungGenerationSizeMb: 8 };

function startWorker(): Worker {
  const here = import.meta.url;
  const typescript = here.endsWith('.ts');
  const entry = new URL(`./render-worker.${typescript ? 'ts' : 'js'}`, here);
  if (!typescript) return new Worker(entry, { resourceLimits: RESOURCE_LIMITS });
  // Run from source (tsx: npm start, the tests), the thread needs the TypeScript loader as well.
  const loader = import.meta.resolve('tsx/esm/api');
  const code = `import { register } from ${JSON.stringify(loader)}; register(); await import(${JSON.stringify(entry.href)});`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(code)}`), {
    resourceLimits: RESOURCE_LIMITS,
  });
}
