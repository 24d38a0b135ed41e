// Finished games kept as PGN so /pgn can hand out a game that just ended.
import type { Database } from 'better-sqlite3';
import { statementCache, type Prepare } from './statements.js';
import type { GameResult } from '../protocol/events.js';

export interface FinishedGame {
  gameKey: string;
  game: number;
  white: string;
  black: string;
  pgn: string;
  result: GameResult;
  /** The server's end text (`GuestX resigns`), when known. */
  reason: string | null;
  endedAt: number;
}

export interface FinishedGameQuery {
  game?: number;
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

function toFinishedGame(row: FinishedGameRow): FinishedGame {
  return {
    gameKey: row.game_key,
    game: row.game_number,
    white: row.white,
    black: row.black,
    pgn: row.pgn,
    result: row.result,
    reason: row.reason,
    endedAt: row.ended_at,
  };
}

export class FinishedGameRepository {
  readonly #prepare: Prepare;

  constructor(db: Database) {
    this.#prepare = statementCache(db);
  }

  /** Stores the game; saving the same key again replaces it (a corrected PGN wins). */
  save(game: FinishedGame): void {
    this.#prepare(
      `INSERT INTO finished_games (game_key, game_number, white, black, pgn, result, reason, ended_at)
         VALUES (@gameKey, @game, @white, @black, @pgn, @result, @reason, @endedAt)
         ON CONFLICT (game_key) DO UPDATE SET game_number = excluded.game_number, white = excluded.white,
           black = excluded.black, pgn = excluded.pgn, result = excluded.result, reason = excluded.reason,
           ended_at = excluded.ended_at`,
    ).run(game);
  }

  get(gameKey: string): FinishedGame | null {
    const row = this.#prepare('SELECT * FROM finished_games WHERE game_key = ?').get(gameKey) as
      FinishedGameRow | undefined;
    return row === undefined ? null : toFinishedGame(row);
  }

  /** Most recent first, filtered by game number and/or player. */
  recent(query: FinishedGameQuery = {}): FinishedGame[] {
    const where: string[] = [];
    const params: (string | number)[] = [];
    if (query.game !== undefined) {
      where.push('game_number = ?');
      params.push(query.game);
    }
    if (query.player !== undefined) {
      where.push('(white = ? OR black = ?)');
      params.push(query.player, query.player);
    }
    const sql = `SELECT * FROM finished_games ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY ended_at DESC, rowid DESC LIMIT ?`;
    const rows = this.#prepare(sql).all(...params, query.limit ?? 10) as FinishedGameRow[];
    return rows.map(toFinishedGame);
  }

  /** Deletes games that ended before `endedBefore` (ms); returns how many went. */
  prune(endedBefore: number): number {
    return this.#prepare('DELETE FROM finished_games WHERE ended_at < ?').run(endedBefore).changes;
  }
}
