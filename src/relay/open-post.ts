// Opening a live post: the guild's room checked and taken, the game observed, its first board
// awaited, the post recorded and its first message sent, then whatever came meanwhile caught up.
// Every failure on the way gives back what was taken and says why.
import { FicsCapacityError } from '../fics/errors.js';
import type { GameFeed } from '../game/feed.js';
import { gameKeyOf } from '../game/game-key.js';
import type { GameSnapshot } from '../game/snapshot.js';
import type { Logger } from '../log.js';
import { err, errorMessage, ok, type Result } from '../result.js';
import type { GuildSettings, Storage } from '../storage/index.js';
import type { CreateLivePostResult, LivePost, LivePostOptions } from '../storage/live-posts.js';
import type { PostEndings } from './endings.js';
import type { LiveEvaluations, PostEngineChoice } from './evaluations.js';
import type { BoardImages } from './images.js';
import type { LiveMessage } from './message.js';
import type { PostPort } from './ports.js';
import { recordPair, type PostSenders } from './post-sender.js';
import type { Quotas } from './quotas.js';
import { logWriteFailed, type Recorded } from './recorded.js';
import type { EditScheduler } from './schedule.js';
import type { ThreadTalk } from './thread-talk.js';
import type { GameId } from '../game/game-id.js';

export interface WatchRequest {
  guildId: string;
  channelId: string;
  game: GameId;
  options: LivePostOptions;
  requestedBy: string;
  /** Engine evaluation asked for with the post (`/observe eval:`). */
  engine?: PostEngineChoice;
  /** Kibitzes and whispers into the post's thread (`/observe kibitz:`); the server's default when absent. */
  kibitz?: boolean;
}

/** A watch refused: `full` because the guild or Kibitz has no room now (a game may wait and try again). */
export interface WatchRefusal {
  readonly kind: 'full' | 'refused';
  readonly message: string;
}

export type WatchResult = Result<{ post: LivePost; snapshot: GameSnapshot }, WatchRefusal>;

const refused = (message: string, full = false): { ok: false; error: WatchRefusal } =>
  err({ kind: full ? 'full' : 'refused', message });

/** A post the database refused to record is not relayed. */
const UNRECORDED =
  'Kibitz could not record the post in its database, so it does not relay this game. Its operator has to check the database (see the log).';
const UNRECORDED_FOOTER = 'Kibitz could not record this post: this board does not update.';

export interface PostOpenerOptions {
  storage: Storage;
  feed: Pick<GameFeed, 'snapshot'>;
  port: Pick<PostPort, 'post' | 'edit'>;
  logger: Logger;
  engine: LiveEvaluations | undefined;
  quotas: Quotas;
  images: BoardImages;
  scheduler: EditScheduler;
  senders: PostSenders;
  endings: PostEndings;
  talk: ThreadTalk;
  recorded: Recorded;
  /** The game's first board after `observe` (first-board.ts). */
  firstBoard: (game: GameId) => Promise<GameSnapshot>;
  closed: () => boolean;
}

/**
 * What a new post keeps: the server's theme, and its kibitzes as asked or by the server's default
 * (into a thread only: a post without one has nowhere to put them).
 */
function postOptions(request: WatchRequest, settings: GuildSettings): LivePostOptions {
  const { theme: _theme, kibitz: _kibitz, ...asked } = request.options;
  const kibitz = asked.thread && (request.kibitz ?? settings.kibitz ?? false);
  return {
    ...asked,
    ...(kibitz ? { kibitz } : {}),
    ...(settings.theme === null ? {} : { theme: settings.theme }),
  };
}

export class PostOpener {
  constructor(private readonly options: PostOpenerOptions) {}

  async admit(request: Omit<WatchRequest, 'game'>, observe: () => Promise<GameId>): Promise<WatchResult> {
    const { guildId } = request;
    // A game waiting for room (clubs) may come up after the bot was removed from its guild.
    if (!(await this.options.storage.guildSettings.isActive(guildId)))
      return refused('Kibitz is no longer in this server.');
    const full = await this.options.quotas.admit(guildId);
    if (full !== null) return refused(full, true);
    let admitting = true;
    // Once its post is recorded, the post counts against the cap instead.
    const recorded = (): void => {
      if (admitting) this.options.quotas.admitDone(guildId);
      admitting = false;
    };
    try {
      let game: GameId;
      try {
        game = await observe();
      } catch (error) {
        // Refused or failed: the feed gave the guild's claim back already.
        return refused(errorMessage(error), error instanceof FicsCapacityError);
      }
      let snapshot: GameSnapshot;
      try {
        snapshot = await this.options.firstBoard(game);
      } catch (error) {
        await this.options.endings.release(game, guildId);
        return refused(errorMessage(error));
      }
      if (snapshot.ended) {
        await this.options.endings.release(snapshot.game, guildId);
        return refused(`Game ${snapshot.game} is over (${snapshot.result}).`);
      }
      return await this.open({ ...request, game: snapshot.game }, snapshot, recorded);
    } finally {
      recorded();
    }
  }

  /** Records a live post and sends its first message. */
  private async open(
    request: WatchRequest,
    snapshot: GameSnapshot,
    recorded: () => void,
  ): Promise<WatchResult> {
    const { storage } = this.options;
    let created: CreateLivePostResult;
    try {
      created = await storage.livePosts.create({
        guildId: request.guildId,
        channelId: request.channelId,
        game: snapshot.game,
        gameKey: gameKeyOf(snapshot),
        white: snapshot.white,
        black: snapshot.black,
        options: postOptions(request, await storage.guildSettings.get(request.guildId)),
        requestedBy: request.requestedBy,
      });
    } catch (error) {
      logWriteFailed(this.options.logger, 'record a live post', error);
      await this.options.endings.release(snapshot.game, request.guildId);
      return refused(UNRECORDED);
    }
    recorded();
    if (!created.ok) return refused(`Game ${snapshot.game} is already live in this channel.`);
    const post = created.value;
    if (request.engine !== undefined) this.options.engine?.setChoice(post.id, request.engine);
    const threadName = request.options.thread
      ? `${snapshot.white} vs ${snapshot.black} (game ${snapshot.game})`
      : null;
    const message = await this.options.images
      .message(snapshot, post.options, [], this.options.engine?.view(snapshot, post.id))
      .catch((error: Error) => error);
    let where: Awaited<ReturnType<PostPort['post']>>;
    try {
      if (message instanceof Error) throw message;
      // A new post goes before ordinary moves; its first board was drawn already (it is the answer).
      const since = this.options.scheduler.now();
      const posted = await this.options.scheduler.run(
        { bucket: () => null, standing: () => ({ since, urgent: true }) },
        () => this.options.port.post(post.id, request.channelId, message, threadName),
      );
      where = posted!;
    } catch (error) {
      // The bot stopped while the message was on its way: its storage is closed already.
      if (this.options.closed()) return refused('Kibitz is shutting down.');
      await this.options.recorded('drop a post that was not sent', () => storage.livePosts.delete(post.id));
      await this.options.endings.release(snapshot.game, request.guildId, post.id);
      return refused(`Could not post the board: ${errorMessage(error)}`);
    }
    // Stopped meanwhile: storage is closed.
    if (this.options.closed()) return refused('Kibitz is shutting down.');
    if (
      !(await this.options.recorded('record a posted message', () =>
        storage.livePosts.setMessage(post.id, where),
      ))
    ) {
      // Out, but never to be edited: it says so, and the game is let go.
      const stopped = { ...(message as LiveMessage), live: false, footer: UNRECORDED_FOOTER };
      await this.options.port
        .edit(post.id, where.messageChannelId, where.messageId, stopped)
        .catch(() => undefined);
      await this.options.recorded('drop a post that cannot be kept', () => storage.livePosts.delete(post.id));
      await this.options.endings.release(snapshot.game, request.guildId, post.id);
      return refused(UNRECORDED);
    }
    await recordPair(this.options.recorded, storage.livePosts, post, message as LiveMessage);
    const shown = await storage.livePosts.get(post.id);
    if (shown === null) {
      await this.options.endings.release(snapshot.game, request.guildId, post.id);
      return refused(UNRECORDED);
    }
    this.catchUp(shown, snapshot);
    this.options.engine?.request(this.options.feed.snapshot(snapshot.game) ?? snapshot, [post.id]);
    return ok({ post: shown, snapshot });
  }

  /** Updates that came while a post's first message was on its way had no message to edit. */
  private catchUp(post: LivePost, posted: GameSnapshot): void {
    const now = this.options.feed.snapshot(posted.game);
    if (now === undefined || gameKeyOf(now) !== gameKeyOf(posted)) return;
    if (now.ended) void this.options.endings.finish(now, [post]);
    else if (
      now.fen !== posted.fen ||
      now.whiteClockMs !== posted.whiteClockMs ||
      now.blackClockMs !== posted.blackClockMs ||
      // A bughouse post shows the partner board too, often found while the first message was out.
      now.partnerGame !== null
    ) {
      this.options.senders.push(post.id, { snapshot: now, files: null, urgent: true });
    }
  }
}
