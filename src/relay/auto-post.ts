// Posting games nobody asked for at the moment they start: a followed player's, a club member's.
// Each source names the channels that want a new game; every target goes through the relay's
// watch(), so it takes the guild's cap and share of FICS like a command would.
import type { GameSnapshot } from '../game/snapshot.js';
import type { Logger } from '../log.js';
import type { LivePost, Storage } from '../storage/index.js';
import type { LivePostOptions } from '../storage/live-posts.js';
import { gameKeyOf } from '../game/game-key.js';
import type { WatchResult } from './open-post.js';
import type { GameId } from '../game/game-id.js';

/** A channel that wants a game posted without anyone asking (follows, clubs). */
export interface AutoPostTarget {
  guildId: string;
  channelId: string;
  options: LivePostOptions;
  requestedBy: string;
  /** Told when the guild's live-game cap kept the game out. */
  onCapReached?: (message: string) => void;
  /** Told once the game is posted (clubs record their games). */
  onPosted?: (post: LivePost) => Promise<void>;
}

/** Which channels want a game that has just started. */
export type AutoPostSource = (snapshot: GameSnapshot, storage: Storage) => Promise<AutoPostTarget[]>;

/** Channels that follow either player; Black at the bottom when the followed player has Black. */
export const followTargets: AutoPostSource = async (snapshot, storage) => {
  const [white, black] = await Promise.all([
    storage.follows.listForHandle(snapshot.white),
    storage.follows.listForHandle(snapshot.black),
  ]);
  return [...white, ...black].map((follow) => ({
    guildId: follow.guildId,
    channelId: follow.channelId,
    options: { flip: follow.handle.toLowerCase() === snapshot.black.toLowerCase(), thread: false },
    requestedBy: follow.createdBy,
  }));
};

export interface AutoPosterOptions {
  storage: Storage;
  logger: Logger;
  /** Follows by default; more are added with add(). */
  sources?: AutoPostSource[];
  watch(target: AutoPostTarget, game: GameId): Promise<WatchResult>;
  /** The guilds this process relays. */
  owns(guildId: string): boolean;
  /** The relay has stopped (and closed storage). */
  closed(): boolean;
  /** Runs a database write; a refused one is logged and false. */
  recorded(what: string, write: () => Promise<unknown>): Promise<boolean>;
}

export class AutoPoster {
  private readonly sources: AutoPostSource[];

  constructor(private readonly options: AutoPosterOptions) {
    this.sources = [...(options.sources ?? [followTargets])];
  }

  /** Another source, asked after the ones before it. */
  add(source: AutoPostSource): void {
    this.sources.push(source);
  }

  /**
   * A game started that someone asked for in advance (a followed player, a club member): post it
   * in every channel that wants it and does not have it yet.
   */
  async post(snapshot: GameSnapshot): Promise<void> {
    const { storage } = this.options;
    const seen = new Set<string>();
    for (const source of this.sources) {
      // Posting takes a round trip: the bot may have stopped (and closed storage) meanwhile.
      if (this.options.closed()) return;
      let targets: AutoPostTarget[] = [];
      // A source reads (and clubs write) the database: one that fails posts nothing, the others go on.
      await this.options.recorded(
        'find who wants a new game',
        async () => (targets = await source(snapshot, storage)),
      );
      for (const target of targets) {
        if (this.options.closed()) return;
        if (seen.has(target.channelId) || !this.options.owns(target.guildId)) continue;
        seen.add(target.channelId);
        if ((await storage.livePosts.findLive(target.channelId, gameKeyOf(snapshot))) !== null) continue;
        const result = await this.options.watch(target, snapshot.game);
        if (result.ok)
          await this.options.recorded('record a posted game', async () =>
            target.onPosted?.(result.value.post),
          );
        else if (result.error.kind === 'full') {
          target.onCapReached?.(result.error.message);
          this.options.logger.info(
            { guildId: target.guildId, game: snapshot.game },
            'game not posted: no room',
          );
        } else
          this.options.logger.warn(
            { channelId: target.channelId, error: result.error.message },
            'game not posted',
          );
      }
    }
  }
}
