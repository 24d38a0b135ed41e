// KIBITZ_ENGINE=on: the engine pool and the live posts' evaluations, or, when the optional
// `stockfish` package is not installed, evaluations that say so.
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { LiveEvaluations } from '../relay/evaluations.js';
import { EnginePool } from './pool.js';
import { locateStockfish, StockfishProcess } from './stockfish.js';

/** Positions waiting for an engine, all games together: about one per live game. */
export const ENGINE_QUEUE = 100;

export interface StartedEngine {
  evaluations: LiveEvaluations;
  /** Null when the package is not installed. */
  pool: EnginePool | null;
}

/** `from`: where the package is looked for (tests point it elsewhere). */
export function startEngine(config: Config, logger: Logger, from?: string): StartedEngine {
  const script = locateStockfish(from);
  if (script === null) {
    logger.warn(
      'KIBITZ_ENGINE=on but the optional stockfish package is not installed: posts say the engine is not installed (npm install stockfish@19 to add it)',
    );
    return { evaluations: new LiveEvaluations({ pool: null }), pool: null };
  }
  const pool = new EnginePool({
    size: config.engine.threads,
    maxQueued: ENGINE_QUEUE,
    analyser: () => new StockfishProcess(script, config.engine.limit),
    // Results come after this function returned: `evaluations` is set by then.
    onResult: (job, evaluation) => evaluations.result(job, evaluation),
    onError: (job, error) =>
      logger.warn({ component: 'engine', err: error, fen: job.fen }, 'engine analysis failed'),
  });
  const evaluations = new LiveEvaluations({ pool });
  logger.info({ threads: config.engine.threads, limit: config.engine.limit, script }, 'engine on');
  return { evaluations, pool };
}
