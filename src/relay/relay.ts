// Live posts: one observation per game however many channels watch it, and per post one message
// kept current (latest position wins). This is the post lifecycle: watch, post, edit, stop, flip,
// finish, and posts Discord refused for good. Caps (quotas.ts), pictures (images.ts), restart
// recovery (resume.ts) and unasked posts (auto-post.ts) are their own modules.
import type { Renderer } from '../../render/index.js';
import { isChessLive } from '../game/game-id.js';
import type { GameSnapshot } from '../game/snapshot.js';
import { makeSnapshotPgn } from '../game/pgn.js';
import type { TrackerUpdate } from '../game/tracker.js';
import type { Logger } from '../log.js';
import { errorMessage } from '../result.js';
import type { FinishedGame, Storage } from '../storage/index.js';
import type { CreateLivePostResult, LivePost, LivePostOptions } from '../storage/live-posts.js';
import { FicsCapacityError } from '../fics/errors.js';
import type { Handle } from '../protocol/handle.js';
import { truncate } from '../text.js';
import { AutoPoster, type AutoPostSource } from './auto-post.js';
import { gameKeyOf } from '../game/game-key.js';
import type { Evaluation } from '../engine/uci.js';
import {
  chartEvaluations,
  EditRoom,
  ENGINE_OFF,
  type LiveEvaluations,
  type PostEngineChoice,
} from './evaluations.js';
import { BoardImages } from './images.js';
import { LatestWins, Refused } from './latest-wins.js';
import type { LiveAttachment, LiveMessage } from './message.js';
import type { PostPort } from './ports.js';
import type { GameFeed } from '../game/feed.js';
import { Quotas } from './quotas.js';
import { resumeLivePosts } from './resume.js';
import { EditScheduler } from './schedule.js';
import { Serial } from '../serial.js';
import { ThreadTalk, type SaidSource } from './thread-talk.js';

export interface WatchRequest {
  guildId: string;
  channelId: string;
  game: number;
  options: LivePostOptions;
  requestedBy: string;
  /** Engine evaluation asked for with the post (`/observe eval:`). */
  engine?: PostEngineChoice;
  /** Kibitzes and whispers into the post's thread (`/observe kibitz:`). */
  kibitz?: boolean;
}

/** `full`: refused because the guild or Kibitz has no room now (a game may wait and try again). */
export type WatchResult =
  { ok: true; post: LivePost; snapshot: GameSnapshot } | { ok: false; error: string; full?: boolean };

export interface RelayOptions {
  feed: GameFeed;
  port: PostPort;
  storage: Storage;
  logger: Logger;
  /** Live games per guild unless the guild set its own cap. */
  maxLivePerGuild: number;
  /** How long to wait for the first board after `observe`. */
  firstBoardTimeoutMs?: number;
  /** Who wants games posted unasked; follows by default. */
  autoPostSources?: AutoPostSource[];
  /** Where boards and GIFs are drawn: the bot renders off the main thread; inline by default. */
  renderer?: Renderer;
  /** The guilds this process relays (a shard's own, src/shard.ts); every guild by default. */
  ownsGuild?: (guildId: string) => boolean;
  /** The live web page a post links to (KIBITZ_PUBLIC_URL); no link by default. */
  watchUrl?: (snapshot: GameSnapshot) => string | null;
  /** Told how long each edit took, its picture and Discord's answer included (metrics). */
  onEdited?: (ms: number) => void;
  /** Engine evaluations (KIBITZ_ENGINE=on); absent when the operator has no engine. */
  engine?: LiveEvaluations;
  /** Where every post and edit waits for its turn, bot-wide (schedule.ts); unpaced by default. */
  scheduler?: EditScheduler;
  /** Kibitzes and whispers of observed games (the FICS pool); none by default. */
  said?: SaidSource;
}

/** One edit of a post: a game position, or a message made already (ended while offline). */
type Edit =
  | {
      snapshot: GameSnapshot;
      /** PGN and GIF on the final edit. */
      files: LiveAttachment[] | null;
      /** The last edit of a stopped post: it says so and loses its buttons. */
      stopped?: boolean;
      /** A button's answer or a new post's catch-up: it goes before ordinary moves. */
      urgent?: boolean;
      /** The GIF after a final edit: it waits its turn like a move. */
      later?: boolean;
    }
  | { message: LiveMessage };

/** A game's end, a stop, a button's answer: before every ordinary move (schedule.ts). */
function isUrgent(edit: Edit): boolean {
  if ('message' in edit) return true;
  return (edit.files !== null && edit.later !== true) || edit.stopped === true || edit.urgent === true;
}

/** Footer of a post someone stopped. */
export const STOPPED_FOOTER = 'Stopped: this board no longer updates.';

/** A post the database refused to record is not relayed. */
const UNRECORDED =
  'Kibitz could not record the post in its database, so it does not relay this game. Its operator has to check the database (see the log).';
const UNRECORDED_FOOTER = 'Kibitz could not record this post: this board does not update.';
/** Footer of a live FICS post while FICS is out of reach (outage.ts). */
export const WAITING_FOOTER = 'Waiting for FICS… this board may be behind.';

export class Relay {
  private readonly senders = new Map<number, LatestWins<Edit>>();
  private closed = false;
  private readonly images: BoardImages;
  private readonly quotas: Quotas;
  private readonly autoPoster: AutoPoster;
  private readonly endedListeners: ((post: LivePost) => void)[] = [];
  private readonly listener = (update: TrackerUpdate): void => this.onUpdate(update);
  /** Each game's updates in order: each reads the game's posts before it edits them. */
  private readonly updates = new Serial<number>();
  /** Posts whose end is being written (stopped, refused, guild removed): no board goes to them. */
  private readonly ending = new Set<number>();
  /** FICS out of reach for a while: live FICS boards say so in their footer. */
  private ficsDown = false;
  /** Posts being ended for a refusal or a removed guild: idle() waits for them. */
  private readonly endings = new Set<Promise<void>>();
  /** Posts whose final edit went without a file Discord refused for its size. */
  private readonly cutFinals = new Set<number>();
  /** Recent edits per post, so that evaluation-only edits leave room for moves. */
  private readonly editRoom = new EditRoom();
  /** Evaluation edits waiting for room, per post. */
  private readonly evaluationWaits = new Map<number, NodeJS.Timeout>();
  private readonly scheduler: EditScheduler;
  /** Each post's rate-limit bucket (its message's channel), known from its first send. */
  private readonly bucketOf = new Map<number, string>();
  private readonly talk: ThreadTalk;

  constructor(private readonly options: RelayOptions) {
    this.scheduler = options.scheduler ?? new EditScheduler();
    this.talk = new ThreadTalk({
      livePosts: options.storage.livePosts,
      feed: options.feed,
      port: options.port,
      scheduler: this.scheduler,
      logger: options.logger,
    });
    options.said?.on('said', this.talk.listener);
    this.images = new BoardImages({
      renderer: options.renderer,
      snapshot: (game) => options.feed.snapshot(game),
      logger: options.logger,
      ...(options.watchUrl === undefined ? {} : { watchUrl: options.watchUrl }),
    });
    this.quotas = new Quotas(options.storage, options.maxLivePerGuild);
    this.autoPoster = new AutoPoster({
      storage: options.storage,
      logger: options.logger,
      sources: options.autoPostSources,
      // Through watch(): the post takes the guild's cap and share like a command's would.
      watch: (target, game) => this.watch({ ...target, game }),
      owns: (guildId) => this.owns(guildId),
      closed: () => this.closed,
      recorded: (what, write) => this.recorded(what, write),
    });
    options.feed.on('update', this.listener);
    options.engine?.onEvaluated((game, fen) => void this.evaluated(game, fen));
  }

  /** Another source of channels that want new games, asked after the ones before it. */
  addAutoPostSource(source: AutoPostSource): void {
    this.autoPoster.add(source);
  }

  /** Told when a post stops being live (game over, stopped, gone): room for another game. */
  onPostEnded(listener: (post: LivePost) => void): void {
    this.endedListeners.push(listener);
  }

  private ended(post: LivePost): void {
    this.bucketOf.delete(post.id);
    this.talk.postEnded(post.id);
    this.options.engine?.forget(post.id);
    this.editRoom.forget(post.id);
    for (const listener of this.endedListeners) listener(post);
  }

  close(): void {
    this.closed = true;
    this.options.feed.off('update', this.listener);
    this.options.said?.off('said', this.talk.listener);
    // Edits waiting out a rate limit would otherwise go on after the bot has stopped.
    for (const sender of this.senders.values()) sender.close();
    this.senders.clear();
    for (const wait of this.evaluationWaits.values()) clearTimeout(wait);
  }

  /**
   * Starts relaying a game in a channel: observes it (once for all channels) and posts the board.
   * The guild's cap and its share of FICS are each checked and taken in one step (quotas.ts,
   * the pool's shares), so concurrent requests cannot all pass the check; a failure gives both back.
   */
  async watch(request: WatchRequest): Promise<WatchResult> {
    const { guildId, game } = request;
    this.quotas.watchStarted(game);
    try {
      return await this.admit(request, () => this.options.feed.observeGame(game, guildId));
    } finally {
      this.quotas.watchDone(game);
    }
  }

  /** watch() for the game a player is playing now. */
  async watchPlayer(request: Omit<WatchRequest, 'game'> & { player: Handle }): Promise<WatchResult> {
    const { feed } = this.options;
    if (feed.observePlayer === undefined) return { ok: false, error: 'This feed has no players.' };
    return this.admit(request, () => feed.observePlayer!(request.player, request.guildId));
  }

  private async admit(
    request: Omit<WatchRequest, 'game'>,
    observe: () => Promise<number>,
  ): Promise<WatchResult> {
    const { guildId } = request;
    // A game waiting for room (clubs) may come up after the bot was removed from its guild.
    if (!(await this.options.storage.guildSettings.isActive(guildId)))
      return { ok: false, error: 'Kibitz is no longer in this server.' };
    const full = await this.quotas.admit(guildId);
    if (full !== null) return { ok: false, error: full, full: true };
    let admitting = true;
    // Once its post is recorded, the post counts against the cap instead.
    const recorded = (): void => {
      if (admitting) this.quotas.admitDone(guildId);
      admitting = false;
    };
    try {
      let game: number;
      try {
        game = await observe();
      } catch (error) {
        // Refused or failed: the feed gave the guild's claim back already.
        return { ok: false, error: errorMessage(error), full: error instanceof FicsCapacityError };
      }
      let snapshot: GameSnapshot;
      try {
        snapshot = await this.firstBoard(game);
      } catch (error) {
        await this.release(game, guildId);
        return { ok: false, error: errorMessage(error) };
      }
      if (snapshot.ended) {
        await this.release(snapshot.game, guildId);
        return { ok: false, error: `Game ${snapshot.game} is over (${snapshot.result}).` };
      }
      return await this.open({ ...request, game: snapshot.game }, snapshot, recorded);
    } finally {
      recorded();
    }
  }

  /** False when the guild has as many live posts as its cap allows. */
  async hasRoom(guildId: string): Promise<boolean> {
    return (await this.quotas.overCap(guildId)) === null;
  }

  /** Unobserves a game that no post shows and no watch() is about to (clubs drop games they filter out). */
  async releaseIfUnwanted(game: number): Promise<void> {
    if (this.quotas.isWatching(game)) return;
    const live = await this.options.storage.livePosts.listLiveByGame(game);
    // A watch() may have started while the posts were read.
    if (live.length > 0 || this.quotas.isWatching(game)) return;
    await this.unobserve(game);
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
        options: request.options,
        requestedBy: request.requestedBy,
      });
    } catch (error) {
      this.writeFailed('record a live post', error);
      await this.release(snapshot.game, request.guildId);
      return { ok: false, error: UNRECORDED };
    }
    recorded();
    if (!created.ok) return { ok: false, error: `Game ${snapshot.game} is already live in this channel.` };
    const post = created.post;
    if (request.engine !== undefined) this.options.engine?.setChoice(post.id, request.engine);
    if (request.kibitz === true) this.talk.optIn(post.id);
    const threadName = request.options.thread
      ? `${snapshot.white} vs ${snapshot.black} (game ${snapshot.game})`
      : null;
    const message = await this.images
      .message(snapshot, post.options.flip, [], this.options.engine?.view(snapshot, post.id))
      .catch((error: Error) => error);
    let where: Awaited<ReturnType<PostPort['post']>>;
    try {
      if (message instanceof Error) throw message;
      // A new post goes before ordinary moves; its first board was drawn already (it is the answer).
      const since = this.scheduler.now();
      const posted = await this.scheduler.run(
        { bucket: () => null, standing: () => ({ since, urgent: true }) },
        () => this.options.port.post(post.id, request.channelId, message, threadName),
      );
      where = posted!;
    } catch (error) {
      // The bot stopped while the message was on its way: its storage is closed already.
      if (this.closed) return { ok: false, error: 'Kibitz is shutting down.' };
      await this.recorded('drop a post that was not sent', () => storage.livePosts.delete(post.id));
      await this.release(snapshot.game, request.guildId, post.id);
      return { ok: false, error: `Could not post the board: ${errorMessage(error)}` };
    }
    // Stopped meanwhile: storage is closed.
    if (this.closed) return { ok: false, error: 'Kibitz is shutting down.' };
    if (
      !(await this.recorded('record a posted message', () => storage.livePosts.setMessage(post.id, where)))
    ) {
      // Out, but never to be edited: it says so, and the game is let go.
      const stopped = { ...(message as LiveMessage), live: false, footer: UNRECORDED_FOOTER };
      await this.options.port
        .edit(post.id, where.messageChannelId, where.messageId, stopped)
        .catch(() => undefined);
      await this.recorded('drop a post that cannot be kept', () => storage.livePosts.delete(post.id));
      await this.release(snapshot.game, request.guildId, post.id);
      return { ok: false, error: UNRECORDED };
    }
    const shown = await storage.livePosts.get(post.id);
    if (shown === null) {
      await this.release(snapshot.game, request.guildId, post.id);
      return { ok: false, error: UNRECORDED };
    }
    this.catchUp(shown, snapshot);
    this.options.engine?.request(this.options.feed.snapshot(snapshot.game) ?? snapshot, [post.id]);
    return { ok: true, post: shown, snapshot };
  }

  /** Runs a database write; a refused one is logged and false, and the caller goes on. */
  private async recorded(what: string, write: () => Promise<unknown>): Promise<boolean> {
    try {
      await write();
      return true;
    } catch (error) {
      this.writeFailed(what, error);
      return false;
    }
  }

  private writeFailed(what: string, error: unknown): void {
    this.options.logger.error({ err: error, what }, 'database write failed');
  }

  /** Updates that came while a post's first message was on its way had no message to edit. */
  private catchUp(post: LivePost, posted: GameSnapshot): void {
    const now = this.options.feed.snapshot(posted.game);
    if (now === undefined || gameKeyOf(now) !== gameKeyOf(posted)) return;
    if (now.ended) void this.finish(now, [post]);
    else if (
      now.fen !== posted.fen ||
      now.whiteClockMs !== posted.whiteClockMs ||
      now.blackClockMs !== posted.blackClockMs ||
      // A bughouse post shows the partner board too, often found while the first message was out.
      now.partnerGame !== null
    ) {
      this.sender(post.id).push({ snapshot: now, files: null, urgent: true });
    }
  }

  /** Stops a live post (the message stays, marked stopped); unobserves when nobody else watches. */
  async stop(postId: number): Promise<void> {
    const post = await this.options.storage.livePosts.get(postId);
    if (post === null || post.state !== 'live' || this.quotas.isFinishing(post.id)) return;
    // Taken out of the edits now: no board is pushed to it while its end is being written.
    const sender = this.sender(post.id);
    this.senders.delete(post.id);
    this.ending.add(post.id);
    // Not recorded, it is still stopped now: the edit goes out and the game is let go.
    await this.recorded('end a stopped post', () => this.options.storage.livePosts.end(post.id, 'ended'));
    this.ending.delete(post.id);
    const snapshot = this.options.feed.snapshot(post.game);
    // Not awaited: under a rate limit the edit may wait seconds, and the user's answer must not.
    if (snapshot !== undefined) void sender.finish({ snapshot, files: null, stopped: true });
    await this.release(post.game, post.guildId, post.id);
    this.ended({ ...post, state: 'ended' });
  }

  /** One live post's board as it is now, turned the other way round (what Flip shows its presser). */
  async flippedView(postId: number): Promise<LiveMessage | null> {
    const post = await this.options.storage.livePosts.get(postId);
    const snapshot = post === null ? undefined : this.options.feed.snapshot(post.game);
    if (post === null || post.state !== 'live' || snapshot === undefined) return null;
    return this.images.message(
      snapshot,
      !post.options.flip,
      [],
      this.options.engine?.view(snapshot, post.id),
    );
  }

  /** `off`: the operator has no engine (KIBITZ_ENGINE); `not-installed`: on, without its package. */
  /** A game's board picture, White at the bottom: the live page's link preview (og:image). */
  boardPicture(snapshot: GameSnapshot): Promise<Buffer> {
    return this.images.board(snapshot);
  }

  engineStatus(): 'off' | 'on' | 'not-installed' {
    const engine = this.options.engine;
    return engine === undefined ? 'off' : engine.installed ? 'on' : 'not-installed';
  }

  /** A game's evaluations by ply (0: the start position), White's point of view; empty without. */
  evaluations(gameKey: string): ReadonlyMap<number, Evaluation> {
    return this.options.engine?.evaluations(gameKey) ?? new Map();
  }

  /** What a post shows of the engine now. */
  engineChoice(postId: number): PostEngineChoice {
    return this.options.engine?.choice(postId) ?? ENGINE_OFF;
  }

  /**
   * Sets what a live post shows of the engine and redraws it now; its evaluation follows in a
   * later edit. False when the post is not live.
   */
  async setEngine(postId: number, choice: PostEngineChoice): Promise<boolean> {
    const engine = this.options.engine;
    const post = await this.options.storage.livePosts.get(postId);
    if (engine === undefined || post === null || post.state !== 'live') return false;
    engine.setChoice(post.id, choice);
    const snapshot = this.options.feed.snapshot(post.game);
    if (snapshot === undefined || gameKeyOf(snapshot) !== post.gameKey) return true;
    this.sender(post.id).push({ snapshot, files: null, urgent: true });
    engine.request(snapshot, [post.id]);
    return true;
  }

  /** A game's newest position has its evaluation: the posts that show it are edited. */
  private async evaluated(game: number, fen: string): Promise<void> {
    try {
      for (const post of await this.options.storage.livePosts.listLiveByGame(game))
        await this.showEvaluation(post.id, fen);
    } catch (error) {
      this.options.logger.error({ err: error }, 'database read failed: an evaluation is not shown');
    }
  }

  /**
   * One post's evaluation edit, for the position it was made for while the post still shows it;
   * it waits while the post's recent edits leave no room (EditRoom), then looks again.
   */
  private async showEvaluation(postId: number, fen: string): Promise<void> {
    const post = await this.options.storage.livePosts.get(postId);
    if (this.closed || post === null || post.state !== 'live' || post.messageId === null) return;
    const snapshot = this.options.feed.snapshot(post.game);
    if (
      snapshot === undefined ||
      snapshot.ended ||
      snapshot.fen !== fen ||
      gameKeyOf(snapshot) !== post.gameKey
    )
      return;
    if (this.quotas.isFinishing(post.id) || !this.options.engine?.choice(post.id).eval) return;
    if (this.evaluationWaits.has(post.id)) return;
    const waitMs = this.editRoom.waitMs(post.id, Date.now());
    if (waitMs === 0) {
      this.sender(post.id).push({ snapshot, files: null });
      return;
    }
    const wait = setTimeout(() => {
      this.evaluationWaits.delete(post.id);
      this.showEvaluation(post.id, fen).catch((error: unknown) =>
        this.options.logger.error({ err: error }, 'database read failed: an evaluation is not shown'),
      );
    }, waitMs);
    this.evaluationWaits.set(post.id, wait);
  }

  /** After a restart: picks up every live post of this process's guilds (resume.ts). */
  async resume(): Promise<void> {
    await resumeLivePosts({
      storage: this.options.storage,
      logger: this.options.logger,
      owns: (guildId) => this.owns(guildId),
      observe: (game, guildId) => this.observe(game, guildId, true),
      show: (post, snapshot) => this.sender(post.id).push({ snapshot, files: null }),
      finishStored: (post, game) => this.finishStored(post, game),
      endedOffline: (post) => this.endedOffline(post),
      release: (game, guildId) => this.release(game, guildId),
    });
  }

  /** The latest state of a game the relay's feed has (FICS or ChessLive!). */
  snapshot(game: number): GameSnapshot | undefined {
    return this.options.feed.snapshot(game);
  }

  /** A text notice in a channel; a failure is logged, not thrown (notices are best effort). */
  async notice(channelId: string, text: string): Promise<void> {
    try {
      await this.options.port.say(channelId, text);
    } catch (error) {
      this.options.logger.warn({ channelId, error: errorMessage(error) }, 'notice failed');
    }
  }

  /** Waits for everything queued to reach Discord (tests, shutdown). */
  async idle(): Promise<void> {
    await this.updates.idle();
    await Promise.all([...this.senders.values()].map((s) => s.idle()));
    await Promise.all(this.endings);
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
        this.senders.get(post.id)?.close();
        this.senders.delete(post.id);
        this.ending.add(post.id);
      }
      for (const post of posts) {
        await this.recorded("end a removed guild's post", () =>
          this.options.storage.livePosts.end(post.id, 'ended', reason),
        );
        this.ending.delete(post.id);
      }
      for (const post of posts) this.ended({ ...post, state: 'ended', endReason: reason });
      // Only games the feed has: right after a restart nothing is observed yet.
      for (const game of new Set(posts.map((p) => p.game)))
        if (this.options.feed.snapshot(game) !== undefined) await this.release(game, guildId);
    })();
    this.track(ending);
    return ending;
  }

  /**
   * FICS went out of reach (for a while) or came back: every live FICS board is redrawn, with
   * WAITING_FOOTER while it is out of reach, without once it is back.
   */
  async setFicsDown(down: boolean): Promise<void> {
    if (this.closed || down === this.ficsDown) return;
    this.ficsDown = down;
    this.options.logger.info(
      { down },
      down ? 'FICS out of reach: live boards say so' : 'FICS back: live boards current again',
    );
    for (const post of await this.options.storage.livePosts.listLive()) {
      const snapshot = this.options.feed.snapshot(post.game);
      if (post.messageId === null || this.ignored(post.id) || !this.owns(post.guildId)) continue;
      if (snapshot === undefined || snapshot.ended || isChessLive(snapshot)) continue;
      if (gameKeyOf(snapshot) === post.gameKey) this.sender(post.id).push({ snapshot, files: null });
    }
  }

  /** Keeps a post's ending (unobserve, notice) in view of idle(). */
  private track(ending: Promise<void>): void {
    this.endings.add(ending);
    void ending.finally(() => this.endings.delete(ending));
  }

  /** Observes a game for a guild (`kept`: held before a restart, so taken whatever its share). */
  private async observe(game: number, guildId: string, kept: boolean): Promise<GameSnapshot> {
    await this.options.feed.observeGame(game, guildId, kept);
    return this.firstBoard(game);
  }

  /** The observe reply carries the first board; a slow server may send it just after. */
  private firstBoard(game: number): Promise<GameSnapshot> {
    const now = this.options.feed.snapshot(game);
    if (now !== undefined) return Promise.resolve(now);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.options.feed.off('update', wait);
        reject(new Error(`Game ${game} sent no board.`));
      }, this.options.firstBoardTimeoutMs ?? 10_000);
      const wait = (update: TrackerUpdate): void => {
        if (update.type === 'needs' || update.type === 'undecoded' || update.snapshot.game !== game) return;
        clearTimeout(timer);
        this.options.feed.off('update', wait);
        resolve(update.snapshot);
      };
      this.options.feed.on('update', wait);
    });
  }

  private onUpdate(update: TrackerUpdate): void {
    if (update.type === 'needs' || update.type === 'undecoded') return;
    const snapshot = update.snapshot;
    // The tracker announces a game at its first board.
    if (update.type === 'started' && !snapshot.ended) void this.autoPoster.post(snapshot);
    this.updates
      .run(snapshot.game, () => this.showUpdate(update.type, snapshot))
      .catch((error: unknown) =>
        this.options.logger.error({ err: error, game: snapshot.game }, 'database read failed'),
      );
  }

  /** Pushes an update to the posts that show its game. */
  private async showUpdate(type: TrackerUpdate['type'], snapshot: GameSnapshot): Promise<void> {
    // Queued before close(): the storage may be closed by now.
    if (this.closed) return;
    const key = gameKeyOf(snapshot);
    const posts = (await this.options.storage.livePosts.listLiveByGame(snapshot.game)).filter(
      (p) => p.gameKey === key && p.messageId !== null && !this.ignored(p.id),
    );
    if (type === 'ended') {
      this.options.engine?.release(snapshot);
      this.talk.gameEnded(snapshot);
      if (posts.length === 0) return;
      this.track(this.finish(snapshot, posts));
      return;
    }
    for (const post of posts) this.sender(post.id).push({ snapshot, files: null });
    // After the edits are queued: the board goes out whatever the engine does.
    this.options.engine?.request(
      snapshot,
      posts.map((post) => post.id),
    );
    // A bughouse post shows both boards: a move on the partner board redraws it too.
    if (snapshot.partnerGame === null) return;
    const main = this.options.feed.snapshot(snapshot.partnerGame);
    if (main === undefined || main.ended) return;
    for (const post of await this.options.storage.livePosts.listLiveByGame(main.game)) {
      if (post.gameKey === gameKeyOf(main) && post.messageId !== null && !this.ending.has(post.id)) {
        this.sender(post.id).push({ snapshot: main, files: null });
      }
    }
  }

  /**
   * The final image with the result and the PGN, urgent; then the same with the whole-game GIF,
   * in its turn like a move (drawing a long game takes a while, and many end together).
   */
  private async finish(snapshot: GameSnapshot, all: LivePost[]): Promise<void> {
    const posts = all.filter((post) => !this.quotas.isFinishing(post.id));
    if (posts.length === 0) return;
    for (const post of posts) this.quotas.finishStarted(post.id, post.guildId);
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
    const evaluations = chartEvaluations(snapshot, this.evaluations(gameKeyOf(snapshot)));
    const files = await this.images.finalFiles(snapshot, pgn, evaluations);
    await Promise.all(posts.map((post) => this.finishPost(post, { snapshot, files })));
    // A final that was cut to fit would be refused again with the GIF.
    const whole = posts.filter((post) => !this.cutFinals.delete(post.id));
    if (this.closed || whole.length === 0) return;
    const gif = await this.images.finalGif(snapshot);
    if (gif === null) return;
    await Promise.all(
      whole.map((post) => this.sendLast(post.id, { snapshot, files: [...files, gif], later: true })),
    );
  }

  /** One more edit of a post that has ended (its GIF, or why it ended), through a sender. */
  private async sendLast(postId: number, edit: Edit): Promise<void> {
    const sender = this.sender(postId);
    this.senders.delete(postId);
    await sender.finish(edit);
  }

  /**
   * Sends a post's final edit, then marks it ended: a crash or a shutdown before the edit went out
   * leaves it live, and the next start sends it from the stored PGN (resume).
   */
  private async finishPost(post: LivePost, edit: Edit): Promise<void> {
    this.quotas.finishStarted(post.id, post.guildId);
    const sender = this.sender(post.id);
    this.senders.delete(post.id);
    await sender.finish(edit);
    this.quotas.finishDone(post.id);
    if (this.closed) return;
    await this.recorded('end a finished post', () => this.options.storage.livePosts.end(post.id, 'ended'));
    this.ended({ ...post, state: 'ended' });
  }

  /** The final edit of a game that ended just before a restart, from its stored PGN. */
  private async finishStored(post: LivePost, game: FinishedGame): Promise<void> {
    const message = await this.images.storedFinal(game, post.options.flip);
    this.options.logger.info({ postId: post.id, game: post.game }, 'final edit sent after a restart');
    await this.finishPost(post, { message });
    this.cutFinals.delete(post.id);
  }

  /** A post no board goes to: its final edit is on its way, or its end is being written. */
  private ignored(postId: number): boolean {
    return this.quotas.isFinishing(postId) || this.ending.has(postId);
  }

  private owns(guildId: string): boolean {
    return this.options.ownsGuild?.(guildId) ?? true;
  }

  private sender(postId: number): LatestWins<Edit> {
    let sender = this.senders.get(postId);
    if (sender === undefined) {
      sender = new LatestWins<Edit>(
        {
          send: (edit) => this.send(postId, edit),
          urgent: isUrgent,
          turn: (standing, go, signal) =>
            this.scheduler.run({ bucket: () => this.bucketOf.get(postId) ?? null, standing, signal }, go),
          onError: (error) => this.options.logger.warn({ postId, error: errorMessage(error) }, 'edit failed'),
          onRefused: (refusal) => this.track(this.refused(postId, refusal)),
        },
        () => this.scheduler.now(),
      );
      this.senders.set(postId, sender);
    }
    return sender;
  }

  private async send(postId: number, edit: Edit): Promise<void> {
    // A final edit that waited out a rate limit may wake after close().
    if (this.closed) return;
    const post = await this.options.storage.livePosts.get(postId);
    if (post === null || post.messageId === null || post.messageChannelId === null) return;
    // Refused for good (refused()): not even a final edit goes, it would be refused again.
    if (post.endReason !== null) return;
    this.bucketOf.set(postId, post.messageChannelId);
    const started = performance.now();
    let shown: LiveMessage;
    if ('message' in edit) shown = edit.message;
    else {
      const message = await this.images.message(
        edit.snapshot,
        post.options.flip,
        edit.files ?? [],
        this.options.engine?.view(edit.snapshot, post.id),
      );
      const waiting = this.ficsDown && message.live && !isChessLive(edit.snapshot);
      shown = edit.stopped
        ? { ...message, live: false, footer: STOPPED_FOOTER }
        : waiting
          ? { ...message, footer: WAITING_FOOTER }
          : message;
    }
    await this.editFitting(post, shown, 'later' in edit && edit.later === true);
    this.options.onEdited?.(performance.now() - started);
    this.editRoom.note(post.id, Date.now());
    await this.recorded('note an edit', () => this.options.storage.livePosts.touch(post.id));
  }

  /**
   * Sends an edit; one refused for its size goes again without its last file (the clock chart,
   * then the PGN): the result and the final board are never lost to an attachment. The GIF's
   * edit (`gifEdit`) refused for its size is given up: the final edit before it stays.
   */
  private async editFitting(post: LivePost, shown: LiveMessage, gifEdit: boolean): Promise<void> {
    let message = shown;
    for (;;) {
      try {
        const moved = await this.options.port.edit(post.id, post.messageChannelId!, post.messageId!, message);
        if (moved)
          await this.options.storage.livePosts.setMessage(post.id, {
            messageChannelId: post.messageChannelId!,
            messageId: moved.continuedIn,
            threadId: post.threadId,
          });
        return;
      } catch (error) {
        if (!(error instanceof Refused) || !error.detail.tooLarge || message.files.length === 0) throw error;
        const dropped = message.files.at(-1)!;
        if (gifEdit) {
          this.options.logger.warn(
            { postId: post.id, bytes: dropped.data.length, code: error.detail.code },
            'GIF refused as too large: the final edit stays without it',
          );
          return;
        }
        this.cutFinals.add(post.id);
        this.options.logger.warn(
          { postId: post.id, file: dropped.name, bytes: dropped.data.length, code: error.detail.code },
          'edit refused as too large: sending it again without one file',
        );
        message = { ...message, files: message.files.slice(0, -1) };
      }
    }
  }

  /**
   * Discord refused a post for good (its message deleted, its channel or permission gone): the
   * post ends at once. No further request for it, its slot of the guild's cap is free, the game
   * is unobserved when no other post shows it, the reason is stored, and where the channel can
   * still take a message it is told, once, why the board stopped.
   */
  private async refused(postId: number, refusal: Refused): Promise<void> {
    this.senders.delete(postId);
    if (this.closed) return;
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
    const wasLive = post.state === 'live' && !this.quotas.isFinishing(post.id);
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
    this.ended({ ...post, state: 'ended', endReason: refusal.reason });
    await this.release(post.game, post.guildId);
    if (refusal.detail.canNotify && post.messageChannelId !== null)
      await this.notice(
        post.messageChannelId,
        truncate(
          `The live board of game ${post.game} (${post.white} vs ${post.black}) stopped: ${refusal.reason}.`,
          2_000,
        ),
      );
  }

  private async endedOffline(post: LivePost): Promise<void> {
    await this.recorded('end a post gone offline', () =>
      this.options.storage.livePosts.end(post.id, 'ended_offline'),
    );
    this.ended({ ...post, state: 'ended_offline' });
    this.options.logger.info({ postId: post.id, game: post.game }, 'game ended while offline');
    if (post.messageId === null || post.messageChannelId === null) return;
    // Through a sender like every edit: it waits out rate limits, and logs a failure.
    await this.sendLast(post.id, {
      message: {
        title: `Game ${post.game}: ${post.white} vs ${post.black}`,
        lines: ['The game ended while Kibitz was offline; the server no longer has it.'],
        image: null,
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
  private async release(game: number, guildId: string, except?: number): Promise<void> {
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

  private async unobserve(game: number, guildId?: string): Promise<void> {
    try {
      await this.options.feed.unobserve(game, guildId);
    } catch (error) {
      this.options.logger.warn({ game, error: errorMessage(error) }, 'unobserve failed');
    }
  }
}
