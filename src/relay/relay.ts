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
import { EvaluationEdits } from './evaluation-edits.js';
import { chartEvaluations, ENGINE_OFF, type LiveEvaluations, type PostEngineChoice } from './evaluations.js';
import { awaitFirstBoard } from './first-board.js';
import { BoardImages } from './images.js';
import type { Refused } from './latest-wins.js';
import type { LiveMessage } from './message.js';
import { OutageFooter } from './outage.js';
import type { PostPort } from './ports.js';
import { PostSenders, type Edit } from './post-sender.js';
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

/** A post the database refused to record is not relayed. */
const UNRECORDED =
  'Kibitz could not record the post in its database, so it does not relay this game. Its operator has to check the database (see the log).';
const UNRECORDED_FOOTER = 'Kibitz could not record this post: this board does not update.';

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
  /** Posts whose end is being written (stopped, refused, guild removed): no board goes to them. */
  private readonly ending = new Set<number>();
  private readonly outage: OutageFooter;
  /** Posts being ended for a refusal or a removed guild: idle() waits for them. */
  private readonly endings = new Set<Promise<void>>();
  /** Absent without an engine (KIBITZ_ENGINE). */
  private readonly evaluationEdits?: EvaluationEdits;
  private readonly scheduler: EditScheduler;
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
    this.outage = new OutageFooter({
      livePosts: options.storage.livePosts,
      snapshot: (game) => options.feed.snapshot(game),
      logger: options.logger,
      shows: (post) => !this.ignored(post.id) && this.owns(post.guildId),
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
      refused: (postId, refusal) => this.track(this.refused(postId, refusal)),
      recorded: (what, write) => this.recorded(what, write),
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
    this.talk.postEnded(post.id);
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
      this.senders.push(post.id, { snapshot: now, files: null, urgent: true });
    }
  }

  /** Stops a live post (the message stays, marked stopped); unobserves when nobody else watches. */
  async stop(postId: number): Promise<void> {
    const post = await this.options.storage.livePosts.get(postId);
    if (post === null || post.state !== 'live' || this.quotas.isFinishing(post.id)) return;
    // Taken out of the edits now: no board is pushed to it while its end is being written.
    const sender = this.senders.take(post.id);
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
    await this.senders.idle();
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
        this.senders.drop(post.id);
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
    if (!this.closed) await this.outage.set(down);
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

  private firstBoard(game: number): Promise<GameSnapshot> {
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
      (p) => p.gameKey === key && p.messageId !== null && !this.ignored(p.id),
    );
    if (type === 'ended') {
      this.options.engine?.release(snapshot);
      this.talk.gameEnded(snapshot);
      if (posts.length === 0) return;
      void this.finish(snapshot, posts);
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
      if (post.gameKey === gameKeyOf(main) && post.messageId !== null && !this.ending.has(post.id)) {
        this.senders.push(post.id, { snapshot: main, files: null });
      }
    }
  }

  /** The final image with the result, the PGN and the whole-game GIF; no edits after it. */
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
  }

  /**
   * Sends a post's final edit, then marks it ended: a crash or a shutdown before the edit went out
   * leaves it live, and the next start sends it from the stored PGN (resume).
   */
  private async finishPost(post: LivePost, edit: Edit): Promise<void> {
    this.quotas.finishStarted(post.id, post.guildId);
    const sender = this.senders.take(post.id);
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
  }

  /** A post no board goes to: its final edit is on its way, or its end is being written. */
  private ignored(postId: number): boolean {
    return this.quotas.isFinishing(postId) || this.ending.has(postId);
  }

  private owns(guildId: string): boolean {
    return this.options.ownsGuild?.(guildId) ?? true;
  }

  /**
   * Discord refused a post for good (its message deleted, its channel or permission gone): the
   * post ends at once. No further request for it, its slot of the guild's cap is free, the game
   * is unobserved when no other post shows it, the reason is stored, and where the channel can
   * still take a message it is told, once, why the board stopped.
   */
  private async refused(postId: number, refusal: Refused): Promise<void> {
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
    const sender = this.senders.take(post.id);
    await sender.finish({
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
