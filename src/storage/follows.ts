// Follows: a channel asks to see every game a FICS handle plays. Handles compare without case,
// as FICS does.
import type { Database } from 'better-sqlite3';
import { storedHandles, type Handle } from '../fics/validate.js';
import { ACTIVE, statementCache, type Prepare } from './statements.js';

export interface Follow {
  id: number;
  guildId: string;
  channelId: string;
  handle: string;
  createdBy: string;
  createdAt: number;
}

export interface NewFollow {
  guildId: string;
  channelId: string;
  handle: string;
  createdBy: string;
}

export type AddFollowResult = { added: true; follow: Follow } | { added: false; follow: Follow };

interface FollowRow {
  id: number;
  guild_id: string;
  channel_id: string;
  handle: string;
  created_by: string;
  created_at: number;
}

function toFollow(row: FollowRow): Follow {
  return {
    id: row.id,
    guildId: row.guild_id,
    channelId: row.channel_id,
    handle: row.handle,
    createdBy: row.created_by,
    createdAt: row.created_at,
  };
}

export class FollowRepository {
  readonly #prepare: Prepare;
  readonly #now: () => number;

  constructor(db: Database, now: () => number) {
    this.#prepare = statementCache(db);
    this.#now = now;
  }

  /** Adds the follow, or returns the existing one for the same channel and handle. */
  add(input: NewFollow): AddFollowResult {
    const existing = this.#find(input.channelId, input.handle);
    if (existing !== null) return { added: false, follow: existing };
    const { lastInsertRowid } = this.#prepare(
      'INSERT INTO follows (guild_id, channel_id, handle, created_by, created_at) VALUES (?, ?, ?, ?, ?)',
    ).run(input.guildId, input.channelId, input.handle, input.createdBy, this.#now());
    const row = this.#prepare('SELECT * FROM follows WHERE id = ?').get(lastInsertRowid) as FollowRow;
    return { added: true, follow: toFollow(row) };
  }

  /** True when a follow was removed. */
  remove(channelId: string, handle: string): boolean {
    return (
      this.#prepare('DELETE FROM follows WHERE channel_id = ? AND handle = ?').run(channelId, handle)
        .changes > 0
    );
  }

  listForChannel(channelId: string): Follow[] {
    return this.#all('SELECT * FROM follows WHERE channel_id = ? ORDER BY handle', channelId);
  }

  listForGuild(guildId: string): Follow[] {
    return this.#all('SELECT * FROM follows WHERE guild_id = ? ORDER BY channel_id, handle', guildId);
  }

  /** Channels to tell when `handle` starts a game (of guilds the bot is in). */
  listForHandle(handle: string): Follow[] {
    return this.#all(`SELECT * FROM follows WHERE handle = ? AND ${ACTIVE} ORDER BY id`, handle);
  }

  /** Every followed handle once (as first written), for subscribing on FICS; inactive guilds' left out. */
  handles(): Handle[] {
    const rows = this.#prepare(
      `SELECT MIN(handle) AS handle FROM follows WHERE ${ACTIVE} GROUP BY handle ORDER BY handle`,
    ).all() as { handle: string }[];
    return storedHandles(rows.map((row) => row.handle));
  }

  #find(channelId: string, handle: string): Follow | null {
    const row = this.#prepare('SELECT * FROM follows WHERE channel_id = ? AND handle = ?').get(
      channelId,
      handle,
    ) as FollowRow | undefined;
    return row === undefined ? null : toFollow(row);
  }

  #all(sql: string, ...params: string[]): Follow[] {
    return (this.#prepare(sql).all(...params) as FollowRow[]).map(toFollow);
  }
}
