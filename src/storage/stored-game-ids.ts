// Game ids read back from rows. Each was a GameId on its way in; one that does not pass now (a
// database edited by hand) leaves its row out rather than relayed, and says so in the log: once
// per kind of row, as the reads that meet it may run every few seconds.
import { parseGameId, type GameId } from '../game/game-id.js';
import type { Logger } from '../log.js';

/** The tables whose rows name a game. */
export type GameRowKind = 'live post' | 'finished game' | 'club game';

export class StoredGameIds {
  readonly #logger: Logger | undefined;
  /** Kinds of row a bad number was logged for already. */
  readonly #logged = new Set<GameRowKind>();

  constructor(logger: Logger | undefined) {
    this.#logger = logger;
  }

  /** The row's game id, or null (logged) when its number is not one. */
  read(kind: GameRowKind, stored: number): GameId | null {
    const game = parseGameId(stored);
    if (game.ok) return game.value;
    if (!this.#logged.has(kind)) {
      this.#logged.add(kind);
      this.#logger?.warn(
        // parseGameId shortens what it could not read.
        { rows: kind, gameNumber: game.error.input },
        'stored row left out: its game number is not a game id (logged once per kind of row)',
      );
    }
    return null;
  }
}
