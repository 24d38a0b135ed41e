// Database writes the relay goes on without: a refused one is logged and reported as false, never
// thrown, so that a board, a notice or a game's end still goes out whatever the database does.
import type { Logger } from '../log.js';

/** Runs a database write; a refused one is logged and false, and the caller goes on. */
export type Recorded = (what: string, write: () => Promise<unknown>) => Promise<boolean>;

export function logWriteFailed(logger: Logger, what: string, error: unknown): void {
  logger.error({ err: error, what }, 'database write failed');
}

export function recorder(logger: Logger): Recorded {
  return async (what, write) => {
    try {
      await write();
      return true;
    } catch (error) {
      logWriteFailed(logger, what, error);
      return false;
    }
  };
}
