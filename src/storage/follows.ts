// Follows: a channel asks to see every game a FICS handle plays. Handles compare without case,
// as FICS does.
import { storedHandles } from '../fics/validate.js';
import type { Handle } from '../protocol/handle.js';
import { ACTIVE, type Sql } from './sql.js';

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
  readonly #sql: Sql;
  readonly #now: () => number;
  /** Reloads the interest index (interest.ts) after a write that changes it. */
  readonly #changed: () => Promise<void>;

  constructor(sql: Sql, now: () => number, changed: () => Promise<void>) {
    this.#sql = sql;
    this.#now = now;
    this.#changed = changed;
  }

  /** Adds the follow, or returns the existing one for the same channel and handle. */
  async add(input: NewFollow): Promise<AddFollowResult> {
    // One statement: the unique (channel, handle) refuses a second add made at the same time.
    const createdAt = this.#now();
    const id = await this.#sql.insert(
      `INSERT INTO follows (guild_id, channel_id, handle, created_by, created_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT DO NOTHING`,
      input.guildId,
      input.channelId,
      input.handle,
      input.createdBy,
      createdAt,
    );
    if (id !== null) {
      await this.#changed();
      return { added: true, follow: { ...input, id, createdAt } };
    }
    const existing = await this.#sql.get<FollowRow>(
      'SELECT * FROM follows WHERE channel_id = ? AND handle = ?',
      input.channelId,
      input.handle,
    );
    if (existing === undefined) throw new Error(`follow of ${input.handle} neither added nor found`);
    return { added: false, follow: toFollow(existing) };
  }

  /** True when a follow was removed. */
  async remove(channelId: string, handle: string): Promise<boolean> {
    const removed = await this.#sql.run(
      'DELETE FROM follows WHERE channel_id = ? AND handle = ?',
      channelId,
      handle,
    );
    await this.#changed();
    return removed > 0;
  }

  async listForChannel(channelId: string): Promise<Follow[]> {
    return this.#all('SELECT * FROM follows WHERE channel_id = ? ORDER BY handle', channelId);
  }

  async listForGuild(guildId: string): Promise<Follow[]> {
    return this.#all('SELECT * FROM follows WHERE guild_id = ? ORDER BY channel_id, handle', guildId);
  }

  /** Channels to tell when `handle` starts a game (of guilds the bot is in). */
  async listForHandle(handle: string): Promise<Follow[]> {
    return this.#all(`SELECT * FROM follows WHERE handle = ? AND ${ACTIVE} ORDER BY id`, handle);
  }

  /** Every followed handle once (as first written), for subscribing on FICS; inactive guilds' left out. */
  async handles(): Promise<Handle[]> {
    const rows = await this.#sql.all<{ handle: string }>(
      `SELECT MIN(handle) AS handle FROM follows WHERE ${ACTIVE} GROUP BY handle ORDER BY handle`,
    );
    return storedHandles(rows.map((row) => row.handle));
  }

  async #all(sql: string, ...params: string[]): Promise<Follow[]> {
    return (await this.#sql.all<FollowRow>(sql, ...params)).map(toFollow);
  }
}
