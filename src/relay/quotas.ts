// How many live posts a guild has, counting those on their way: a watch in progress takes its
// place before anything is awaited, so concurrent requests cannot all pass the check, and a post
// whose final edit is on its way gives its place back at once.
import type { Storage } from '../storage/index.js';

export class Quotas {
  /** Games with a watch in progress: observed, but their post does not exist yet. */
  private readonly watching = new Map<number, number>();
  /** Watches in progress per guild: they count against its cap until their post exists or fails. */
  private readonly admitting = new Map<string, number>();
  /**
   * Posts whose final edit is on its way, with their guild: no other edit, stop or second finish
   * for them, and they no longer count against their guild's cap.
   */
  private readonly finishing = new Map<number, string>();

  constructor(
    private readonly storage: Storage,
    /** Live games per guild unless the guild set its own cap. */
    private readonly maxLivePerGuild: number,
  ) {}

  /** Null when the guild has room for one more live post, else why not. */
  overCap(guildId: string): string | null {
    const cap = this.storage.guildSettings.maxLiveGames(guildId, this.maxLivePerGuild);
    const over = [...this.finishing.values()].filter((guild) => guild === guildId).length;
    const coming = this.admitting.get(guildId) ?? 0;
    if (this.storage.livePosts.countLiveInGuild(guildId) + coming - over < cap) return null;
    return `This server already relays ${cap} live games, its limit. Stop one with /unobserve first.`;
  }

  watchStarted(game: number): void {
    count(this.watching, game, 1);
  }

  watchDone(game: number): void {
    count(this.watching, game, -1);
  }

  /** A watch() of this game is in progress. */
  isWatching(game: number): boolean {
    return this.watching.has(game);
  }

  admitStarted(guildId: string): void {
    count(this.admitting, guildId, 1);
  }

  admitDone(guildId: string): void {
    count(this.admitting, guildId, -1);
  }

  finishStarted(postId: number, guildId: string): void {
    this.finishing.set(postId, guildId);
  }

  finishDone(postId: number): void {
    this.finishing.delete(postId);
  }

  isFinishing(postId: number): boolean {
    return this.finishing.has(postId);
  }
}

function count<K>(counts: Map<K, number>, key: K, by: 1 | -1): void {
  const next = (counts.get(key) ?? 0) + by;
  if (next > 0) counts.set(key, next);
  else counts.delete(key);
}
