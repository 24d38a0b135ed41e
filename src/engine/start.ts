// KIBITZ_ENGINE=on: the engine pool and the live posts' evaluations, or, when no engine program
// is found, evaluations that say so.
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { LiveEvaluations } from '../relay/evaluations.js';
import { locateEngine } from './locate.js';
import { EnginePool } from './pool.js';
import { StockfishProcess } from './stockfish.js';

/** Positions waiting for an engine, all games together: about one per live game. */
export const ENGINE_QUEUE = 100;

export interface StartedEngine {
  evaluations: LiveEvaluations;
  /** Null when no engine is installed. */
  pool: EnginePool | null;
}

/** `searchPath`: the directories searched for `stockfish` (the process's PATH). */
export function startEngine(
  config: Config,
  logger: Logger,
  searchPath = process.env.PATH ?? '',
): StartedEngine {
  const found = locateEngine({ path: config.engine.path, searchPath });
  if (!found.ok) {
    logger.warn(
      `KIBITZ_ENGINE=on but no engine is installed: ${found.reason}; posts say the engine is not installed`,
    );
    return { evaluations: new LiveEvaluations({ pool: null }), pool: null };
  }
  const { program } = found;
  const pool = new EnginePool({
    size: config.engine.threads,
    maxQueued: ENGINE_QUEUE,
    analyser: () => new StockfishProcess(program, config.engine.limit),
    // Results come after this function returned: `evaluations` is set by then.
    onResult: (job, evaluation) => evaluations.result(job, evaluation),
    onError: (job, error) =>
      logger.warn({ component: 'engine', err: error, fen: job.fen }, 'engine analysis failed'),
  });
  const evaluations = new LiveEvaluations({ pool });
  logger.info(
    {
      threads: config.engine.threads,
      limit: config.engine.limit,
      engine: program.command,
      kind: program.kind,
      args: program.args,
    },
    'engine on',
  );
  return { evaluations, pool };
}
