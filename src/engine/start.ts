// KIBITZ_ENGINE=on: the engine pool, or null when no engine program is found (the posts' evaluations
// then say so, src/relay/evaluations.ts).
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { locateEngine } from './locate.js';
import { EnginePool, type EnginePoolOptions } from './pool.js';
import { StockfishProcess } from './stockfish.js';

/** Positions waiting for an engine, all games together: about one per live game. */
export const ENGINE_QUEUE = 100;

/** `onResult` gets each evaluation; `searchPath`: the directories searched for `stockfish` (the process's PATH). */
export function startEngine(
  config: Config,
  logger: Logger,
  onResult: EnginePoolOptions['onResult'],
  searchPath = process.env.PATH ?? '',
): EnginePool | null {
  const found = locateEngine({ path: config.engine.path, searchPath });
  if (!found.ok) {
    logger.warn(
      `KIBITZ_ENGINE=on but no engine is installed: ${found.error}; posts say the engine is not installed`,
    );
    return null;
  }
  const program = found.value;
  const pool = new EnginePool({
    size: config.engine.threads,
    maxQueued: ENGINE_QUEUE,
    analyser: () => new StockfishProcess(program, config.engine.limit),
    onResult,
    onError: (job, error) =>
      logger.warn({ component: 'engine', err: error, fen: job.fen }, 'engine analysis failed'),
  });
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
  return pool;
}
