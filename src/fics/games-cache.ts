// One `games` request serves every keystroke: autocompletes (and anything else that can live with
// a list a few seconds old) read the server's games from here. At most one request is in flight,
// and a new one goes out only when the last is older than `maxAgeMs`, however many users type:
// FICS is never flooded, and other users' commands never queue behind keystrokes.
import type { GamesListRow } from './games-list.js';
import { err, ok, type Result } from '../result.js';

/** How old a list may be before the next asker refreshes it. */
export const GAMES_LIST_MAX_AGE_MS = 5_000;

export interface GamesCacheOptions {
  /** Asks the server (one `games` command). */
  fetch: () => Promise<GamesListRow[]>;
  now: () => number;
  maxAgeMs?: number;
}

type Outcome = Result<readonly GamesListRow[], unknown>;

export class GamesCache {
  private readonly maxAgeMs: number;
  private pending: Promise<readonly GamesListRow[]> | null = null;
  /** When the last request went out, and how it ended: a failure is not retried sooner either. */
  private last: { at: number; outcome: Outcome } | null = null;
  private knownRows: readonly GamesListRow[] = [];

  constructor(private readonly options: GamesCacheOptions) {
    this.maxAgeMs = options.maxAgeMs ?? GAMES_LIST_MAX_AGE_MS;
  }

  /** The games at most `maxAgeMs` old; rejects as the last request did while that is recent. */
  rows(): Promise<readonly GamesListRow[]> {
    if (this.pending !== null) return this.pending;
    const last = this.last;
    if (last !== null && this.options.now() - last.at < this.maxAgeMs) {
      return last.outcome.ok ? Promise.resolve(last.outcome.value) : Promise.reject(last.outcome.error);
    }
    const at = this.options.now();
    const request = this.options.fetch().then(
      (rows) => {
        this.last = { at, outcome: ok(rows) };
        this.knownRows = rows;
        return rows;
      },
      (error: unknown) => {
        this.last = { at, outcome: err(error) };
        throw error;
      },
    );
    this.pending = request.finally(() => (this.pending = null));
    return this.pending;
  }

  /** The last list the server gave, however old (empty before the first): for when it is slow or down. */
  known(): readonly GamesListRow[] {
    return this.knownRows;
  }
}
