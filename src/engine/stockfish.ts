// One UCI engine process: a native Stockfish, or the npm `stockfish` package's lite single-threaded
// build (WebAssembly) under Node (engine/locate.ts chooses). Either runs as its own process, which
// keeps its memory, its CPU and a crash away from the bot's event loop.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { setPriority } from 'node:os';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { EngineProgram } from './locate.js';
import { parseBestMove, parseInfo, whiteScore, type Evaluation, type InfoLine } from './uci.js';

/** How long one analysis is given: a fixed time or a fixed depth per position. */
export type EngineLimit = { movetimeMs: number } | { depth: number };

export interface AnalysisRequest {
  /** Standard chess FEN (castling rights as KQkq, or file letters in chess960). */
  fen: string;
  chess960: boolean;
}

/** What the pool runs analyses on: one at a time. */
export interface Analyser {
  /** The evaluation (White's point of view), or null when stopped by `signal` first. */
  analyse(request: AnalysisRequest, signal: AbortSignal): Promise<Evaluation | null>;
  close(): void;
}

/** A FEN as the engine may be sent it: six fields of FEN characters, nothing that ends a line. */
const FEN_TEXT = /^[1-8pnbrqkPNBRQK/]+ [wb] (-|[KQkqA-Ha-h]+) (-|[a-h][36]) \d+ \d+$/;

/** Scheduling priority of engine processes (0 normal, 19 lowest); raising it needs no privilege. */
const ENGINE_NICENESS = 10;

/** Time the engine is given over its time before it counts as hung and is restarted. */
const GRACE_MS = 10_000;
/** The same for a search to a fixed depth, whose time depends on the position. */
const DEPTH_TIMEOUT_MS = 60_000;

type EngineChild = ChildProcessByStdio<Writable, Readable, null>;

export class StockfishProcess implements Analyser {
  private child: EngineChild | null = null;
  private started: Promise<void> | null = null;
  private listener: ((line: string) => void) | null = null;
  private chess960 = false;
  private busy = false;
  /** Analyses finished (for measurements and tests). */
  analysed = 0;

  constructor(
    private readonly program: EngineProgram,
    private readonly limit: EngineLimit,
  ) {}

  /** The process id while it runs (measurements read its CPU time). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  async analyse(request: AnalysisRequest, signal: AbortSignal): Promise<Evaluation | null> {
    if (this.busy) throw new Error('one analysis at a time per engine');
    if (!FEN_TEXT.test(request.fen))
      throw new Error(`not a FEN the engine takes: "${request.fen.slice(0, 100)}"`);
    this.busy = true;
    try {
      await this.start();
      if (signal.aborted) return null;
      // Commands go only while the engine is idle: the npm build crashes on `position` mid-search.
      if (request.chess960 !== this.chess960) {
        this.send(`setoption name UCI_Chess960 value ${request.chess960}`);
        this.chess960 = request.chess960;
      }
      this.send(`position fen ${request.fen}`);
      this.send(
        'movetimeMs' in this.limit ? `go movetime ${this.limit.movetimeMs}` : `go depth ${this.limit.depth}`,
      );
      const sideToMove = request.fen.split(' ')[1] === 'b' ? 'black' : 'white';
      const result = await this.search(signal);
      this.analysed++;
      if (result === null || signal.aborted) return null;
      return {
        score: whiteScore(result.info.score, sideToMove),
        bestMove: result.bestMove,
        depth: result.info.depth,
      };
    } finally {
      this.busy = false;
    }
  }

  close(): void {
    // SIGKILL: the engine holds nothing to save, and a stopped or wedged process would leave a
    // SIGTERM pending forever beside its replacement.
    this.child?.kill('SIGKILL');
    this.child = null;
    this.started = null;
  }

  /** Waits for `bestmove`; the last exact score seen is the evaluation. */
  private search(signal: AbortSignal): Promise<{ info: InfoLine; bestMove: string | null } | null> {
    return new Promise((resolve, reject) => {
      let last: InfoLine | null = null;
      const stop = (): void => this.send('stop');
      const timeoutMs = 'movetimeMs' in this.limit ? this.limit.movetimeMs + GRACE_MS : DEPTH_TIMEOUT_MS;
      const timer = setTimeout(() => {
        done();
        this.close();
        reject(new Error('the engine did not answer in time: restarted'));
      }, timeoutMs);
      const done = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', stop);
        this.listener = null;
      };
      signal.addEventListener('abort', stop, { once: true });
      this.listener = (line) => {
        if (line === '') {
          done();
          reject(new Error('the engine stopped'));
          return;
        }
        const info = parseInfo(line);
        if (info !== null && (!info.bound || last === null)) last = info;
        const best = parseBestMove(line);
        if (best === undefined) return;
        done();
        resolve(last === null ? null : { info: last, bestMove: best });
      };
    });
  }

  private start(): Promise<void> {
    this.started ??= new Promise<void>((resolve, reject) => {
      const child = spawn(this.program.command, this.program.args, { stdio: ['pipe', 'pipe', 'ignore'] });
      this.child = child;
      // The engine yields the CPU to the bot: a board edit never waits for a search's time slice.
      try {
        if (child.pid !== undefined) setPriority(child.pid, ENGINE_NICENESS);
      } catch {
        // A system that refuses it runs the engine at normal priority.
      }
      child.stdin.on('error', () => undefined);
      const fail = (error: Error): void => {
        if (this.child === child) this.close();
        reject(error);
        // A search waiting for its `bestmove` learns the engine is gone.
        this.listener?.('');
      };
      child.on('error', fail);
      child.on('exit', (code) => fail(new Error(`the engine exited (${code ?? 'killed'})`)));
      createInterface({ input: child.stdout }).on('line', (line) => {
        if (line === 'readyok' && this.listener === null) resolve();
        else this.listener?.(line);
      });
      this.send('uci');
      this.send('isready');
    });
    return this.started;
  }

  private send(command: string): void {
    this.child?.stdin.write(`${command}\n`);
  }
}
