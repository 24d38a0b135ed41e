// Clubs: one per Discord server. Its settings, its members (FICS handles, compared without case
// as FICS does), the pairings of a scheduled match, and every game it posted with the result.
import type { Database } from 'better-sqlite3';
import { storedHandles, type Handle } from '../fics/validate.js';
import { ACTIVE, statementCache, type Prepare } from './statements.js';
import {
  watchedHandles,
  type ClubGameType,
  type ClubMode,
  type ClubRules,
  type Pairing,
} from '../club/rules.js';
import type { GameResult } from '../protocol/events.js';

export interface ClubSettings {
  guildId: string;
  /** Where games are posted; null until /club channel. */
  channelId: string | null;
  /** Each game gets its own thread. */
  thread: boolean;
  mode: ClubMode;
  ratedOnly: boolean;
  /** Only these game types; null for every type. */
  types: readonly ClubGameType[] | null;
  /** The "limit reached" notice was given and games still wait for room. */
  capNoticed: boolean;
}

export type ClubSettingsPatch = Partial<Omit<ClubSettings, 'guildId' | 'capNoticed'>>;

/** Settings, members and pairings together: what the rules need. */
export interface Club extends ClubSettings, ClubRules {}

export interface ClubGame {
  id: number;
  guildId: string;
  channelId: string;
  gameKey: string;
  game: number;
  white: string;
  black: string;
  postId: number | null;
  messageChannelId: string | null;
  messageId: string | null;
  /** Null while the game runs (or was last seen running). */
  result: GameResult | null;
  reason: string | null;
  startedAt: number;
  endedAt: number | null;
}

export type NewClubGame = Omit<ClubGame, 'id' | 'result' | 'reason' | 'startedAt' | 'endedAt'>;

interface ClubRow {
  guild_id: string;
  channel_id: string | null;
  thread: number;
  mode: ClubMode;
  rated_only: number;
  types: string | null;
  cap_noticed: number;
}

interface ClubGameRow {
  id: number;
  guild_id: string;
  channel_id: string;
  game_key: string;
  game_number: number;
  white: string;
  black: string;
  post_id: number | null;
  message_channel_id: string | null;
  message_id: string | null;
  result: GameResult | null;
  reason: string | null;
  started_at: number;
  ended_at: number | null;
}

function toSettings(guildId: string, row: ClubRow | undefined): ClubSettings {
  return {
    guildId,
    channelId: row?.channel_id ?? null,
    thread: row?.thread === 1,
    mode: row?.mode ?? 'all',
    ratedOnly: row?.rated_only === 1,
    types: row?.types ? (row.types.split(',') as ClubGameType[]) : null,
    capNoticed: row?.cap_noticed === 1,
  };
}

function toClubGame(row: ClubGameRow): ClubGame {
  return {
    id: row.id,
    guildId: row.guild_id,
    channelId: row.channel_id,
    gameKey: row.game_key,
    game: row.game_number,
    white: row.white,
    black: row.black,
    postId: row.post_id,
    messageChannelId: row.message_channel_id,
    messageId: row.message_id,
    result: row.result,
    reason: row.reason,
    startedAt: row.started_at,
    endedAt: row.ended_at,
  };
}

export class ClubRepository {
  readonly #db: Database;
  readonly #prepare: Prepare;
  readonly #now: () => number;

  constructor(db: Database, now: () => number) {
    this.#db = db;
    this.#prepare = statementCache(db);
    this.#now = now;
  }

  /** The guild's settings; defaults for a guild that never set any. */
  settings(guildId: string): ClubSettings {
    const row = this.#prepare('SELECT * FROM clubs WHERE guild_id = ?').get(guildId) as ClubRow | undefined;
    return toSettings(guildId, row);
  }

  /** Settings, members and pairings of one guild. */
  get(guildId: string): Club {
    return { ...this.settings(guildId), members: this.members(guildId), pairings: this.pairings(guildId) };
  }

  /** Changes the given settings, keeps the others; `by` is the Discord user who changed them. */
  update(guildId: string, patch: ClubSettingsPatch, by: string): ClubSettings {
    const next: ClubSettings = { ...this.settings(guildId), ...patch, guildId };
    this.#prepare(
      `INSERT INTO clubs (guild_id, channel_id, thread, mode, rated_only, types, updated_by, updated_at)
         VALUES (@guildId, @channelId, @thread, @mode, @ratedOnly, @types, @by, @at)
         ON CONFLICT (guild_id) DO UPDATE SET channel_id = excluded.channel_id, thread = excluded.thread,
           mode = excluded.mode, rated_only = excluded.rated_only, types = excluded.types,
           updated_by = excluded.updated_by, updated_at = excluded.updated_at`,
    ).run({
      guildId,
      channelId: next.channelId,
      thread: next.thread ? 1 : 0,
      mode: next.mode,
      ratedOnly: next.ratedOnly ? 1 : 0,
      types: next.types === null ? null : next.types.join(','),
      by,
      at: this.#now(),
    });
    return next;
  }

  /** Remembers that the "limit reached" notice went out (or may go out again). */
  setCapNoticed(guildId: string, noticed: boolean): void {
    this.#prepare('UPDATE clubs SET cap_noticed = ? WHERE guild_id = ?').run(noticed ? 1 : 0, guildId);
  }

  guildsWithCapNotice(): string[] {
    const rows = this.#prepare('SELECT guild_id FROM clubs WHERE cap_noticed = 1').all() as {
      guild_id: string;
    }[];
    return rows.map((r) => r.guild_id);
  }

  /** True when the handle was not a member yet. */
  addMember(guildId: string, handle: string, by: string): boolean {
    return (
      this.#prepare(
        'INSERT INTO club_members (guild_id, handle, added_by, added_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
      ).run(guildId, handle, by, this.#now()).changes === 1
    );
  }

  /** True when the handle was a member. */
  removeMember(guildId: string, handle: string): boolean {
    return (
      this.#prepare('DELETE FROM club_members WHERE guild_id = ? AND handle = ?').run(guildId, handle)
        .changes === 1
    );
  }

  members(guildId: string): string[] {
    const rows = this.#prepare('SELECT handle FROM club_members WHERE guild_id = ? ORDER BY handle').all(
      guildId,
    ) as { handle: string }[];
    return rows.map((r) => r.handle);
  }

  /** Replaces the guild's pairings (an empty list clears them). */
  setPairings(guildId: string, pairings: readonly Pairing[]): void {
    this.#db.transaction(() => {
      this.#prepare('DELETE FROM club_pairings WHERE guild_id = ?').run(guildId);
      const insert = this.#prepare(
        'INSERT INTO club_pairings (guild_id, board, first, second) VALUES (?, ?, ?, ?)',
      );
      pairings.forEach((p, i) => insert.run(guildId, i + 1, p.first, p.second));
    })();
  }

  pairings(guildId: string): Pairing[] {
    return this.#prepare('SELECT first, second FROM club_pairings WHERE guild_id = ? ORDER BY board').all(
      guildId,
    ) as Pairing[];
  }

  /** Clubs with a channel whose members or pairings name either player. */
  clubsFor(white: string, black: string): Club[] {
    const rows = this.#prepare(
      `SELECT guild_id FROM clubs WHERE channel_id IS NOT NULL AND ${ACTIVE} AND guild_id IN (
           SELECT guild_id FROM club_members WHERE handle IN (?, ?)
           UNION SELECT guild_id FROM club_pairings WHERE first IN (?, ?) OR second IN (?, ?))
         ORDER BY guild_id`,
    ).all(white, black, white, black, white, black) as { guild_id: string }[];
    return rows.map((r) => this.get(r.guild_id));
  }

  /** Every handle some club needs to hear about, once (see `watchedHandles`). */
  watchedHandles(): Handle[] {
    const rows = this.#prepare(
      `SELECT guild_id FROM clubs WHERE ${ACTIVE}
         UNION SELECT guild_id FROM club_members WHERE ${ACTIVE} ORDER BY guild_id`,
    ).all() as { guild_id: string }[];
    const seen = new Map<string, string>();
    for (const { guild_id } of rows) {
      for (const handle of watchedHandles(this.get(guild_id))) {
        if (!seen.has(handle.toLowerCase())) seen.set(handle.toLowerCase(), handle);
      }
    }
    return storedHandles([...seen.values()].sort((a, b) => a.localeCompare(b)));
  }

  /** True when some club needs to hear about this handle's games. */
  watches(handle: string): boolean {
    return this.watchedHandles().some((h) => h.toLowerCase() === handle.toLowerCase());
  }

  /** Records a posted game; null when the club already has this game open (posted before). */
  recordGame(game: NewClubGame): ClubGame | null {
    const { changes, lastInsertRowid } = this.#prepare(
      `INSERT INTO club_games (guild_id, channel_id, game_key, game_number, white, black, post_id,
           message_channel_id, message_id, started_at)
         VALUES (@guildId, @channelId, @gameKey, @game, @white, @black, @postId, @messageChannelId,
           @messageId, @at)
         ON CONFLICT DO NOTHING`,
    ).run({ ...game, at: this.#now() });
    if (changes === 0) return null;
    return this.#game('SELECT * FROM club_games WHERE id = ?', Number(lastInsertRowid));
  }

  /** The club's record of a game still running (or last seen running). */
  openGame(guildId: string, gameKey: string): ClubGame | null {
    return this.#game(
      'SELECT * FROM club_games WHERE guild_id = ? AND game_key = ? AND ended_at IS NULL',
      guildId,
      gameKey,
    );
  }

  gameOfPost(postId: number): ClubGame | null {
    return this.#game('SELECT * FROM club_games WHERE post_id = ?', postId);
  }

  /** Notes the end of a game in every club that posted it; returns how many records changed. */
  finishGame(gameKey: string, result: GameResult, reason: string | null): number {
    return this.#prepare(
      'UPDATE club_games SET result = ?, reason = ?, ended_at = ? WHERE game_key = ? AND ended_at IS NULL',
    ).run(result, reason, this.#now(), gameKey).changes;
  }

  /** Closes one record (its game is gone, or a new game took its number and players). */
  closeGame(id: number, result: GameResult, reason: string | null): boolean {
    return (
      this.#prepare(
        'UPDATE club_games SET result = ?, reason = ?, ended_at = ? WHERE id = ? AND ended_at IS NULL',
      ).run(result, reason, this.#now(), id).changes === 1
    );
  }

  /** Finished games of a club since `since` (ms), most recent first. */
  results(guildId: string, since: number, limit = 50): ClubGame[] {
    return (
      this.#prepare(
        `SELECT * FROM club_games WHERE guild_id = ? AND ended_at IS NOT NULL AND ended_at >= ?
           ORDER BY ended_at DESC, id DESC LIMIT ?`,
      ).all(guildId, since, limit) as ClubGameRow[]
    ).map(toClubGame);
  }

  #game(sql: string, ...params: (string | number)[]): ClubGame | null {
    const row = this.#prepare(sql).get(...params) as ClubGameRow | undefined;
    return row === undefined ? null : toClubGame(row);
  }
}
