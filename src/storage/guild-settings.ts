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

  /** The cap that applies to the guild: its own setting, else `fallback`. */
  maxLiveGames(guildId: string, fallback: number): number {
    return this.get(guildId).maxLiveGames ?? fallback;
  }
}
