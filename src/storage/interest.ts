// Who wants which player's games, and each guild's own live-game cap, held in memory. The FICS
// pool asks both from its event handlers, where a place in a guild's share is checked and taken
// in one synchronous step (src/fics/shares.ts): a database round trip cannot sit in that step.
// The repositories reload it after every write that changes it, before the write's promise
// settles, so a command that stored a follow finds it here when it goes on.
import { ACTIVE, type Sql } from './sql.js';

const CLUBS_POSTING = `SELECT guild_id FROM clubs WHERE channel_id IS NOT NULL AND ${ACTIVE}`;

export class InterestIndex {
  readonly #sql: Sql;
  /** Lower-case handle -> guilds that follow it or have it in a posting club. */
  #guilds = new Map<string, Set<string>>();
  #caps = new Map<string, number>();
  /** Reloads one after the other: the last one applied is the last one read. */
  #reloads: Promise<void> = Promise.resolve();

  constructor(sql: Sql) {
    this.#sql = sql;
  }

  /**
   * Guilds the bot is in that follow either player or whose club (with a channel) has either as a
   * member or in a pairing.
   */
  wantedBy(players: readonly string[]): string[] {
    const guilds = new Set<string>();
    for (const player of players)
      for (const guild of this.#guilds.get(player.toLowerCase()) ?? []) guilds.add(guild);
    return [...guilds];
  }

  /** The guild's own cap, else `fallback`. */
  maxLiveGames(guildId: string, fallback: number): number {
    return this.#caps.get(guildId) ?? fallback;
  }

  reload(): Promise<void> {
    this.#reloads = this.#reloads.then(
      () => this.#load(),
      () => this.#load(),
    );
    return this.#reloads;
  }

  async #load(): Promise<void> {
    const [wanting, caps] = await Promise.all([
      this.#sql.all<{ handle: string; guild_id: string }>(
        `SELECT handle, guild_id FROM follows WHERE ${ACTIVE}
           UNION SELECT handle, guild_id FROM club_members WHERE guild_id IN (${CLUBS_POSTING})
           UNION SELECT first, guild_id FROM club_pairings WHERE guild_id IN (${CLUBS_POSTING})
           UNION SELECT second, guild_id FROM club_pairings WHERE guild_id IN (${CLUBS_POSTING})`,
      ),
      this.#sql.all<{ guild_id: string; max_live_games: number }>(
        'SELECT guild_id, max_live_games FROM guild_settings WHERE max_live_games IS NOT NULL',
      ),
    ]);
    const guilds = new Map<string, Set<string>>();
    for (const { handle, guild_id } of wanting) {
      const name = handle.toLowerCase();
      let set = guilds.get(name);
      if (set === undefined) guilds.set(name, (set = new Set()));
      set.add(guild_id);
    }
    this.#guilds = guilds;
    this.#caps = new Map(caps.map((row) => [row.guild_id, row.max_live_games]));
  }
}
