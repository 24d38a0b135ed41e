// Live posts: one Discord message per relayed game per channel, edited as the game goes on.
// Rows outlive the process so that a restart resumes editing the same messages.
import type { Sql, SqlValue } from './sql.js';

export type LivePostState = 'live' | 'ended' | 'ended_offline';

export interface LivePostOptions {
  /** Black at the bottom. */
  flip: boolean;
  /** Discussion thread requested for the game. */
  thread: boolean;
}

export interface LivePost {
  id: number;
  guildId: string;
  /** Channel the game was requested for. */
  channelId: string;
  /** Where the board message lives (the channel itself or a thread); null until posted. */
  messageChannelId: string | null;
  messageId: string | null;
  threadId: string | null;
  game: number;
  /** Identifies one game: FICS reuses game numbers, so the number alone is not enough. */
  gameKey: string;
  white: string;
  black: string;
  options: LivePostOptions;
  requestedBy: string;
  state: LivePostState;
  /** Why an ended post ended other than by its game ending (Discord refused it...); else null. */
  endReason: string | null;
  createdAt: number;
  updatedAt: number;
}

export type NewLivePost = Pick<
  LivePost,
  'guildId' | 'channelId' | 'game' | 'gameKey' | 'white' | 'black' | 'options' | 'requestedBy'
>;

export type CreateLivePostResult = { ok: true; post: LivePost } | { ok: false; existing: LivePost };

interface LivePostRow {
  id: number;
  guild_id: string;
  channel_id: string;
  message_channel_id: string | null;
  message_id: string | null;
  thread_id: string | null;
  game_number: number;
  game_key: string;
  white: string;
  black: string;
  flip: number;
  thread: number;
  requested_by: string;
  state: LivePostState;
  end_reason: string | null;
  created_at: number;
  updated_at: number;
}

function toLivePost(row: LivePostRow): LivePost {
  return {
    id: row.id,
    guildId: row.guild_id,
    channelId: row.channel_id,
    messageChannelId: row.message_channel_id,
    messageId: row.message_id,
    threadId: row.thread_id,
    game: row.game_number,
    gameKey: row.game_key,
    white: row.white,
    black: row.black,
    options: { flip: row.flip === 1, thread: row.thread === 1 },
    requestedBy: row.requested_by,
    state: row.state,
    endReason: row.end_reason,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export class LivePostRepository {
  readonly #sql: Sql;
  readonly #now: () => number;

  constructor(sql: Sql, now: () => number) {
    this.#sql = sql;
    this.#now = now;
  }

  /**
   * Records a post before its message exists (its id goes into the message's button ids).
   * Refuses a second live post of the same game in the same channel and returns that one.
   */
  async create(input: NewLivePost): Promise<CreateLivePostResult> {
    const now = this.#now();
    // One statement, so that two requests at once cannot both pass a check made before it: the
    // unique index on live posts refuses the second.
    const row = await this.#sql.get<LivePostRow>(
      `INSERT INTO live_posts (guild_id, channel_id, game_number, game_key, white, black, flip, thread,
           requested_by, state, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'live', ?, ?)
         ON CONFLICT DO NOTHING RETURNING *`,
      input.guildId,
      input.channelId,
      input.game,
      input.gameKey,
      input.white,
      input.black,
      input.options.flip ? 1 : 0,
      input.options.thread ? 1 : 0,
      input.requestedBy,
      now,
      now,
    );
    if (row !== undefined) return { ok: true, post: toLivePost(row) };
    const existing = await this.findLive(input.channelId, input.gameKey);
    if (existing === null) throw new Error(`live post of ${input.gameKey} neither created nor found`);
    return { ok: false, existing };
  }

  async get(id: number): Promise<LivePost | null> {
    return this.#one('SELECT * FROM live_posts WHERE id = ?', id);
  }

  /** The live post of this game in this channel, if any. */
  async findLive(channelId: string, gameKey: string): Promise<LivePost | null> {
    return this.#one(
      `SELECT * FROM live_posts WHERE channel_id = ? AND game_key = ? AND state = 'live'`,
      channelId,
      gameKey,
    );
  }

  /** Every live post, oldest first: what a restart resumes. */
  async listLive(): Promise<LivePost[]> {
    return this.#all(`SELECT * FROM live_posts WHERE state = 'live' ORDER BY id`);
  }

  /** Live posts showing one FICS game number (several channels may watch the same game). */
  async listLiveByGame(game: number): Promise<LivePost[]> {
    return this.#all(`SELECT * FROM live_posts WHERE state = 'live' AND game_number = ? ORDER BY id`, game);
  }

  async listLiveInGuild(guildId: string): Promise<LivePost[]> {
    return this.#all(`SELECT * FROM live_posts WHERE state = 'live' AND guild_id = ? ORDER BY id`, guildId);
  }

  async countLiveInGuild(guildId: string): Promise<number> {
    const row = await this.#sql.get<{ n: number }>(
      `SELECT COUNT(*) AS n FROM live_posts WHERE state = 'live' AND guild_id = ?`,
      guildId,
    );
    return row?.n ?? 0;
  }

  /** Records where the board message was posted. False when the post does not exist. */
  async setMessage(
    id: number,
    where: { messageChannelId: string; messageId: string; threadId?: string | null },
  ): Promise<boolean> {
    return this.#update(
      id,
      'message_channel_id = ?, message_id = ?, thread_id = ?',
      where.messageChannelId,
      where.messageId,
      where.threadId ?? null,
    );
  }

  async setFlip(id: number, flip: boolean): Promise<boolean> {
    return this.#update(id, 'flip = ?', flip ? 1 : 0);
  }

  /** Marks the post finished; it stays stored so its message is not taken over later. */
  async end(
    id: number,
    state: Exclude<LivePostState, 'live'>,
    reason: string | null = null,
  ): Promise<boolean> {
    // A reason given once (the refusal that ended it) is kept by a later end without one.
    return this.#update(id, 'state = ?, end_reason = COALESCE(?, end_reason)', state, reason);
  }

  /** Notes that the post was just edited (for staleness checks after a restart). */
  async touch(id: number): Promise<boolean> {
    return this.#update(id, 'id = id');
  }

  /** Removes a post whose message could not be created (nothing left to edit). */
  async delete(id: number): Promise<boolean> {
    return (await this.#sql.run('DELETE FROM live_posts WHERE id = ?', id)) === 1;
  }

  async #update(id: number, assignments: string, ...values: SqlValue[]): Promise<boolean> {
    const changed = await this.#sql.run(
      `UPDATE live_posts SET ${assignments}, updated_at = ? WHERE id = ?`,
      ...values,
      this.#now(),
      id,
    );
    return changed === 1;
  }

  async #one(sql: string, ...params: SqlValue[]): Promise<LivePost | null> {
    const row = await this.#sql.get<LivePostRow>(sql, ...params);
    return row === undefined ? null : toLivePost(row);
  }

  async #all(sql: string, ...params: SqlValue[]): Promise<LivePost[]> {
    return (await this.#sql.all<LivePostRow>(sql, ...params)).map(toLivePost);
  }
}
