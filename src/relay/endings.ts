// How live posts end: a game's final edit (result, PGN, chart, GIF), a stop, a post Discord refused
// for good, a removed guild, a game that ended while Kibitz was offline; and the one way a guild
// gives a game back once none of its posts shows it.
import type { ThemeName } from '../../render/index.js';
import { isChessLive } from '../game/game-id.js';
import { gameKeyOf } from '../game/game-key.js';
import type { GameFeed } from '../game/feed.js';
import { makeSnapshotPgn } from '../game/pgn.js';
import type { GameSnapshot } from '../game/snapshot.js';
import type { Evaluation } from '../engine/uci.js';
import type { Logger } from '../log.js';
import { errorMessage } from '../result.js';
import type { FinishedGame, Storage } from '../storage/index.js';
import type { LivePost } from '../storage/live-posts.js';
import { truncate } from '../text.js';
import { chartEvaluations } from './evaluations.js';
import type { BoardImages } from './images.js';
import type { LiveAttachment, LiveMessage } from './message.js';
import type { Refused } from './latest-wins.js';
import type { Edit, PostSenders } from './post-sender.js';
import type { Quotas } from './quotas.js';
import type { GameId } from '../game/game-id.js';

export interface PostEndingsOptions {
  storage: Storage;
  feed: Pick<GameFeed, 'snapshot' | 'unobserve'>;
  logger: Logger;
  senders: PostSenders;
  quotas: Quotas;
  images: BoardImages;
  /** A game's evaluations by ply, for its end-of-game chart. */
  evaluations: (gameKey: string) => ReadonlyMap<number, Evaluation>;
  /** Runs a database write; a refused one is logged and false. */
  recorded: (what: string, write: () => Promise<unknown>) => Promise<boolean>;
  /** A post stopped being live. */
  ended: (post: LivePost) => void;
  /** A text notice in a channel, best effort. */
  notice: (channelId: string, text: string) => Promise<void>;
  closed: () => boolean;
}

export class PostEndings {
  /** Posts whose end is being written (stopped, refused, guild removed): no board goes to them. */
  private readonly ending = new Set<number>();
  /** Posts being ended for a refusal or a removed guild: idle() waits for them. */
  private readonly endings = new Set<Promise<void>>();

  constructor(private readonly options: PostEndingsOptions) {}

  /** A post whose end is being written. */
  isEnding(postId: number): boolean {
    return this.ending.has(postId);
  }

  /** Waits for the endings tracked (track()). */
  async idle(): Promise<void> {
    await Promise.all(this.endings);
  }

  /** Stops a live post (the message stays, marked stopped); unobserves when nobody else watches. */
  async stop(postId: number): Promise<void> {
    const post = await this.options.storage.livePosts.get(postId);
    if (post === null || post.state !== 'live' || this.options.quotas.isFinishing(post.id)) return;
    // Taken out of the edits now: no board is pushed to it while its end is being written.
    const sender = this.options.senders.take(post.id);
    this.ending.add(post.id);
    // Not recorded, it is still stopped now: the edit goes out and the game is let go.
    await this.options.recorded('end a stopped post', () =>
      this.options.storage.livePosts.end(post.id, 'ended'),
    );
    this.ending.delete(post.id);
    const snapshot = this.options.feed.snapshot(post.game);
    // Not awaited: under a rate limit the edit may wait seconds, and the user's answer must not.
    if (snapshot !== undefined) void sender.finish({ snapshot, files: null, stopped: true });
    await this.release(post.game, post.guildId, post.id);
    this.options.ended({ ...post, state: 'ended' });
  }

  /**
   * The bot was removed from a guild: its live posts end at once, without a request to Discord
   * (none would pass), and their games are unobserved when no other post shows them.
   */
  endGuild(guildId: string, reason: string): Promise<void> {
    const ending = (async () => {
      const posts = await this.options.storage.livePosts.listLiveInGuild(guildId);
      // No board is pushed to them while their ends are being written.
      for (const post of posts) {
        this.options.senders.drop(post.id);
        this.ending.add(post.id);
      }
      for (const post of posts) {
        await this.options.recorded("end a removed guild's post", () =>
          this.options.storage.livePosts.end(post.id, 'ended', reason),
        );
        this.ending.delete(post.id);
      }
      for (const post of posts) this.options.ended({ ...post, state: 'ended', endReason: reason });
      // Only games the feed has: right after a restart nothing is observed yet.
      for (const game of new Set(posts.map((p) => p.game)))
        if (this.options.feed.snapshot(game) !== undefined) await this.release(game, guildId);
    })();
    this.track(ending);
    return ending;
  }

  /** Keeps a post's ending (unobserve, notice) in view of idle(). */
  track(ending: Promise<void>): void {
    this.endings.add(ending);
    void ending.finally(() => this.endings.delete(ending));
  }

  /**
   * The final image with the result and the PGN, urgent; then the same with the whole-game GIF,
   * in its turn like a move (drawing a long game takes a while, and many end together). Each is
   * drawn once per theme among the game's posts (servers may each have their own).
   */
  async finish(snapshot: GameSnapshot, all: LivePost[]): Promise<void> {
    const posts = all.filter((post) => !this.options.quotas.isFinishing(post.id));
    if (posts.length === 0) return;
    for (const post of posts) this.options.quotas.finishStarted(post.id, post.guildId);
    const pgn = makeSnapshotPgn(snapshot);
    // Kept for a restart's final edit; queued, so the final edit never waits on the database.
    this.options.storage.finishedGames.save({
      gameKey: gameKeyOf(snapshot),
      game: snapshot.game,
      white: snapshot.white,
      black: snapshot.black,
      pgn,
      result: snapshot.result,
      reason: snapshot.reason,
      endedAt: Date.now(),
    });
    const evaluations = chartEvaluations(snapshot, this.options.evaluations(gameKeyOf(snapshot)));
    const themes = new Set(posts.map((post) => post.options.theme));
    const files = new Map<ThemeName | undefined, Promise<LiveAttachment[]>>();
    for (const theme of themes)
      files.set(theme, this.options.images.finalFiles(snapshot, pgn, evaluations, theme));
    const filesOf = (post: LivePost): Promise<LiveAttachment[]> => files.get(post.options.theme)!;
    await Promise.all(
      posts.map(async (post) => this.finishPost(post, { snapshot, files: await filesOf(post) })),
    );
    // A final that was cut to fit would be refused again with the GIF.
    const whole = posts.filter((post) => !this.options.senders.finalWasCut(post.id));
    if (this.options.closed() || whole.length === 0) return;
    const gifs = new Map<ThemeName | undefined, Promise<LiveAttachment | null>>();
    for (const theme of new Set(whole.map((post) => post.options.theme)))
      gifs.set(theme, this.options.images.finalGif(snapshot, theme));
    await Promise.all(
      whole.map(async (post) => {
        const gif = await gifs.get(post.options.theme)!;
        if (gif === null) return;
        const later = { snapshot, files: [...(await filesOf(post)), gif], later: true };
        await this.options.senders.take(post.id).finish(later);
      }),
    );
  }

  /**
   * Sends a post's final edit, then marks it ended: a crash or a shutdown before the edit went out
   * leaves it live, and the next start sends it from the stored PGN (resume).
   */
  private async finishPost(post: LivePost, edit: Edit): Promise<void> {
    this.options.quotas.finishStarted(post.id, post.guildId);
    const sender = this.options.senders.take(post.id);
    await sender.finish(edit);
    this.options.quotas.finishDone(post.id);
    if (this.options.closed()) return;
    await this.options.recorded('end a finished post', () =>
      this.options.storage.livePosts.end(post.id, 'ended'),
    );
    this.options.ended({ ...post, state: 'ended' });
  }

  /** The final edit of a game that ended just before a restart, from its stored PGN. */
  async finishStored(post: LivePost, game: FinishedGame): Promise<void> {
    const message = await this.options.images.storedFinal(game, post.options);
    this.options.logger.info({ postId: post.id, game: post.game }, 'final edit sent after a restart');
    await this.finishPost(post, { message });
    // Its GIF is not sent after a restart: a cut noted for it is forgotten.
    this.options.senders.finalWasCut(post.id);
  }

  /** A post no board goes to: its final edit is on its way, or its end is being written. */
  ignored(postId: number): boolean {
    return this.options.quotas.isFinishing(postId) || this.ending.has(postId);
  }

  /**
   * Discord refused a post for good (its message deleted, its channel or permission gone): the
   * post ends at once. No further request for it, its slot of the guild's cap is free, the game
   * is unobserved when no other post shows it, the reason is stored, and where the channel can
   * still take a message it is told, once, why the board stopped.
   */
  async refused(postId: number, refusal: Refused): Promise<void> {
    if (this.options.closed()) return;
    const post = await this.options.storage.livePosts.get(postId);
    if (post === null) return;
    this.options.logger.warn(
      {
        postId,
        guildId: post.guildId,
        game: post.game,
        code: refusal.detail.code,
        reason: refusal.reason,
      },
      'Discord refused a live post for good: it ends',
    );
    const wasLive = post.state === 'live' && !this.options.quotas.isFinishing(post.id);
    // No board is pushed to it while its end is being written.
    this.ending.add(post.id);
    try {
      await this.options.storage.livePosts.end(
        post.id,
        post.state === 'live' ? 'ended' : post.state,
        refusal.reason,
      );
    } finally {
      this.ending.delete(post.id);
    }
    // A final edit that was refused: finishPost ends the post as it does any other.
    if (!wasLive) return;
    this.options.ended({ ...post, state: 'ended', endReason: refusal.reason });
    await this.release(post.game, post.guildId);
    if (refusal.detail.canNotify && post.messageChannelId !== null)
      await this.options.notice(
        post.messageChannelId,
        truncate(
          `The live board of game ${post.game} (${post.white} vs ${post.black}) stopped: ${refusal.reason}.`,
          2_000,
        ),
      );
  }

  async endedOffline(post: LivePost): Promise<void> {
    await this.options.recorded('end a post gone offline', () =>
      this.options.storage.livePosts.end(post.id, 'ended_offline'),
    );
    this.options.ended({ ...post, state: 'ended_offline' });
    this.options.logger.info({ postId: post.id, game: post.game }, 'game ended while offline');
    if (post.messageId === null || post.messageChannelId === null) return;
    // Through a sender like every edit: it waits out rate limits, and logs a failure.
    const sender = this.options.senders.take(post.id);
    await sender.finish({
      message: {
        title: `Game ${post.game}: ${post.white} vs ${post.black}`,
        lines: ['The game ended while Kibitz was offline; the server no longer has it.'],
        image: null,
        ...keptPartner(post.options.pair),
        files: [],
        live: false,
        footer: 'ended while offline',
      },
    });
  }

  /**
   * The one way a guild gives a game back: once none of its posts shows the game, its claim on
   * the observation goes, and the game is unobserved when no guild holds it any more.
   */
  async release(game: GameId, guildId: string, except?: number): Promise<void> {
    let live: LivePost[] = [];
    try {
      // `except`: a post that is over but could not be recorded as such.
      live = (await this.options.storage.livePosts.listLiveByGame(game)).filter((post) => post.id !== except);
    } catch (error) {
      // Unreadable: this guild lets go of its claim all the same; other guilds keep theirs.
      this.options.logger.error({ err: error, game }, 'database read failed');
    }
    if (live.some((post) => post.guildId === guildId)) return;
    // ChessLive! sources keep no claims: one is read while any post shows it.
    const shown = this.options.feed.snapshot(game);
    if (live.length > 0 && shown !== undefined && isChessLive(shown)) return;
    await this.unobserve(game, guildId);
  }

  async unobserve(game: GameId, guildId?: string): Promise<void> {
    try {
      await this.options.feed.unobserve(game, guildId);
    } catch (error) {
      this.options.logger.warn({ game, error: errorMessage(error) }, 'unobserve failed');
    }
  }
}

/**
 * An edit keeping a post's pictures keeps its partner board's embed, as the post's stored pair
 * says, with no read of the message; a post stored before its pair was has the message read.
 */
function keptPartner(pair: boolean | undefined): Pick<LiveMessage, 'keeps'> {
  if (pair === undefined) return { keeps: 'shown' };
  return pair ? { keeps: 'pair' } : {};
}
