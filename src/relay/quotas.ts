// How many live posts a guild has, counting those on their way: a watch in progress takes its
// place as it passes the check, so concurrent requests cannot all pass, and a post whose final
// edit is on its way gives its place back at once. The check reads the database, so the checks
// of one guild run one at a time, each taking its place before the next one reads, and a watch
// gives its place back (its post recorded) only between checks.
import { Serial } from '../serial.js';
import type { Storage } from '../storage/index.js';
import type { GameId } from '../game/game-id.js';

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
  private readonly checks = new Serial<string>();

  constructor(
    private readonly storage: Storage,
    /** Live games per guild unless the guild set its own cap. */
    private readonly maxLivePerGuild: number,
  ) {}

  /** Null when the guild has room for one more live post, else why not. */
  async overCap(guildId: string): Promise<string | null> {
    const [cap, live] = await Promise.all([
      this.storage.guildSettings.maxLiveGames(guildId, this.maxLivePerGuild),
      this.storage.livePosts.countLiveInGuild(guildId),
    ]);
    const over = [...this.finishing.values()].filter((guild) => guild === guildId).length;
    const coming = this.admitting.get(guildId) ?? 0;
    if (live + coming - over < cap) return null;
    return `This server already relays ${cap} live games, its limit. Stop one with /unobserve first.`;
  }

  /**
   * Checks the guild's cap and, when it has room, takes a place (admitStarted) in the same step;
   * null when the place was taken, else why not.
   */
  admit(guildId: string): Promise<string | null> {
    return this.checks.run(guildId, async () => {
      const full = await this.overCap(guildId);
      if (full === null) this.admitStarted(guildId);
      return full;
    });
  }

  watchStarted(game: GameId): void {
    count(this.watching, game, 1);
  }

  watchDone(game: GameId): void {
    count(this.watching, game, -1);
  }

  /** A watch() of this game is in progress. */
  isWatching(game: GameId): boolean {
    return this.watching.has(game);
  }

  private admitStarted(guildId: string): void {
    count(this.admitting, guildId, 1);
  }

  /**
   * The watch's post is recorded (it counts among the live posts now) or failed. Queued behind the
   * checks in progress: a check that read the live posts before this one was recorded must still
   * count it as coming, or it would count it nowhere.
   */
  admitDone(guildId: string): void {
    void this.checks.run(guildId, () => Promise.resolve(count(this.admitting, guildId, -1)));
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
