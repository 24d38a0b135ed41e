// The real engines through the process driver and the pool: the native Stockfish KIBITZ_ENGINE=on
// finds, and the npm package's build when it is installed. An engine that is not installed has its
// tests skipped, and they say so (or fail, where KIBITZ_REQUIRE lists stockfish: the one
// KIBITZ_ENGINE=on would run must be there).
import { accessSync, chmodSync, constants, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  DEBIAN_STOCKFISH,
  locateEngine,
  locateNpmStockfish,
  type EngineProgram,
} from '../../src/engine/locate.js';
import { EnginePool, type EngineJob } from '../../src/engine/pool.js';
import { StockfishProcess, type Analyser, type AnalysisRequest } from '../../src/engine/stockfish.js';
import { makeEvaluationText, parseInfo, type Evaluation } from '../../src/engine/uci.js';
import { describeWith, stockfishNeed } from '../support/require.js';
import { waitFor } from '../support/wait.js';

const found = locateEngine({ path: null, searchPath: process.env.PATH ?? '' });
const native = found.ok && found.value.kind === 'native' ? found.value : null;
const npmScript = locateNpmStockfish();
const npm: EngineProgram | null =
  npmScript === null ? null : { command: process.execPath, args: [npmScript], kind: 'npm' };
// The npm build is an alternative the operator may install (docs/engine.md), not a dependency:
// its process tests exist only where it is installed.
if (npm === null)
  console.info('the optional npm stockfish package is not installed: its build is not tested');
/** The engine the pool tests run: the one KIBITZ_ENGINE=on would. */
const program = native ?? npm;
const withEngine = describeWith(stockfishNeed());

/** White to move mates with Ra8 (back-rank mate). */
const MATE_IN_ONE_WHITE = '6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1';
/** The same pattern for Black: ...Ra1#. */
const MATE_IN_ONE_BLACK = 'r5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1';
/** Black is a queen up, White to move: clearly lost for White. */
const BLACK_WINS = 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNB1KBNR w KQkq - 0 3';

const never = new AbortController().signal;

const programs = [native, npm].filter((p): p is EngineProgram => p !== null);

describe.each(programs.map((p) => [p.kind, p] as const))('Stockfish process (%s)', (_kind, engineProgram) => {
  const engine = new StockfishProcess(engineProgram, { movetimeMs: 300 });
  afterAll(() => engine.close());

  it('evaluates a mate in one as #1 with the mating move', async () => {
    const evaluation = await engine.analyse({ fen: MATE_IN_ONE_WHITE, chess960: false }, never);
    expect(evaluation).not.toBeNull();
    expect(makeEvaluationText(evaluation!.score)).toBe('#1');
    expect(evaluation!.bestMove).toBe('a1a8');
  });

  it("gives Black's mate from White's point of view: #-1", async () => {
    const evaluation = await engine.analyse({ fen: MATE_IN_ONE_BLACK, chess960: false }, never);
    expect(makeEvaluationText(evaluation!.score)).toBe('#-1');
    expect(evaluation!.bestMove).toBe('a8a1');
  });

  it('a queen down for White is a large negative score', async () => {
    const evaluation = await engine.analyse({ fen: BLACK_WINS, chess960: false }, never);
    expect('cp' in evaluation!.score && evaluation!.score.cp < -500).toBe(true);
    expect(makeEvaluationText(evaluation!.score)).toMatch(/^-\d/);
  });

  it('analyses chess960 positions (UCI_Chess960), then standard chess again', async () => {
    // Start position 518 shifted: king on f1 between rooks on e1 and g1.
    const evaluation = await engine.analyse(
      { fen: 'bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1', chess960: true },
      never,
    );
    expect(evaluation).not.toBeNull();
    // Back to standard chess on the same engine.
    const standard = await engine.analyse({ fen: MATE_IN_ONE_WHITE, chess960: false }, never);
    expect(makeEvaluationText(standard!.score)).toBe('#1');
  });

  it('a stopped analysis gives no evaluation, and the engine takes the next one', async () => {
    const stop = new AbortController();
    const pending = engine.analyse({ fen: BLACK_WINS, chess960: false }, stop.signal);
    stop.abort();
    expect(await pending).toBeNull();
    const next = await engine.analyse({ fen: MATE_IN_ONE_WHITE, chess960: false }, never);
    expect(makeEvaluationText(next!.score)).toBe('#1');
  });

  it('refuses text that is not a FEN (nothing else reaches the engine)', async () => {
    await expect(
      engine.analyse({ fen: '8/8/8/8/8/8/8/8 w - - 0 1\nquit', chess960: false }, never),
    ).rejects.toThrow(/not a FEN/);
  });
});

const debianInstalled = (): boolean => {
  try {
    accessSync(DEBIAN_STOCKFISH, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

describe('locating the engine', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kibitz-engine-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  /** An executable file named `stockfish` in a directory of its own (never run here). */
  const fakeStockfish = (name: string, mode = 0o755): string => {
    mkdirSync(join(dir, name));
    const path = join(dir, name, 'stockfish');
    writeFileSync(path, '#!/bin/sh\n');
    chmodSync(path, mode);
    return path;
  };

  it('KIBITZ_ENGINE_PATH: that program, or why not, and nothing else is looked for', () => {
    const path = fakeStockfish('given');
    const onPath = fakeStockfish('on-path');
    expect(locateEngine({ path, searchPath: join(dir, 'on-path') })).toEqual({
      ok: true,
      value: { command: path, args: [], kind: 'native' },
    });
    expect(locateEngine({ path: join(dir, 'missing'), searchPath: onPath })).toEqual({
      ok: false,
      error: `KIBITZ_ENGINE_PATH=${join(dir, 'missing')} is not an executable file`,
    });
    const plain = fakeStockfish('not-executable', 0o644);
    expect(locateEngine({ path: plain, searchPath: '' }).ok).toBe(false);
  });

  it("a stockfish on PATH comes first, in PATH order, an unexecutable one and npm's .bin skipped", () => {
    fakeStockfish('first', 0o644);
    fakeStockfish('.bin');
    const second = fakeStockfish('second');
    const searchPath = [join(dir, 'empty'), join(dir, 'first'), join(dir, '.bin'), join(dir, 'second')].join(
      delimiter,
    );
    expect(locateEngine({ path: null, searchPath })).toEqual({
      ok: true,
      value: { command: second, args: [], kind: 'native' },
    });
  });

  it("without one on PATH: Debian's, else the npm package, else why there is none", () => {
    const found = locateEngine({ path: null, searchPath: '', from: '/tmp/nowhere/x.js' });
    if (debianInstalled()) {
      expect(found).toEqual({ ok: true, value: { command: DEBIAN_STOCKFISH, args: [], kind: 'native' } });
    } else {
      expect(found).toEqual({
        ok: false,
        error: expect.stringMatching(/^no stockfish on PATH nor at \/usr\/games\/stockfish/),
      });
    }
    expect(locateNpmStockfish('/tmp/nowhere/x.js')).toBeNull();
  });
});

describe('UCI lines', () => {
  it('reads the score and main line of an info line, and skips others', () => {
    expect(parseInfo('info depth 12 seldepth 14 multipv 1 score cp 31 nodes 1 pv e2e4 c7c5')).toEqual({
      depth: 12,
      score: { cp: 31 },
      bound: false,
      pv: ['e2e4', 'c7c5'],
    });
    expect(parseInfo('info depth 3 multipv 2 score cp 1 pv e2e4')).toBeNull();
    expect(parseInfo('info string NNUE evaluation using nn.nnue')).toBeNull();
    expect(makeEvaluationText({ cp: 80 })).toBe('+0.8');
    expect(makeEvaluationText({ cp: -4 })).toBe('0.0');
    expect(makeEvaluationText({ cp: -1549 })).toBe('-15');
    expect(makeEvaluationText({ mate: -3 })).toBe('#-3');
  });
});

/** The real engine, counting what it is given and how many run at once. */
class Counted implements Analyser {
  static running = 0;
  static maxRunning = 0;
  static analysed: string[] = [];
  constructor(private readonly engine: StockfishProcess) {}
  async analyse(request: AnalysisRequest, signal: AbortSignal): Promise<Evaluation | null> {
    Counted.running++;
    Counted.maxRunning = Math.max(Counted.maxRunning, Counted.running);
    Counted.analysed.push(request.fen);
    try {
      return await this.engine.analyse(request, signal);
    } finally {
      Counted.running--;
    }
  }
  close(): void {
    this.engine.close();
  }
}

withEngine('engine pool', () => {
  it('never runs more than its size, and analyses no position its game has left', async () => {
    const results: { job: EngineJob; evaluation: Evaluation }[] = [];
    const pool = new EnginePool({
      size: 2,
      maxQueued: 8,
      analyser: () => new Counted(new StockfishProcess(program!, { movetimeMs: 50 })),
      onResult: (job, evaluation) => results.push({ job, evaluation }),
    });
    try {
      // 4 games, 5 positions each, all at once: the queue has room, so each game's waiting
      // position is replaced by its next one; then 12 more games at once overflow the queue.
      const fenOf = (game: number, move: number): string =>
        `6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - ${game} ${move + 1}`;
      for (let move = 0; move < 5; move++)
        for (let game = 0; game < 4; game++)
          pool.submit({ key: `g${game}`, fen: fenOf(game, move), chess960: false });
      expect(pool.stats().replaced).toBeGreaterThan(0);
      for (let game = 4; game < 16; game++)
        pool.submit({ key: `g${game}`, fen: fenOf(game, 4), chess960: false });
      expect(pool.stats().queued).toBe(8);
      expect(pool.stats().dropped).toBeGreaterThan(0);
      await waitFor(
        () => pool.stats().running === 0 && pool.stats().queued === 0,
        'the pool to drain',
        30_000,
      );
      const stats = pool.stats();
      expect(Counted.maxRunning).toBe(2);
      // Only games' last positions are analysed to the end; any other one was already running
      // when its game moved on, and was stopped.
      const last = new Set(Array.from({ length: 16 }, (_, game) => fenOf(game, 4)));
      const stale = Counted.analysed.filter((fen) => !last.has(fen));
      expect(stats.stopped).toBe(stale.length);
      expect(stale.length).toBeLessThanOrEqual(2);
      expect(results.every(({ job }) => last.has(job.fen))).toBe(true);
      expect(results.length).toBe(stats.analysed);
      // Each game's last position once at most: 2 running + 8 queued + whatever ran meanwhile.
      expect(new Set(results.map(({ job }) => job.key)).size).toBe(results.length);
    } finally {
      pool.close();
    }
  });
});
