// Live posts: one Discord message per relayed game per channel, edited as the game goes on.
// Rows outlive the process so that a restart resumes editing the same messages. The live posts
// are kept in memory too (loaded at open, changed here), so that showing a move reads nothing
// from the database: a new post is written at once (its id names its buttons), every other
// change is queued or batched (writes.ts) and stored when the database takes it. Memory speaks
// for this process's posts: with shards on one database, each shard changes only its own.
import { isThemeName, type ThemeName } from '../../render/theme.js';
import type { GameId } from '../game/game-id.js';
import type { Sql, SqlValue } from './sql.js';
import type { StoredGameIds } from './stored-game-ids.js';
import type { Writes } from './writes.js';
import { err, ok, type Result } from '../result.js';

export type LivePostState = 'live' | 'ended' | 'ended_offline';

export interface LivePostOptions {
  /** Black at the bottom. */
  flip: boolean;
  /** Discussion thread requested for the game. */
  thread: boolean;
  /** Kibitzes and whispers go into the thread (`/observe kibitz:` or the server's default). */
  kibitz?: boolean;
  /** Board colours (the server's theme); the default theme when absent. */
  theme?: ThemeName;
  /**
   * The message shows a bughouse partner board in a second embed (as its last picture edit sent
   * it): an edit that keeps the pictures keeps that embed. Absent when not known: a post stored
   * before migration 6 that has sent no picture since.
   */
  pair?: boolean;
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
  game: GameId;
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

/** The new post, or the live post of that game already in the channel. */
export type CreateLivePostResult = Result<LivePost, { existing: LivePost }>;

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
  kibitz: number;
  theme: string | null;
  pair: number | null;
  requested_by: string;
  state: LivePostState;
  end_reason: string | null;
  created_at: number;
  updated_at: number;
}

/** Null for a row whose game number is not a game id (stored-game-ids.ts). */
function toLivePost(row: LivePostRow, games: StoredGameIds): LivePost | null {
  const game = games.read('live post', row.game_number);
  if (game === null) return null;
  return {
    id: row.id,
    guildId: row.guild_id,
    channelId: row.channel_id,
    messageChannelId: row.message_channel_id,
    messageId: row.message_id,
    threadId: row.thread_id,
    game,
    gameKey: row.game_key,
    white: row.white,
    black: row.black,
    options: {
      flip: row.flip === 1,
      thread: row.thread === 1,
      ...(row.kibitz === 1 ? { kibitz: true } : {}),
      // A theme this version does not know (a newer one wrote it) shows as the default.
      ...(row.theme !== null && isThemeName(row.theme) ? { theme: row.theme } : {}),
      ...(row.pair === null ? {} : { pair: row.pair === 1 }),
    },
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
  readonly #writes: Writes;
  readonly #games: StoredGameIds;
  /** Live posts, and ended ones whose end is not stored yet (the database still says live). */
  readonly #posts = new Map<number, LivePost>();
  /** The same posts by game number: a move finds its posts without a scan. */
  readonly #byGame = new Map<number, Map<number, LivePost>>();

  constructor(sql: Sql, now: () => number, writes: Writes, games: StoredGameIds) {
    this.#sql = sql;
    this.#now = now;
    this.#writes = writes;
    this.#games = games;
  }

  /** Reads every live post into memory (at open). */
  async load(): Promise<void> {
    const rows = await this.#sql.all<LivePostRow>(
      `SELECT * FROM live_posts WHERE state = 'live' ORDER BY id`,
    );
    for (const post of rows.map((row) => toLivePost(row, this.#games))) if (post !== null) this.#keep(post);
  }

  /**
   * Records a post before its message exists (its id goes into the message's button ids): the one
   * write made at once, and it throws when the database does not take it. Refuses a second live
   * post of the same game in the same channel and returns that one.
   */
  async create(input: NewLivePost): Promise<CreateLivePostResult> {
    // An end of this game's post here still queued: the database would refuse the new one.
    if (this.#unstoredEnd(input.channelId, input.gameKey)) await this.#writes.idle();
    const now = this.#now();
    // One statement, so that two requests at once cannot both pass a check made before it: the
    // unique index on live posts refuses the second.
    const id = await this.#sql.insert(
      `INSERT INTO live_posts (guild_id, channel_id, game_number, game_key, white, black, flip, thread,
           kibitz, theme, pair, requested_by, state, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, 'live', ?, ?)
         ON CONFLICT DO NOTHING`,
      input.guildId,
      input.channelId,
      input.game,
      input.gameKey,
      input.white,
      input.black,
      input.options.flip ? 1 : 0,
      input.options.thread ? 1 : 0,
      input.options.kibitz === true ? 1 : 0,
      input.options.theme ?? null,
      input.requestedBy,
      now,
      now,
    );
    if (id !== null) {
      const post: LivePost = {
        ...input,
        // No message yet, so no partner board in it.
        options: { ...input.options, pair: false },
        id,
        messageChannelId: null,
        messageId: null,
        threadId: null,
        state: 'live',
        endReason: null,
        createdAt: now,
        updatedAt: now,
      };
      this.#keep(post);
      return ok(post);
    }
    // Another process's post (a shard's), when this one does not know it.
    const existing =
      (await this.findLive(input.channelId, input.gameKey)) ??
      (await this.#one(
        `SELECT * FROM live_posts WHERE channel_id = ? AND game_key = ? AND state = 'live'`,
        input.channelId,
        input.gameKey,
      ));
    if (existing === null) throw new Error(`live post of ${input.gameKey} neither created nor found`);
    return err({ existing });
  }

  /** From memory while the post is live (or its end not stored yet), else from the database. */
  async get(id: number): Promise<LivePost | null> {
    return this.#posts.get(id) ?? this.#one('SELECT * FROM live_posts WHERE id = ?', id);
  }

  /** The live post of this game in this channel, if any. */
  async findLive(channelId: string, gameKey: string): Promise<LivePost | null> {
    return this.#live().find((post) => post.channelId === channelId && post.gameKey === gameKey) ?? null;
  }

  /** Every live post, oldest first: what a restart resumes. */
  async listLive(): Promise<LivePost[]> {
    return this.#live();
  }

  /** Live posts showing one FICS game number (several channels may watch the same game). */
  async listLiveByGame(game: GameId): Promise<LivePost[]> {
    return this.#live(this.#byGame.get(game)?.values() ?? []);
  }

  async listLiveInGuild(guildId: string): Promise<LivePost[]> {
    return this.#live().filter((post) => post.guildId === guildId);
  }

  async countLiveInGuild(guildId: string): Promise<number> {
    return (await this.listLiveInGuild(guildId)).length;
  }

  /** Records where the board message was posted. False when the post is not known. */
  async setMessage(
    id: number,
    where: { messageChannelId: string; messageId: string; threadId?: string | null },
  ): Promise<boolean> {
    const threadId = where.threadId ?? null;
    return this.#update(
      id,
      { messageChannelId: where.messageChannelId, messageId: where.messageId, threadId },
      'record a posted message',
      'message_channel_id = ?, message_id = ?, thread_id = ?',
      where.messageChannelId,
      where.messageId,
      threadId,
    );
  }

  /** The guild changed its theme: its live posts' next pictures use it. Returns how many changed. */
  async setThemeInGuild(guildId: string, theme: ThemeName | null): Promise<number> {
    const posts = await this.listLiveInGuild(guildId);
    for (const post of posts) {
      const { theme: _old, ...options } = post.options;
      this.#update(
        post.id,
        { options: theme === null ? options : { ...options, theme } },
        'change a theme',
        'theme = ?',
        theme,
      );
    }
    return posts.length;
  }

  /** Records whether the message now shows a bughouse partner board (its last picture edit). */
  async setPair(id: number, pair: boolean): Promise<boolean> {
    const options = this.#posts.get(id)?.options;
    const changes = options === undefined ? {} : { options: { ...options, pair } };
    return this.#update(id, changes, 'record a partner board', 'pair = ?', pair ? 1 : 0);
  }

  /** Marks the post finished; it stays stored so its message is not taken over later. */
  async end(
    id: number,
    state: Exclude<LivePostState, 'live'>,
    reason: string | null = null,
  ): Promise<boolean> {
    const post = this.#posts.get(id);
    const changes = { state, endReason: reason ?? post?.endReason ?? null };
    // A reason given once (the refusal that ended it) is kept by a later end without one.
    const known = this.#update(
      id,
      changes,
      'end a post',
      'state = ?, end_reason = COALESCE(?, end_reason)',
      state,
      reason,
    );
    // Out of memory once the database says it ended too.
    this.#writes.later('forget an ended post', async () => {
      if (this.#posts.get(id)?.state !== 'live') this.#forget(id);
    });
    return known;
  }

  /** Notes that the post was just edited (for staleness checks after a restart): batched. */
  async touch(id: number): Promise<boolean> {
    const post = this.#posts.get(id);
    if (post === undefined) return false;
    const now = this.#now();
    this.#replace({ ...post, updatedAt: now });
    this.#writes.batch(`touch ${id}`, {
      sql: 'UPDATE live_posts SET updated_at = ? WHERE id = ?',
      params: [now, id],
    });
    return true;
  }

  /** Removes a post whose message could not be created (nothing left to edit). */
  async delete(id: number): Promise<boolean> {
    const known = this.#posts.has(id);
    this.#forget(id);
    this.#writes.later('drop a post', () => this.#sql.run('DELETE FROM live_posts WHERE id = ?', id));
    return known;
  }

  /** Changes the post in memory now and queues the same change for the database. */
  #update(
    id: number,
    changes: Partial<LivePost>,
    what: string,
    assignments: string,
    ...values: SqlValue[]
  ): boolean {
    const now = this.#now();
    const post = this.#posts.get(id);
    if (post !== undefined) this.#replace({ ...post, ...changes, updatedAt: now });
    this.#writes.later(what, () =>
      this.#sql.run(`UPDATE live_posts SET ${assignments}, updated_at = ? WHERE id = ?`, ...values, now, id),
    );
    return post !== undefined;
  }

  #keep(post: LivePost): void {
    this.#posts.set(post.id, post);
    let posts = this.#byGame.get(post.game);
    if (posts === undefined) this.#byGame.set(post.game, (posts = new Map()));
    posts.set(post.id, post);
  }

  #replace(post: LivePost): void {
    if (this.#posts.has(post.id)) this.#keep(post);
  }

  #forget(id: number): void {
    const post = this.#posts.get(id);
    if (post === undefined) return;
    this.#posts.delete(id);
    const posts = this.#byGame.get(post.game);
    posts?.delete(id);
    if (posts?.size === 0) this.#byGame.delete(post.game);
  }

  #unstoredEnd(channelId: string, gameKey: string): boolean {
    for (const post of this.#posts.values())
      if (post.state !== 'live' && post.channelId === channelId && post.gameKey === gameKey) return true;
    return false;
  }

  /** The live ones of `posts` (all by default), oldest first. */
  #live(posts: Iterable<LivePost> = this.#posts.values()): LivePost[] {
    return [...posts].filter((post) => post.state === 'live').sort((a, b) => a.id - b.id);
  }

  async #one(sql: string, ...params: SqlValue[]): Promise<LivePost | null> {
    const row = await this.#sql.get<LivePostRow>(sql, ...params);
    return row === undefined ? null : toLivePost(row, this.#games);
  }
}
