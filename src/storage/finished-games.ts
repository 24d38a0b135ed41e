// Finished games kept as PGN so /pgn can hand out a game that just ended.
import type { GameId } from '../game/game-id.js';
import type { Sql, SqlValue } from './sql.js';
import type { StoredGameIds } from './stored-game-ids.js';
import type { Writes } from './writes.js';
import type { GameResult } from '../protocol/events.js';

export interface FinishedGame {
  gameKey: string;
  game: GameId;
  white: string;
  black: string;
  pgn: string;
  result: GameResult;
  /** The server's end text (`GuestX resigns`), when known. */
  reason: string | null;
  endedAt: number;
}

export interface FinishedGameQuery {
  game?: GameId;
  /** Either player; case does not matter. */
  player?: string;
  limit?: number;
}

interface FinishedGameRow {
  game_key: string;
  game_number: number;
  white: string;
  black: string;
  pgn: string;
  result: GameResult;
  reason: string | null;
  ended_at: number;
}

/** Null for a row whose game number is not a game id (stored-game-ids.ts). */
function toFinishedGame(row: FinishedGameRow, games: StoredGameIds): FinishedGame | null {
  const game = games.read('finished game', row.game_number);
  if (game === null) return null;
  return {
    gameKey: row.game_key,
    game,
    white: row.white,
    black: row.black,
    pgn: row.pgn,
    result: row.result,
    reason: row.reason,
    endedAt: row.ended_at,
  };
}

export class FinishedGameRepository {
  readonly #sql: Sql;
  readonly #writes: Writes;
  readonly #games: StoredGameIds;

  constructor(sql: Sql, writes: Writes, games: StoredGameIds) {
    this.#sql = sql;
    this.#writes = writes;
    this.#games = games;
  }

  /**
   * Queues the game for storing (writes.ts: in order, retried until the database takes it), so
   * a game's end never waits on the database; saving the same key again replaces it (a corrected
   * PGN wins).
   */
  save(game: FinishedGame): void {
    this.#writes.later('save a finished game', () =>
      this.#sql.run(
        `INSERT INTO finished_games (game_key, game_number, white, black, pgn, result, reason, ended_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (game_key) DO UPDATE SET game_number = excluded.game_number, white = excluded.white,
           black = excluded.black, pgn = excluded.pgn, result = excluded.result, reason = excluded.reason,
           ended_at = excluded.ended_at`,
        game.gameKey,
        game.game,
        game.white,
        game.black,
        game.pgn,
        game.result,
        game.reason,
        game.endedAt,
      ),
    );
  }

  async get(gameKey: string): Promise<FinishedGame | null> {
    const row = await this.#sql.get<FinishedGameRow>(
      'SELECT * FROM finished_games WHERE game_key = ?',
      gameKey,
    );
    return row === undefined ? null : toFinishedGame(row, this.#games);
  }

  /** Most recent first, filtered by game number and/or player. */
  async recent(query: FinishedGameQuery = {}): Promise<FinishedGame[]> {
    const where: string[] = [];
    const params: SqlValue[] = [];
    if (query.game !== undefined) {
      where.push('game_number = ?');
      params.push(query.game);
    }
    if (query.player !== undefined) {
      where.push('(white = ? OR black = ?)');
      params.push(query.player, query.player);
    }
    // rowid: the order games were first saved in (PostgreSQL's table has a column of that name).
    const sql = `SELECT * FROM finished_games ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY ended_at DESC, rowid DESC LIMIT ?`;
    const rows = await this.#sql.all<FinishedGameRow>(sql, ...params, query.limit ?? 10);
    return rows.flatMap((row) => toFinishedGame(row, this.#games) ?? []);
  }

  /** Deletes games that ended before `endedBefore` (ms); returns how many went. */
  async prune(endedBefore: number): Promise<number> {
    return this.#sql.run('DELETE FROM finished_games WHERE ended_at < ?', endedBefore);
  }
}
