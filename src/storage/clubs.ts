// Clubs: one per Discord server. Its settings, its members (FICS handles, compared without case
// as FICS does), the pairings of a scheduled match, and every game it posted with the result.
import { storedHandles } from '../fics/validate.js';
import type { Handle } from '../protocol/handle.js';
import type { GameId } from '../game/game-id.js';
import { ACTIVE, type Sql, type SqlValue } from './sql.js';
import type { StoredGameIds } from './stored-game-ids.js';
import {
  watchedHandles,
  type ClubGameType,
  type ClubMode,
  type ClubRules,
  type Pairing,
} from '../game/club-rules.js';
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
  game: GameId;
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

/** Null for a row whose game number is not a game id (stored-game-ids.ts). */
function toClubGame(row: ClubGameRow, games: StoredGameIds): ClubGame | null {
  const game = games.read('club game', row.game_number);
  if (game === null) return null;
  return {
    id: row.id,
    guildId: row.guild_id,
    channelId: row.channel_id,
    gameKey: row.game_key,
    game,
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
  readonly #sql: Sql;
  readonly #now: () => number;
  /** Reloads the interest index (interest.ts) after a write that changes it. */
  readonly #changed: () => Promise<void>;
  readonly #games: StoredGameIds;

  constructor(sql: Sql, now: () => number, changed: () => Promise<void>, games: StoredGameIds) {
    this.#sql = sql;
    this.#now = now;
    this.#changed = changed;
    this.#games = games;
  }

  /** The guild's settings; defaults for a guild that never set any. */
  async settings(guildId: string): Promise<ClubSettings> {
    return toSettings(
      guildId,
      await this.#sql.get<ClubRow>('SELECT * FROM clubs WHERE guild_id = ?', guildId),
    );
  }

  /** Settings, members and pairings of one guild. */
  async get(guildId: string): Promise<Club> {
    const [settings, members, pairings] = await Promise.all([
      this.settings(guildId),
      this.members(guildId),
      this.pairings(guildId),
    ]);
    return { ...settings, members, pairings };
  }

  /** Changes the given settings, keeps the others; `by` is the Discord user who changed them. */
  async update(guildId: string, patch: ClubSettingsPatch, by: string): Promise<ClubSettings> {
    const next: ClubSettings = { ...(await this.settings(guildId)), ...patch, guildId };
    await this.#sql.run(
      `INSERT INTO clubs (guild_id, channel_id, thread, mode, rated_only, types, updated_by, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (guild_id) DO UPDATE SET channel_id = excluded.channel_id, thread = excluded.thread,
           mode = excluded.mode, rated_only = excluded.rated_only, types = excluded.types,
           updated_by = excluded.updated_by, updated_at = excluded.updated_at`,
      guildId,
      next.channelId,
      next.thread ? 1 : 0,
      next.mode,
      next.ratedOnly ? 1 : 0,
      next.types === null ? null : next.types.join(','),
      by,
      this.#now(),
    );
    await this.#changed();
    return next;
  }

  /** Remembers that the "limit reached" notice went out (or may go out again). */
  async setCapNoticed(guildId: string, noticed: boolean): Promise<void> {
    await this.#sql.run('UPDATE clubs SET cap_noticed = ? WHERE guild_id = ?', noticed ? 1 : 0, guildId);
  }

  async guildsWithCapNotice(): Promise<string[]> {
    const rows = await this.#sql.all<{ guild_id: string }>(
      'SELECT guild_id FROM clubs WHERE cap_noticed = 1',
    );
    return rows.map((r) => r.guild_id);
  }

  /** True when the handle was not a member yet. */
  async addMember(guildId: string, handle: string, by: string): Promise<boolean> {
    const added = await this.#sql.run(
      'INSERT INTO club_members (guild_id, handle, added_by, added_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
      guildId,
      handle,
      by,
      this.#now(),
    );
    await this.#changed();
    return added === 1;
  }

  /** True when the handle was a member. */
  async removeMember(guildId: string, handle: string): Promise<boolean> {
    const removed = await this.#sql.run(
      'DELETE FROM club_members WHERE guild_id = ? AND handle = ?',
      guildId,
      handle,
    );
    await this.#changed();
    return removed === 1;
  }

  async members(guildId: string): Promise<string[]> {
    const rows = await this.#sql.all<{ handle: string }>(
      'SELECT handle FROM club_members WHERE guild_id = ? ORDER BY handle',
      guildId,
    );
    return rows.map((r) => r.handle);
  }

  /** Replaces the guild's pairings (an empty list clears them). */
  async setPairings(guildId: string, pairings: readonly Pairing[]): Promise<void> {
    await this.#sql.transaction([
      { sql: 'DELETE FROM club_pairings WHERE guild_id = ?', params: [guildId] },
      ...pairings.map((p, i) => ({
        sql: 'INSERT INTO club_pairings (guild_id, board, first, second) VALUES (?, ?, ?, ?)',
        params: [guildId, i + 1, p.first, p.second],
      })),
    ]);
    await this.#changed();
  }

  async pairings(guildId: string): Promise<Pairing[]> {
    return this.#sql.all<Pairing>(
      'SELECT first, second FROM club_pairings WHERE guild_id = ? ORDER BY board',
      guildId,
    );
  }

  /** Clubs with a channel whose members or pairings name either player. */
  async clubsFor(white: string, black: string): Promise<Club[]> {
    const rows = await this.#sql.all<{ guild_id: string }>(
      `SELECT guild_id FROM clubs WHERE channel_id IS NOT NULL AND ${ACTIVE} AND guild_id IN (
           SELECT guild_id FROM club_members WHERE handle IN (?, ?)
           UNION SELECT guild_id FROM club_pairings WHERE first IN (?, ?) OR second IN (?, ?))
         ORDER BY guild_id`,
      white,
      black,
      white,
      black,
      white,
      black,
    );
    return Promise.all(rows.map((r) => this.get(r.guild_id)));
  }

  /** Every handle some club needs to hear about, once (see `watchedHandles`). */
  async watchedHandles(): Promise<Handle[]> {
    const rows = await this.#sql.all<{ guild_id: string }>(
      `SELECT guild_id FROM clubs WHERE ${ACTIVE}
         UNION SELECT guild_id FROM club_members WHERE ${ACTIVE} ORDER BY guild_id`,
    );
    const clubs = await Promise.all(rows.map(({ guild_id }) => this.get(guild_id)));
    const seen = new Map<string, string>();
    for (const club of clubs) {
      for (const handle of watchedHandles(club)) {
        if (!seen.has(handle.toLowerCase())) seen.set(handle.toLowerCase(), handle);
      }
    }
    return storedHandles([...seen.values()].sort((a, b) => a.localeCompare(b)));
  }

  /** True when some club needs to hear about this handle's games. */
  async watches(handle: string): Promise<boolean> {
    return (await this.watchedHandles()).some((h) => h.toLowerCase() === handle.toLowerCase());
  }

  /** Records a posted game; null when the club already has this game open (posted before). */
  async recordGame(game: NewClubGame): Promise<ClubGame | null> {
    const startedAt = this.#now();
    const id = await this.#sql.insert(
      `INSERT INTO club_games (guild_id, channel_id, game_key, game_number, white, black, post_id,
           message_channel_id, message_id, started_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT DO NOTHING`,
      game.guildId,
      game.channelId,
      game.gameKey,
      game.game,
      game.white,
      game.black,
      game.postId,
      game.messageChannelId,
      game.messageId,
      startedAt,
    );
    return id === null ? null : { ...game, id, result: null, reason: null, startedAt, endedAt: null };
  }

  /** The club's record of a game still running (or last seen running). */
  async openGame(guildId: string, gameKey: string): Promise<ClubGame | null> {
    return this.#game(
      'SELECT * FROM club_games WHERE guild_id = ? AND game_key = ? AND ended_at IS NULL',
      guildId,
      gameKey,
    );
  }

  async gameOfPost(postId: number): Promise<ClubGame | null> {
    return this.#game('SELECT * FROM club_games WHERE post_id = ?', postId);
  }

  /** Notes the end of a game in every club that posted it; returns how many records changed. */
  async finishGame(gameKey: string, result: GameResult, reason: string | null): Promise<number> {
    return this.#sql.run(
      'UPDATE club_games SET result = ?, reason = ?, ended_at = ? WHERE game_key = ? AND ended_at IS NULL',
      result,
      reason,
      this.#now(),
      gameKey,
    );
  }

  /** Closes one record (its game is gone, or a new game took its number and players). */
  async closeGame(id: number, result: GameResult, reason: string | null): Promise<boolean> {
    const closed = await this.#sql.run(
      'UPDATE club_games SET result = ?, reason = ?, ended_at = ? WHERE id = ? AND ended_at IS NULL',
      result,
      reason,
      this.#now(),
      id,
    );
    return closed === 1;
  }

  /** Finished games of a club since `since` (ms), most recent first. */
  async results(guildId: string, since: number, limit = 50): Promise<ClubGame[]> {
    const rows = await this.#sql.all<ClubGameRow>(
      `SELECT * FROM club_games WHERE guild_id = ? AND ended_at IS NOT NULL AND ended_at >= ?
         ORDER BY ended_at DESC, id DESC LIMIT ?`,
      guildId,
      since,
      limit,
    );
    return rows.flatMap((row) => toClubGame(row, this.#games) ?? []);
  }

  async #game(sql: string, ...params: SqlValue[]): Promise<ClubGame | null> {
    const row = await this.#sql.get<ClubGameRow>(sql, ...params);
    return row === undefined ? null : toClubGame(row, this.#games);
  }
}
