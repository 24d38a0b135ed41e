// FICS TV settings: at most one TV channel per guild, its filter, and the live post it shows now
// (kept so that a restart resumes that post, or switches when its game ended meanwhile).
import type { TvFilter, TvVariant } from '../game/tv-score.js';
import { ACTIVE, type Sql } from './sql.js';

export interface TvChannel extends TvFilter {
  guildId: string;
  channelId: string;
  /** The live post it shows (live_posts.id); null while it looks for a game. */
  postId: number | null;
  /** Who turned it on: its posts are requested by them. */
  createdBy: string;
}

export type NewTvChannel = Omit<TvChannel, 'postId'>;

interface TvRow {
  guild_id: string;
  channel_id: string;
  variant: string;
  min_rating: number;
  post_id: number | null;
  created_by: string;
}

function fromRow(row: TvRow): TvChannel {
  return {
    guildId: row.guild_id,
    channelId: row.channel_id,
    variant: row.variant as TvVariant,
    minRating: row.min_rating,
    postId: row.post_id,
    createdBy: row.created_by,
  };
}

export class TvRepository {
  readonly #sql: Sql;
  readonly #now: () => number;

  constructor(sql: Sql, now: () => number) {
    this.#sql = sql;
    this.#now = now;
  }

  /** Turns the guild's TV on, or changes it (channel, filter); it shows no post until it finds one. */
  async set(tv: NewTvChannel): Promise<TvChannel> {
    await this.#sql.run(
      `INSERT INTO tv_channels (guild_id, channel_id, variant, min_rating, post_id, created_by, updated_at)
         VALUES (?, ?, ?, ?, NULL, ?, ?)
       ON CONFLICT (guild_id) DO UPDATE SET channel_id = excluded.channel_id, variant = excluded.variant,
         min_rating = excluded.min_rating, post_id = NULL, created_by = excluded.created_by,
         updated_at = excluded.updated_at`,
      tv.guildId,
      tv.channelId,
      tv.variant,
      tv.minRating,
      tv.createdBy,
      this.#now(),
    );
    return { ...tv, postId: null };
  }

  async get(guildId: string): Promise<TvChannel | null> {
    const row = await this.#sql.get<TvRow>('SELECT * FROM tv_channels WHERE guild_id = ?', guildId);
    return row === undefined ? null : fromRow(row);
  }

  /** Every TV of the guilds the bot is in. */
  async list(): Promise<TvChannel[]> {
    const rows = await this.#sql.all<TvRow>(`SELECT * FROM tv_channels WHERE ${ACTIVE} ORDER BY guild_id`);
    return rows.map(fromRow);
  }

  /** The TV showing this post, if one does. */
  async byPost(postId: number): Promise<TvChannel | null> {
    const row = await this.#sql.get<TvRow>('SELECT * FROM tv_channels WHERE post_id = ?', postId);
    return row === undefined ? null : fromRow(row);
  }

  /** The post the guild's TV shows now (null: none). */
  async setPost(guildId: string, postId: number | null): Promise<void> {
    await this.#sql.run(
      'UPDATE tv_channels SET post_id = ?, updated_at = ? WHERE guild_id = ?',
      postId,
      this.#now(),
      guildId,
    );
  }

  /** Turns the guild's TV off; false when it had none. */
  async delete(guildId: string): Promise<boolean> {
    return (await this.#sql.run('DELETE FROM tv_channels WHERE guild_id = ?', guildId)) > 0;
  }
}
