// Live posts: one observation per game however many channels watch it, and per post one message
// kept current (latest position wins). This is the post lifecycle, wiring its parts: opening a post
// (open-post.ts), routing each game update to its posts, sending edits (post-sender.ts),
// evaluations (evaluation-edits.ts), the outage footer (outage.ts) and ending posts (endings.ts).
// Caps (quotas.ts), pictures (images.ts), restart recovery (resume.ts) and unasked posts
// (auto-post.ts) are their own modules too.
import type { Renderer, ThemeName } from '../../render/index.js';
import type { GameSnapshot } from '../game/snapshot.js';
import type { TrackerUpdate } from '../game/tracker.js';
import type { Logger } from '../log.js';
import { err, errorMessage } from '../result.js';
import type { Storage } from '../storage/index.js';
import type { LivePost } from '../storage/live-posts.js';
import type { Handle } from '../protocol/handle.js';
import { AutoPoster, type AutoPostSource } from './auto-post.js';
import { gameKeyOf } from '../game/game-key.js';
import type { Evaluation } from '../engine/uci.js';
import { EvaluationEdits } from './evaluation-edits.js';
import { ENGINE_OFF, type LiveEvaluations, type PostEngineChoice } from './evaluations.js';
import { awaitFirstBoard } from './first-board.js';
import { BoardImages } from './images.js';
import type { LiveMessage } from './message.js';
import { OutageFooter } from './outage.js';
import type { PostPort } from './ports.js';
import { PostEndings } from './endings.js';
import { PostSenders } from './post-sender.js';
import { PostOpener, type WatchRequest, type WatchResult } from './open-post.js';
import { recorder, type Recorded } from './recorded.js';
import type { GameFeed } from '../game/feed.js';
import { Quotas } from './quotas.js';
import { resumeLivePosts } from './resume.js';
import { EditScheduler, type ScheduleFigures } from './schedule.js';
import { Serial } from '../serial.js';
import { ThreadTalk, type SaidSource } from './thread-talk.js';
import type { GameId } from '../game/game-id.js';

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

export class Relay {
  private readonly senders: PostSenders;
  private closed = false;
  private readonly images: BoardImages;
  private readonly quotas: Quotas;
  private readonly autoPoster: AutoPoster;
  private readonly endedListeners: ((post: LivePost) => void)[] = [];
  private readonly listener = (update: TrackerUpdate): void => this.onUpdate(update);
  /** Each game's updates in order: each reads the game's posts before it edits them. */
  private readonly updates = new Serial<number>();
  private readonly outage: OutageFooter;
  private readonly endings: PostEndings;
  private readonly opener: PostOpener;
  private readonly recorded: Recorded;
  /** Absent without an engine (KIBITZ_ENGINE). */
  private readonly evaluationEdits?: EvaluationEdits;
  private readonly scheduler: EditScheduler;
  private readonly talk: ThreadTalk;

  constructor(private readonly options: RelayOptions) {
    this.recorded = recorder(options.logger);
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
      recorded: this.recorded,
    });
    this.outage = new OutageFooter({
      livePosts: options.storage.livePosts,
      snapshot: (game) => options.feed.snapshot(game),
      logger: options.logger,
      shows: (post) => !this.endings.ignored(post.id) && this.owns(post.guildId),
      redraw: (postId, snapshot) => this.senders.push(postId, { snapshot, files: null }),
    });
    this.senders = new PostSenders({
      livePosts: options.storage.livePosts,
      port: options.port,
      images: this.images,
      scheduler: this.scheduler,
      logger: options.logger,
      engineView: (snapshot, postId) => options.engine?.view(snapshot, postId),
      shown: (message, snapshot) => this.outage.shown(message, snapshot),
      edited: (postId, ms) => {
        options.onEdited?.(ms);
        this.evaluationEdits?.edited(postId);
      },
      refused: (postId, refusal) => this.endings.track(this.endings.refused(postId, refusal)),
      recorded: this.recorded,
      closed: () => this.closed,
    });
    if (options.engine !== undefined)
      this.evaluationEdits = new EvaluationEdits({
        engine: options.engine,
        livePosts: options.storage.livePosts,
        snapshot: (game) => options.feed.snapshot(game),
        logger: options.logger,
        finishing: (postId) => this.quotas.isFinishing(postId),
        push: (postId, edit) => this.senders.push(postId, edit),
        closed: () => this.closed,
      });
    this.endings = new PostEndings({
      storage: options.storage,
      feed: options.feed,
      logger: options.logger,
      senders: this.senders,
      quotas: this.quotas,
      images: this.images,
      evaluations: (gameKey) => this.evaluations(gameKey),
      recorded: this.recorded,
      ended: (post) => this.ended(post),
      notice: (channelId, text) => this.notice(channelId, text),
      closed: () => this.closed,
    });
    this.opener = new PostOpener({
      storage: options.storage,
      feed: options.feed,
      port: options.port,
      logger: options.logger,
      engine: options.engine,
      quotas: this.quotas,
      images: this.images,
      scheduler: this.scheduler,
      senders: this.senders,
      endings: this.endings,
      talk: this.talk,
      recorded: this.recorded,
      firstBoard: (game) => this.firstBoard(game),
      closed: () => this.closed,
    });
    options.feed.on('update', this.listener);
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
    this.senders.forget(post.id);
    this.evaluationEdits?.forget(post.id);
    for (const listener of this.endedListeners) listener(post);
  }

  close(): void {
    this.closed = true;
    this.options.feed.off('update', this.listener);
    this.options.said?.off('said', this.talk.listener);
    this.senders.close();
    this.evaluationEdits?.close();
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
      return await this.opener.admit(request, () => this.options.feed.observeGame(game, guildId));
    } finally {
      this.quotas.watchDone(game);
    }
  }

  /** watch() for the game a player is playing now. */
  async watchPlayer(request: Omit<WatchRequest, 'game'> & { player: Handle }): Promise<WatchResult> {
    const { feed } = this.options;
    if (feed.observePlayer === undefined)
      return err({ kind: 'refused', message: 'This feed has no players.' });
    return this.opener.admit(request, () => feed.observePlayer!(request.player, request.guildId));
  }

  /** False when the guild has as many live posts as its cap allows. */
  async hasRoom(guildId: string): Promise<boolean> {
    return (await this.quotas.overCap(guildId)) === null;
  }

  /** Unobserves a game that no post shows and no watch() is about to (clubs drop games they filter out). */
  async releaseIfUnwanted(game: GameId): Promise<void> {
    if (this.quotas.isWatching(game)) return;
    const live = await this.options.storage.livePosts.listLiveByGame(game);
    // A watch() may have started while the posts were read.
    if (live.length > 0 || this.quotas.isWatching(game)) return;
    await this.endings.unobserve(game);
  }

  /** Stops a live post (the message stays, marked stopped); unobserves when nobody else watches. */
  stop(postId: number): Promise<void> {
    return this.endings.stop(postId);
  }

  /**
   * The bot was removed from a guild: its live posts end at once, without a request to Discord
   * (none would pass), and their games are unobserved when no other post shows them.
   */
  endGuild(guildId: string, reason: string): Promise<void> {
    return this.endings.endGuild(guildId, reason);
  }

  /** One live post's board as it is now, turned the other way round (what Flip shows its presser). */
  async flippedView(postId: number): Promise<LiveMessage | null> {
    const post = await this.options.storage.livePosts.get(postId);
    const snapshot = post === null ? undefined : this.options.feed.snapshot(post.game);
    if (post === null || post.state !== 'live' || snapshot === undefined) return null;
    return this.images.message(
      snapshot,
      { ...post.options, flip: !post.options.flip },
      [],
      this.options.engine?.view(snapshot, post.id),
    );
  }

  /** A game's board picture, White at the bottom: the live page's link preview (og:image). */
  boardPicture(snapshot: GameSnapshot, theme?: ThemeName): Promise<Buffer> {
    return this.images.board(snapshot, theme);
  }

  /** `off`: the operator has no engine (KIBITZ_ENGINE); `not-installed`: on, without its package. */
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
    return (await this.evaluationEdits?.setChoice(postId, choice)) ?? false;
  }

  /** After a restart: picks up every live post of this process's guilds (resume.ts). */
  async resume(): Promise<void> {
    await resumeLivePosts({
      storage: this.options.storage,
      logger: this.options.logger,
      owns: (guildId) => this.owns(guildId),
      observe: (game, guildId) => this.observe(game, guildId, true),
      show: (post, snapshot) => this.senders.push(post.id, { snapshot, files: null }),
      finishStored: (post, game) => this.endings.finishStored(post, game),
      endedOffline: (post) => this.endings.endedOffline(post),
      release: (game, guildId) => this.endings.release(game, guildId),
    });
  }

  /** The latest state of a game the relay's feed has (FICS or ChessLive!). */
  snapshot(game: GameId): GameSnapshot | undefined {
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

  /** The edit scheduler's counts (tests wait on its sends in flight). */
  scheduleFigures(): ScheduleFigures {
    return this.scheduler.figures();
  }

  /** Waits for everything queued to reach Discord (tests, shutdown). */
  async idle(): Promise<void> {
    await this.updates.idle();
    await this.senders.idle();
    await this.endings.idle();
  }

  /**
   * FICS went out of reach (for a while) or came back: every live FICS board is redrawn, with
   * WAITING_FOOTER while it is out of reach, without once it is back.
   */
  async setFicsDown(down: boolean): Promise<void> {
    if (!this.closed) await this.outage.set(down);
  }

  /** Observes a game for a guild (`kept`: held before a restart, so taken whatever its share). */
  private async observe(game: GameId, guildId: string, kept: boolean): Promise<GameSnapshot> {
    await this.options.feed.observeGame(game, guildId, kept);
    return this.firstBoard(game);
  }

  private firstBoard(game: GameId): Promise<GameSnapshot> {
    return awaitFirstBoard(this.options.feed, game, this.options.firstBoardTimeoutMs);
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
      (p) => p.gameKey === key && p.messageId !== null && !this.endings.ignored(p.id),
    );
    if (type === 'ended') {
      this.options.engine?.release(snapshot);
      this.talk.gameEnded(snapshot);
      if (posts.length === 0) return;
      this.endings.track(this.endings.finish(snapshot, posts));
      return;
    }
    for (const post of posts) this.senders.push(post.id, { snapshot, files: null });
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
      if (post.gameKey === gameKeyOf(main) && post.messageId !== null && !this.endings.isEnding(post.id)) {
        this.senders.push(post.id, { snapshot: main, files: null });
      }
    }
  }

  private owns(guildId: string): boolean {
    return this.options.ownsGuild?.(guildId) ?? true;
  }
}
