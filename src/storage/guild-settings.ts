// Per-guild settings. A null field means "use the bot-wide default from the configuration".
import type { Database } from 'better-sqlite3';
import { statementCache, type Prepare } from './statements.js';

export interface GuildSettings {
  guildId: string;
  /** Cap on simultaneous live games in the guild; null uses KIBITZ_MAX_LIVE_PER_GUILD. */
  maxLiveGames: number | null;
}

export type GuildSettingsPatch = Partial<Omit<GuildSettings, 'guildId'>>;

interface GuildSettingsRow {
  guild_id: string;
  max_live_games: number | null;
}

export class GuildSettingsRepository {
  readonly #prepare: Prepare;
  readonly #now: () => number;

  constructor(db: Database, now: () => number) {
    this.#prepare = statementCache(db);
    this.#now = now;
  }

  /** The guild's settings; all defaults (nulls) for a guild that never changed any. */
  get(guildId: string): GuildSettings {
    const row = this.#prepare('SELECT * FROM guild_settings WHERE guild_id = ?').get(guildId) as
      GuildSettingsRow | undefined;
    return { guildId, maxLiveGames: row?.max_live_games ?? null };
  }

  /** Changes the given fields, keeps the others, and returns the result. */
  update(guildId: string, patch: GuildSettingsPatch): GuildSettings {
    const current = this.get(guildId);
    const next: GuildSettings = { ...current, ...patch, guildId };
    this.#prepare(
      `INSERT INTO guild_settings (guild_id, max_live_games, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (guild_id) DO UPDATE SET max_live_games = excluded.max_live_games, updated_at = excluded.updated_at`,
    ).run(guildId, next.maxLiveGames, this.#now());
    return next;
  }

  /** The bot was removed from the guild: its follows and club stay stored but are not acted on. */
  setInactive(guildId: string): void {
    this.#prepare('INSERT OR IGNORE INTO inactive_guilds (guild_id, since) VALUES (?, ?)').run(
      guildId,
      this.#now(),
    );
  }

  /** The bot is in the guild (again); true when it had been removed. */
  setActive(guildId: string): boolean {
    return this.#prepare('DELETE FROM inactive_guilds WHERE guild_id = ?').run(guildId).changes > 0;
  }

  isActive(guildId: string): boolean {
    return this.#prepare('SELECT 1 FROM inactive_guilds WHERE guild_id = ?').get(guildId) === undefined;
  }

  /** Active guilds with something stored: follows, a club, live posts or settings. */
  guildsWithSetUp(): string[] {
    const rows = this.#prepare(
      `SELECT guild_id FROM follows UNION SELECT guild_id FROM clubs
         UNION SELECT guild_id FROM club_members UNION SELECT guild_id FROM guild_settings
         UNION SELECT guild_id FROM live_posts WHERE state = 'live'
       EXCEPT SELECT guild_id FROM inactive_guilds`,
    ).all() as { guild_id: string }[];
    return rows.map((row) => row.guild_id);
  }

  /** The cap that applies to the guild: its own setting, else `fallback`. */
  maxLiveGames(guildId: string, fallback: number): number {
    return this.get(guildId).maxLiveGames ?? fallback;
  }
}
