// Per-guild settings. A null field means "use the bot-wide default from the configuration".
import { isThemeName, type ThemeName } from '../../render/theme.js';
import type { Sql } from './sql.js';

export interface GuildSettings {
  guildId: string;
  /** Cap on simultaneous live games in the guild; null uses KIBITZ_MAX_LIVE_PER_GUILD. */
  maxLiveGames: number | null;
  /** Board colours of the guild's pictures and pages; null uses the default theme. */
  theme: ThemeName | null;
  /** Kibitzes into a post's thread when `/observe` (or a club post) does not say; null is off. */
  kibitz: boolean | null;
}

export type GuildSettingsPatch = Partial<Omit<GuildSettings, 'guildId'>>;

interface GuildSettingsRow {
  guild_id: string;
  max_live_games: number | null;
  theme: string | null;
  kibitz: number | null;
}

/** A row's settings; a theme this version does not know (a newer one wrote it) reads as the default. */
function toGuildSettings(guildId: string, row: GuildSettingsRow | undefined): GuildSettings {
  const theme = row?.theme ?? null;
  const kibitz = row?.kibitz ?? null;
  return {
    guildId,
    maxLiveGames: row?.max_live_games ?? null,
    theme: theme !== null && isThemeName(theme) ? theme : null,
    kibitz: kibitz === null ? null : kibitz === 1,
  };
}

export class GuildSettingsRepository {
  readonly #sql: Sql;
  readonly #now: () => number;
  /** Reloads the interest index (interest.ts) after a write that changes it. */
  readonly #changed: () => Promise<void>;

  constructor(sql: Sql, now: () => number, changed: () => Promise<void>) {
    this.#sql = sql;
    this.#now = now;
    this.#changed = changed;
  }

  /** The guild's settings; all defaults (nulls) for a guild that never changed any. */
  async get(guildId: string): Promise<GuildSettings> {
    const row = await this.#sql.get<GuildSettingsRow>(
      'SELECT * FROM guild_settings WHERE guild_id = ?',
      guildId,
    );
    return toGuildSettings(guildId, row);
  }

  /** Changes the given fields, keeps the others, and returns the result. */
  async update(guildId: string, patch: GuildSettingsPatch): Promise<GuildSettings> {
    const current = await this.get(guildId);
    const next: GuildSettings = { ...current, ...patch, guildId };
    await this.#sql.run(
      `INSERT INTO guild_settings (guild_id, max_live_games, theme, kibitz, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (guild_id) DO UPDATE SET max_live_games = excluded.max_live_games, theme = excluded.theme,
           kibitz = excluded.kibitz, updated_at = excluded.updated_at`,
      guildId,
      next.maxLiveGames,
      next.theme,
      next.kibitz === null ? null : next.kibitz ? 1 : 0,
      this.#now(),
    );
    await this.#changed();
    return next;
  }

  /** The bot was removed from the guild: its follows and club stay stored but are not acted on. */
  async setInactive(guildId: string): Promise<void> {
    await this.#sql.run(
      'INSERT INTO inactive_guilds (guild_id, since) VALUES (?, ?) ON CONFLICT DO NOTHING',
      guildId,
      this.#now(),
    );
    await this.#changed();
  }

  /** The bot is in the guild (again); true when it had been removed. */
  async setActive(guildId: string): Promise<boolean> {
    const removed = await this.#sql.run('DELETE FROM inactive_guilds WHERE guild_id = ?', guildId);
    await this.#changed();
    return removed > 0;
  }

  async isActive(guildId: string): Promise<boolean> {
    return (await this.#sql.get('SELECT 1 FROM inactive_guilds WHERE guild_id = ?', guildId)) === undefined;
  }

  /** Active guilds with something stored: follows, a club, a TV, live posts or settings. */
  async guildsWithSetUp(): Promise<string[]> {
    const rows = await this.#sql.all<{ guild_id: string }>(
      `SELECT guild_id FROM follows UNION SELECT guild_id FROM clubs
         UNION SELECT guild_id FROM club_members UNION SELECT guild_id FROM guild_settings
         UNION SELECT guild_id FROM tv_channels
         UNION SELECT guild_id FROM live_posts WHERE state = 'live'
       EXCEPT SELECT guild_id FROM inactive_guilds`,
    );
    return rows.map((row) => row.guild_id);
  }

  /** The cap that applies to the guild: its own setting, else `fallback`. */
  async maxLiveGames(guildId: string, fallback: number): Promise<number> {
    return (await this.get(guildId)).maxLiveGames ?? fallback;
  }
}
