// What the live page learns of a game's evaluations (`LiveEvaluations.latest`): the newest one while
// a post asks for the game's current position, with its ply, and nothing once no post asks or the
// game is over. The pool is the real one; its engine is a stand-in the test answers by hand.
import { describe, expect, it } from 'vitest';
import { parseChessLive } from '../../src/chesslive/read.js';
import { snapshotOfRead } from '../../src/chesslive/source.js';
import { EnginePool } from '../../src/engine/pool.js';
import type { AnalysisRequest, Analyser } from '../../src/engine/stockfish.js';
import type { Evaluation } from '../../src/engine/uci.js';
import type { GameSnapshot } from '../../src/game/snapshot.js';
import { LiveEvaluations } from '../../src/relay/evaluations.js';
import { gameId } from '../support/fics-values.js';

const MOVES = ['e2:e4/0/0/299', 'e7:e5/0/0/298', 'g1:f3/0/0/295/N', 'b8:c6/0/0/290/N'];

function game(plies: number): GameSnapshot {
  const read = parseChessLive(`Alice;Bob;${MOVES.slice(0, plies).join(';')}`);
  if (!read.ok) throw new Error(read.error.message);
  return { ...snapshotOfRead(read.value, { key: '1:1', game: gameId(1), source: 'x' }), source: null };
}

/** An engine that answers each position when the test says so. */
function handEngine() {
  const waiting: { request: AnalysisRequest; answer: (e: Evaluation | null) => void }[] = [];
  const analyser: Analyser = {
    analyse: (request, signal) =>
      new Promise((resolve) => {
        waiting.push({ request, answer: resolve });
        signal.addEventListener('abort', () => resolve(null));
      }),
    close: () => undefined,
  };
  return {
    analyser,
    /** Answers the oldest position waiting with `cp`. */
    answer(cp: number): string {
      const next = waiting.shift();
      if (next === undefined) throw new Error('the engine was asked nothing');
      next.answer({ score: { cp }, bestMove: null, depth: 1 });
      return next.request.fen;
    },
  };
}

function setUp() {
  const engine = handEngine();
  const heard: string[] = [];
  const pool = new EnginePool({
    size: 1,
    maxQueued: 10,
    analyser: () => engine.analyser,
    // Results come after the set-up returned: `evaluations` is set by then.
    onResult: (job, evaluation) => evaluations.result(job, evaluation),
  });
  const evaluations = new LiveEvaluations({ pool });
  evaluations.onEvaluated((_game, fen) => heard.push(fen));
  evaluations.setChoice(7, { eval: true, arrow: false });
  /** Lets the pool's promises settle. */
  const settled = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
  return { engine, heard, evaluations, pool, settled };
}

describe('LiveEvaluations.latest', () => {
  it('gives the evaluation of the current position, or the last one while the engine thinks', async () => {
    const { engine, heard, evaluations, pool, settled } = setUp();
    const two = game(2);
    expect(evaluations.latest(two)).toBeNull();
    evaluations.request(two, [7]);
    await settled();
    expect(evaluations.latest(two)).toBeNull();
    expect(engine.answer(80)).toBe(two.fen);
    await settled();
    expect(heard).toEqual([two.fen]);
    expect(evaluations.latest(two)).toEqual({ fen: two.fen, ply: 2, score: { cp: 80 } });

    // The next move, asked for: the last evaluation until the engine has this one.
    const three = game(3);
    evaluations.request(three, [7]);
    await settled();
    expect(evaluations.latest(three)).toEqual({ fen: two.fen, ply: 2, score: { cp: 80 } });
    expect(engine.answer(-40)).toBe(three.fen);
    await settled();
    expect(evaluations.latest(three)).toEqual({ fen: three.fen, ply: 3, score: { cp: -40 } });

    // No post asks for the next position (the engine was turned off): nothing to show.
    evaluations.setChoice(7, { eval: false, arrow: false });
    const four = game(4);
    evaluations.request(four, [7]);
    expect(evaluations.latest(four)).toBeNull();
    // The end: nothing either.
    expect(evaluations.latest({ ...three, ended: true, result: '1-0' })).toBeNull();
    pool.close();
  });
});
