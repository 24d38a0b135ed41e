// Live posts: one observation per game however many channels watch it, one render per position
// and orientation, and per post one message kept current (latest position wins). Posts live in
// storage so a restart resumes editing the same messages.
import {
  gameScenes,
  inlineRenderer,
  liveGameScenes,
  resultText,
  sceneFromSnapshot,
  type BoardScene,
  type Renderer,
} from '../../render/index.js';
import { fromPgn } from '../chesslive/index.js';
import { isChessLiveGame } from '../chesslive/source.js';
import type { GameSnapshot } from '../game/snapshot.js';
import { toPgn } from '../game/pgn.js';
import type { TrackerUpdate } from '../game/tracker.js';
import type { Logger } from '../log.js';
import type { FinishedGame, Storage } from '../storage/index.js';
import type { CreateLivePostResult, LivePost, LivePostOptions } from '../storage/live-posts.js';
import { FicsCapacityError } from '../fics/errors.js';
import { truncate } from '../text.js';
import { LatestWins, Refused } from './latest-wins.js';
import { BOARD_IMAGE, liveMessage, type LiveAttachment, type LiveMessage } from './message.js';
import { errorMessage } from '../result.js';

/** The games side: what the relay needs from the FICS pool. */
export interface GameFeed {
  /** `holder` = the guild that wants the game: it counts in that guild's share from now. */
  observeGame(game: unknown, holder?: string, kept?: boolean): Promise<number>;
  /** The game a player plays now, observed for `holder` as above; resolves with its number. */
  observePlayer?(handle: unknown, holder?: string): Promise<number>;
  /** With a holder, gives back that guild's claim (the game stays observed for the others). */
  unobserve(game: unknown, holder?: string): Promise<void>;
  snapshot(game: number): GameSnapshot | undefined;
  on(event: 'update', listener: (update: TrackerUpdate) => void): unknown;
  off(event: 'update', listener: (update: TrackerUpdate) => void): unknown;
}

/** Where messages go: the Discord side implements it. */
export interface MessagePort {
  /** Posts in the channel (or a new thread of it, when `threadName` is set). */
  post(
    postId: number,
    channelId: string,
    message: LiveMessage,
    threadName: string | null,
  ): Promise<{ messageChannelId: string; messageId: string; threadId: string | null }>;
  /**
   * Rejects with RetryLater while a rate limit holds the edit back. Resolves with a message id
   * when the post continues in a new message from now on (Discord's one-hour edit limit).
   */
  edit(
    postId: number,
    channelId: string,
    messageId: string,
    message: LiveMessage,
  ): Promise<{ continuedIn: string } | void>;
  /** A plain text notice in a channel (e.g. a club's "limit reached"). */
  say(channelId: string, text: string): Promise<void>;
}

export interface WatchRequest {
  guildId: string;
  channelId: string;
  game: number;
  options: LivePostOptions;
  requestedBy: string;
}

/** `full`: refused because the guild or Kibitz has no room now (a game may wait and try again). */
export type WatchResult =
  { ok: true; post: LivePost; snapshot: GameSnapshot } | { ok: false; error: string; full?: boolean };

/** A channel that wants a game posted without anyone asking (follows, clubs). */
export interface AutoPostTarget {
  guildId: string;
  channelId: string;
  options: LivePostOptions;
  requestedBy: string;
  /** Told when the guild's live-game cap kept the game out. */
  onCapReached?: (message: string) => void;
  /** Told once the game is posted (clubs record their games). */
  onPosted?: (post: LivePost) => void;
}

/** Which channels want a game that has just started. */
export type AutoPostSource = (snapshot: GameSnapshot, storage: Storage) => AutoPostTarget[];

/** Channels that follow either player; Black at the bottom when the followed player has Black. */
export const followTargets: AutoPostSource = (snapshot, storage) =>
  [...storage.follows.listForHandle(snapshot.white), ...storage.follows.listForHandle(snapshot.black)].map(
    (follow) => ({
      guildId: follow.guildId,
      channelId: follow.channelId,
      options: { flip: follow.handle.toLowerCase() === snapshot.black.toLowerCase(), thread: false },
      requestedBy: follow.createdBy,
    }),
  );

export interface RelayOptions {
  feed: GameFeed;
  port: MessagePort;
  storage: Storage;
  logger: Logger;
  /** Live games per guild unless the guild set its own cap. */
  maxLivePerGuild: number;
  /** How long to wait for the first board after `observe`. */
  firstBoardTimeoutMs?: number;
  /** Who wants games posted unasked; follows by default. */
  autoPostSources?: AutoPostSource[];
  /** Told when a post stops being live (game over, stopped, gone): room for another game (clubs). */
  onPostEnded?: (post: LivePost) => void;
  /** Where boards and GIFs are drawn: the bot renders off the main thread; inline by default. */
  renderer?: Renderer;
  /** The guilds this process relays (a shard's own, src/shard.ts); every guild by default. */
  ownsGuild?: (guildId: string) => boolean;
}

/** One edit of a post: a game position, or a message made already (ended while offline). */
type Edit =
  | {
      snapshot: GameSnapshot;
      /** PGN and GIF on the final edit. */
      files: LiveAttachment[] | null;
      /** The last edit of a stopped post: it says so and loses its buttons. */
      stopped?: boolean;
    }
  | { message: LiveMessage };

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
  /** Renders of recent positions, shared by every post showing them (also while still drawing). */
  private readonly pngCache = new Map<string, Promise<Buffer>>();
  private readonly renderer: Renderer;
  private readonly listener = (update: TrackerUpdate): void => this.onUpdate(update);
  private readonly sources: AutoPostSource[];
  /** Games with a watch() in progress: observed, but their post does not exist yet. */
  private readonly watching = new Map<number, number>();
  /** Watches in progress per guild: they count against its cap until their post exists or fails. */
  private readonly admitting = new Map<string, number>();
  /**
   * Posts whose final edit is on its way, with their guild: no other edit, stop or second finish
   * for them, and they no longer count against their guild's cap.
   */
  private readonly finishing = new Map<number, string>();
  /** FICS out of reach for a while: live FICS boards say so in their footer. */
  private ficsDown = false;
  /** Posts being ended for a refusal or a removed guild: idle() waits for them. */
  private readonly endings = new Set<Promise<void>>();

  constructor(private readonly o: RelayOptions) {
    this.sources = o.autoPostSources ?? [followTargets];
    this.renderer = o.renderer ?? inlineRenderer;
    o.feed.on('update', this.listener);
  }

  close(): void {
    this.closed = true;
    this.o.feed.off('update', this.listener);
    // Edits waiting out a rate limit would otherwise go on after the bot has stopped.
    for (const sender of this.senders.values()) sender.close();
    this.senders.clear();
  }

  /**
   * Starts relaying a game in a channel: observes it (once for all channels) and posts the board.
   * The guild's cap and its share of FICS are checked and taken in one step before anything is
   * awaited, so concurrent requests cannot all pass the check; a failure gives both back.
   */
  async watch(request: WatchRequest): Promise<WatchResult> {
    const { guildId, game } = request;
    count(this.watching, game, 1);
    try {
      return await this.admit(request, () => this.o.feed.observeGame(game, guildId));
    } finally {
      count(this.watching, game, -1);
    }
  }

  /** watch() for the game a player is playing now. */
  async watchPlayer(request: Omit<WatchRequest, 'game'> & { player: string }): Promise<WatchResult> {
    const { feed } = this.o;
    if (feed.observePlayer === undefined) return { ok: false, error: 'This feed has no players.' };
    return this.admit(request, () => feed.observePlayer!(request.player, request.guildId));
  }

  private async admit(
    request: Omit<WatchRequest, 'game'>,
    observe: () => Promise<number>,
  ): Promise<WatchResult> {
    const { guildId } = request;
    // A game waiting for room (clubs) may come up after the bot was removed from its guild.
    if (!this.o.storage.guildSettings.isActive(guildId))
      return { ok: false, error: 'Kibitz is no longer in this server.' };
    const full = this.overCap(guildId);
    if (full !== null) return { ok: false, error: full, full: true };
    count(this.admitting, guildId, 1);
    let admitting = true;
    // Once its post is recorded, the post counts against the cap instead.
    const recorded = (): void => {
      if (admitting) count(this.admitting, guildId, -1);
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
  hasRoom(guildId: string): boolean {
    return this.overCap(guildId) === null;
  }

  /** Unobserves a game that no post shows and no watch() is about to (clubs drop games they filter out). */
  async releaseIfUnwanted(game: number): Promise<void> {
    if (this.watching.has(game) || this.o.storage.livePosts.listLiveByGameNumber(game).length > 0) return;
    await this.unobserve(game);
  }

  private overCap(guildId: string): string | null {
    const { storage } = this.o;
    const cap = storage.guildSettings.maxLiveGames(guildId, this.o.maxLivePerGuild);
    const over = [...this.finishing.values()].filter((guild) => guild === guildId).length;
    const coming = this.admitting.get(guildId) ?? 0;
    if (storage.livePosts.countLiveInGuild(guildId) + coming - over < cap) return null;
    return `This server already relays ${cap} live games, its limit. Stop one with /unobserve first.`;
  }

  /** Records a live post and sends its first message. */
  private async open(
    request: WatchRequest,
    snapshot: GameSnapshot,
    recorded: () => void,
  ): Promise<WatchResult> {
    const { storage } = this.o;
    let created: CreateLivePostResult;
    try {
      created = storage.livePosts.create({
        guildId: request.guildId,
        channelId: request.channelId,
        gameNumber: snapshot.game,
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
    const threadName = request.options.thread
      ? `${snapshot.white} vs ${snapshot.black} (game ${snapshot.game})`
      : null;
    const message = await this.message(snapshot, post.options.flip).catch((error: Error) => error);
    let where: Awaited<ReturnType<MessagePort['post']>>;
    try {
      if (message instanceof Error) throw message;
      where = await this.o.port.post(post.id, request.channelId, message, threadName);
    } catch (error) {
      // The bot stopped while the message was on its way: its storage is closed already.
      if (this.closed) return { ok: false, error: 'Kibitz is shutting down.' };
      this.recorded('drop a post that was not sent', () => storage.livePosts.delete(post.id));
      await this.release(snapshot.game, request.guildId, post.id);
      return { ok: false, error: `Could not post the board: ${errorMessage(error)}` };
    }
    // Stopped meanwhile: storage is closed.
    if (this.closed) return { ok: false, error: 'Kibitz is shutting down.' };
    if (!this.recorded('record a posted message', () => storage.livePosts.setMessage(post.id, where))) {
      // Out, but never to be edited: it says so, and the game is let go.
      const stopped = { ...(message as LiveMessage), live: false, footer: UNRECORDED_FOOTER };
      await this.o.port
        .edit(post.id, where.messageChannelId, where.messageId, stopped)
        .catch(() => undefined);
      this.recorded('drop a post that cannot be kept', () => storage.livePosts.delete(post.id));
      await this.release(snapshot.game, request.guildId, post.id);
      return { ok: false, error: UNRECORDED };
    }
    this.catchUp(post.id, snapshot);
    return { ok: true, post: storage.livePosts.get(post.id)!, snapshot };
  }

  /** Runs a database write; a refused one is logged and false, and the caller goes on. */
  private recorded(what: string, write: () => void): boolean {
    try {
      write();
      return true;
    } catch (error) {
      this.writeFailed(what, error);
      return false;
    }
  }

  private writeFailed(what: string, error: unknown): void {
    this.o.logger.error({ err: error, what }, 'database write failed');
  }

  /** Updates that came while a post's first message was on its way had no message to edit. */
  private catchUp(postId: number, posted: GameSnapshot): void {
    const now = this.o.feed.snapshot(posted.game);
    const post = this.o.storage.livePosts.get(postId);
    if (now === undefined || post === null || gameKeyOf(now) !== gameKeyOf(posted)) return;
    if (now.ended) void this.finish(now, [post]);
    else if (
      now.fen !== posted.fen ||
      now.whiteClockMs !== posted.whiteClockMs ||
      now.blackClockMs !== posted.blackClockMs ||
      // A bughouse post shows the partner board too, often found while the first message was out.
      now.partnerGame !== null
    ) {
      this.sender(postId).push({ snapshot: now, files: null });
    }
  }

  /**
   * A game started that someone asked for in advance (a followed player, a club member): post it
   * in every channel that wants it and does not have it yet.
   */
  private async autoPost(snapshot: GameSnapshot): Promise<void> {
    const { storage } = this.o;
    const seen = new Set<string>();
    for (const source of this.sources) {
      // Posting takes a round trip: the bot may have stopped (and closed storage) meanwhile.
      if (this.closed) return;
      let targets: AutoPostTarget[] = [];
      // A source reads (and clubs write) the database: one that fails posts nothing, the others go on.
      this.recorded('find who wants a new game', () => (targets = source(snapshot, storage)));
      for (const target of targets) {
        if (this.closed) return;
        if (seen.has(target.channelId) || !this.owns(target.guildId)) continue;
        seen.add(target.channelId);
        if (storage.livePosts.findLive(target.channelId, gameKeyOf(snapshot)) !== null) continue;
        // Through watch(): the post takes the guild's cap and share like a command's would.
        const result = await this.watch({ ...target, game: snapshot.game });
        if (result.ok) this.recorded('record a posted game', () => target.onPosted?.(result.post));
        else if (result.full === true) {
          target.onCapReached?.(result.error);
          this.o.logger.info({ guildId: target.guildId, game: snapshot.game }, 'game not posted: no room');
        } else this.o.logger.warn({ channelId: target.channelId, error: result.error }, 'game not posted');
      }
    }
  }

  /** Stops a live post (the message stays, marked stopped); unobserves when nobody else watches. */
  async stop(postId: number): Promise<void> {
    const post = this.o.storage.livePosts.get(postId);
    if (post === null || post.state !== 'live' || this.finishing.has(post.id)) return;
    // Not recorded, it is still stopped now: the edit goes out and the game is let go.
    this.recorded('end a stopped post', () => this.o.storage.livePosts.end(post.id, 'ended'));
    const sender = this.sender(post.id);
    this.senders.delete(post.id);
    const snapshot = this.o.feed.snapshot(post.gameNumber);
    // Not awaited: under a rate limit the edit may wait seconds, and the user's answer must not.
    if (snapshot !== undefined) void sender.finish({ snapshot, files: null, stopped: true });
    await this.release(post.gameNumber, post.guildId, post.id);
    this.o.onPostEnded?.({ ...post, state: 'ended' });
  }

  /** Turns the board of one post around and redraws it now. */
  flip(postId: number): boolean {
    const post = this.o.storage.livePosts.get(postId);
    if (post === null) return false;
    this.o.storage.livePosts.setFlip(post.id, !post.options.flip);
    const snapshot = this.o.feed.snapshot(post.gameNumber);
    if (post.state === 'live' && snapshot !== undefined) this.sender(post.id).push({ snapshot, files: null });
    return true;
  }

  /**
   * After a restart: observe every game that still has live posts (of this shard's guilds). A game
   * that is gone or now shows other players ended while the bot was away; when it ended just
   * before (its final edit cut off), its stored PGN gives the final edit.
   */
  async resume(): Promise<void> {
    const posts = this.o.storage.livePosts.listLive().filter((post) => this.owns(post.guildId));
    const games = new Map<number, LivePost[]>();
    for (const post of posts) games.set(post.gameNumber, [...(games.get(post.gameNumber) ?? []), post]);
    // All games at once: one slow or vanished game must not hold up the others' posts.
    await Promise.all([...games].map(([game, waiting]) => this.resumeGame(game, waiting)));
  }

  private async resumeGame(game: number, waiting: LivePost[]): Promise<void> {
    let snapshot: GameSnapshot | null = null;
    const guilds = [...new Set(waiting.map((post) => post.guildId))];
    try {
      // Each guild holds the game again as before the restart, share or not.
      for (const guildId of guilds) snapshot = await this.observe(game, guildId, true);
    } catch (error) {
      this.o.logger.info({ game, error: errorMessage(error) }, 'game gone after restart');
    }
    for (const post of waiting) {
      const finished = this.o.storage.finishedGames.get(post.gameKey);
      if (snapshot !== null && gameKeyOf(snapshot) === post.gameKey) {
        this.sender(post.id).push({ snapshot, files: null });
      } else if (finished !== null && finished.endedAt >= post.createdAt) {
        await this.finishStored(post, finished);
      } else {
        await this.endedOffline(post);
      }
    }
    if (snapshot !== null && waiting.every((p) => gameKeyOf(snapshot) !== p.gameKey)) {
      for (const guildId of guilds) await this.release(game, guildId);
    }
  }

  /** The latest state of a game the relay's feed has (FICS or ChessLive!). */
  snapshot(game: number): GameSnapshot | undefined {
    return this.o.feed.snapshot(game);
  }

  /** A text notice in a channel; a failure is logged, not thrown (notices are best effort). */
  async notice(channelId: string, text: string): Promise<void> {
    try {
      await this.o.port.say(channelId, text);
    } catch (error) {
      this.o.logger.warn({ channelId, error: errorMessage(error) }, 'notice failed');
    }
  }

  /** Waits for everything queued to reach Discord (tests, shutdown). */
  async idle(): Promise<void> {
    await Promise.all([...this.senders.values()].map((s) => s.idle()));
    await Promise.all(this.endings);
  }

  /**
   * The bot was removed from a guild: its live posts end at once, without a request to Discord
   * (none would pass), and their games are unobserved when no other post shows them.
   */
  endGuild(guildId: string, reason: string): Promise<void> {
    const posts = this.o.storage.livePosts.listLiveInGuild(guildId);
    for (const post of posts) {
      this.senders.get(post.id)?.close();
      this.senders.delete(post.id);
      this.o.storage.livePosts.end(post.id, 'ended', reason);
    }
    const ending = (async () => {
      for (const post of posts) this.o.onPostEnded?.({ ...post, state: 'ended', endReason: reason });
      // Only games the feed has: right after a restart nothing is observed yet.
      for (const game of new Set(posts.map((p) => p.gameNumber)))
        if (this.o.feed.snapshot(game) !== undefined) await this.release(game, guildId);
    })();
    this.track(ending);
    return ending;
  }

  /**
   * FICS went out of reach (for a while) or came back: every live FICS board is redrawn, with
   * WAITING_FOOTER while it is out of reach, without once it is back.
   */
  setFicsDown(down: boolean): void {
    if (this.closed || down === this.ficsDown) return;
    this.ficsDown = down;
    this.o.logger.info(
      { down },
      down ? 'FICS out of reach: live boards say so' : 'FICS back: live boards current again',
    );
    for (const post of this.o.storage.livePosts.listLive()) {
      const snapshot = this.o.feed.snapshot(post.gameNumber);
      if (post.messageId === null || this.finishing.has(post.id) || !this.owns(post.guildId)) continue;
      if (snapshot === undefined || snapshot.ended || isChessLiveGame(snapshot.game)) continue;
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
    await this.o.feed.observeGame(game, guildId, kept);
    return this.firstBoard(game);
  }

  /** The observe reply carries the first board; a slow server may send it just after. */
  private firstBoard(game: number): Promise<GameSnapshot> {
    const now = this.o.feed.snapshot(game);
    if (now !== undefined) return Promise.resolve(now);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.o.feed.off('update', wait);
        reject(new Error(`Game ${game} sent no board.`));
      }, this.o.firstBoardTimeoutMs ?? 10_000);
      const wait = (update: TrackerUpdate): void => {
        if (update.type === 'needs' || update.type === 'undecoded' || update.snapshot.game !== game) return;
        clearTimeout(timer);
        this.o.feed.off('update', wait);
        resolve(update.snapshot);
      };
      this.o.feed.on('update', wait);
    });
  }

  private onUpdate(update: TrackerUpdate): void {
    if (update.type === 'needs' || update.type === 'undecoded') return;
    const snapshot = update.snapshot;
    // The tracker announces a game at its first board.
    if (update.type === 'started' && !snapshot.ended) void this.autoPost(snapshot);
    const key = gameKeyOf(snapshot);
    const posts = this.o.storage.livePosts
      .listLiveByGameNumber(snapshot.game)
      .filter((p) => p.gameKey === key && p.messageId !== null && !this.finishing.has(p.id));
    if (update.type === 'ended') {
      if (posts.length === 0) return;
      void this.finish(snapshot, posts);
      return;
    }
    for (const post of posts) this.sender(post.id).push({ snapshot, files: null });
    // A bughouse post shows both boards: a move on the partner board redraws it too.
    if (snapshot.partnerGame === null) return;
    const main = this.o.feed.snapshot(snapshot.partnerGame);
    if (main === undefined || main.ended) return;
    for (const post of this.o.storage.livePosts.listLiveByGameNumber(main.game)) {
      if (post.gameKey === gameKeyOf(main) && post.messageId !== null) {
        this.sender(post.id).push({ snapshot: main, files: null });
      }
    }
  }

  /** The final image with the result, the PGN and the whole-game GIF; no edits after it. */
  private async finish(snapshot: GameSnapshot, all: LivePost[]): Promise<void> {
    const posts = all.filter((post) => !this.finishing.has(post.id));
    if (posts.length === 0) return;
    for (const post of posts) this.finishing.set(post.id, post.guildId);
    const pgn = toPgn(snapshot);
    // Kept for a restart's final edit; the final edit goes out now whether or not it is kept.
    this.recorded('save a finished game', () =>
      this.o.storage.finishedGames.save({
        gameKey: gameKeyOf(snapshot),
        gameNumber: snapshot.game,
        white: snapshot.white,
        black: snapshot.black,
        pgn,
        result: snapshot.result,
        reason: snapshot.reason,
        endedAt: Date.now(),
      }),
    );
    const files: LiveAttachment[] = [{ name: `game-${snapshot.game}.pgn`, data: Buffer.from(pgn) }];
    const scenes = gameScenes(snapshot);
    const gif = scenes.ok ? await this.gif(scenes.value) : null;
    if (gif !== null) files.push({ name: `game-${snapshot.game}.gif`, data: gif });
    await Promise.all(posts.map((post) => this.finishPost(post, { snapshot, files })));
  }

  /**
   * Sends a post's final edit, then marks it ended: a crash or a shutdown before the edit went out
   * leaves it live, and the next start sends it from the stored PGN (resume).
   */
  private async finishPost(post: LivePost, edit: Edit): Promise<void> {
    this.finishing.set(post.id, post.guildId);
    const sender = this.sender(post.id);
    this.senders.delete(post.id);
    await sender.finish(edit);
    this.finishing.delete(post.id);
    if (this.closed) return;
    this.recorded('end a finished post', () => this.o.storage.livePosts.end(post.id, 'ended'));
    this.o.onPostEnded?.({ ...post, state: 'ended' });
  }

  /** The final edit of a game that ended just before a restart, from its stored PGN. */
  private async finishStored(post: LivePost, game: FinishedGame): Promise<void> {
    const files: LiveAttachment[] = [{ name: `game-${game.gameNumber}.pgn`, data: Buffer.from(game.pgn) }];
    const read = fromPgn(game.pgn);
    const orientation = post.options.flip ? 'black' : 'white';
    const scenes = read.ok ? liveGameScenes(read.value[0]!, { orientation }) : null;
    let image: LiveAttachment | null = null;
    if (scenes?.ok === true) {
      const png = await this.renderer.png(scenes.value.at(-1)!);
      if (png.ok) image = { name: BOARD_IMAGE, data: png.value };
      const gif = await this.gif(scenes.value);
      if (gif !== null) files.push({ name: `game-${game.gameNumber}.gif`, data: gif });
    }
    this.o.logger.info({ postId: post.id, game: post.gameNumber }, 'final edit sent after a restart');
    const message: LiveMessage = {
      title: `Game ${game.gameNumber}: ${game.white} vs ${game.black}`,
      lines: ['The game ended while Kibitz was restarting.'],
      image,
      files,
      live: false,
      footer: resultText({ result: game.result, reason: game.reason }),
    };
    await this.finishPost(post, { message });
  }

  private owns(guildId: string): boolean {
    return this.o.ownsGuild?.(guildId) ?? true;
  }

  private sender(postId: number): LatestWins<Edit> {
    let sender = this.senders.get(postId);
    if (sender === undefined) {
      sender = new LatestWins<Edit>({
        send: (edit) => this.send(postId, edit),
        onError: (error) => this.o.logger.warn({ postId, error: errorMessage(error) }, 'edit failed'),
        onRefused: (refusal) => this.track(this.refused(postId, refusal)),
      });
      this.senders.set(postId, sender);
    }
    return sender;
  }

  private async send(postId: number, edit: Edit): Promise<void> {
    // A final edit that waited out a rate limit may wake after close().
    if (this.closed) return;
    const post = this.o.storage.livePosts.get(postId);
    if (post === null || post.messageId === null || post.messageChannelId === null) return;
    // Refused for good (refused()): not even a final edit goes, it would be refused again.
    if (post.endReason !== null) return;
    let shown: LiveMessage;
    if ('message' in edit) shown = edit.message;
    else {
      const message = await this.message(edit.snapshot, post.options.flip, edit.files ?? []);
      const waiting = this.ficsDown && message.live && !isChessLiveGame(edit.snapshot.game);
      shown = edit.stopped
        ? { ...message, live: false, footer: STOPPED_FOOTER }
        : waiting
          ? { ...message, footer: WAITING_FOOTER }
          : message;
    }
    await this.editFitting(post, shown);
    this.recorded('note an edit', () => this.o.storage.livePosts.touch(post.id));
  }

  /**
   * Sends an edit; one refused for its size goes again without its last file (the GIF), then
   * without the next (the PGN): the result and the final board are never lost to an attachment.
   */
  private async editFitting(post: LivePost, shown: LiveMessage): Promise<void> {
    let message = shown;
    for (;;) {
      try {
        const moved = await this.o.port.edit(post.id, post.messageChannelId!, post.messageId!, message);
        if (moved)
          this.o.storage.livePosts.setMessage(post.id, {
            messageChannelId: post.messageChannelId!,
            messageId: moved.continuedIn,
            threadId: post.threadId,
          });
        return;
      } catch (error) {
        if (!(error instanceof Refused) || !error.detail.tooLarge || message.files.length === 0) throw error;
        const dropped = message.files.at(-1)!;
        this.o.logger.warn(
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
    const post = this.o.storage.livePosts.get(postId);
    if (post === null) return;
    this.o.logger.warn(
      {
        postId,
        guildId: post.guildId,
        game: post.gameNumber,
        code: refusal.detail.code,
        reason: refusal.reason,
      },
      'Discord refused a live post for good: it ends',
    );
    const wasLive = post.state === 'live' && !this.finishing.has(post.id);
    this.o.storage.livePosts.end(post.id, post.state === 'live' ? 'ended' : post.state, refusal.reason);
    // A final edit that was refused: finishPost ends the post as it does any other.
    if (!wasLive) return;
    this.o.onPostEnded?.({ ...post, state: 'ended', endReason: refusal.reason });
    await this.release(post.gameNumber, post.guildId);
    if (refusal.detail.canNotify && post.messageChannelId !== null)
      await this.notice(
        post.messageChannelId,
        truncate(
          `The live board of game ${post.gameNumber} (${post.white} vs ${post.black}) stopped: ${refusal.reason}.`,
          2_000,
        ),
      );
  }

  private async message(
    snapshot: GameSnapshot,
    flip: boolean,
    files: LiveAttachment[] = [],
  ): Promise<LiveMessage> {
    return liveMessage(snapshot, { name: BOARD_IMAGE, data: await this.png(snapshot, flip) }, files);
  }

  /** One render per position and orientation, shared by every channel showing it. */
  private png(snapshot: GameSnapshot, flip: boolean): Promise<Buffer> {
    const partner = snapshot.partnerGame === null ? undefined : this.o.feed.snapshot(snapshot.partnerGame);
    const look = (s: GameSnapshot): string => `${s.fen}|${s.whiteClockMs}|${s.blackClockMs}|${s.ended}`;
    const key = `${gameKeyOf(snapshot)}|${look(snapshot)}|${partner === undefined ? '' : look(partner)}|${flip}`;
    const cached = this.pngCache.get(key);
    if (cached !== undefined) return cached;
    const orientation = flip ? 'black' : 'white';
    const rendered = this.renderer
      .png(sceneFromSnapshot(snapshot, { orientation, partner: partner ?? null }))
      .then((result) => {
        if (result.ok) return result.value;
        this.pngCache.delete(key);
        throw new Error(`render failed: ${result.error}`);
      });
    // A small cache: positions are shared by channels at the same moment, not over time.
    if (this.pngCache.size >= 256) this.pngCache.delete(this.pngCache.keys().next().value!);
    this.pngCache.set(key, rendered);
    return rendered;
  }

  private async gif(scenes: BoardScene[]): Promise<Buffer | null> {
    if (scenes.length < 2) return null;
    const gif = await this.renderer.gif(scenes);
    if (!gif.ok) this.o.logger.warn({ error: gif.error }, 'game GIF not rendered');
    return gif.ok ? gif.value : null;
  }

  private async endedOffline(post: LivePost): Promise<void> {
    this.recorded('end a post gone offline', () => this.o.storage.livePosts.end(post.id, 'ended_offline'));
    this.o.onPostEnded?.({ ...post, state: 'ended_offline' });
    this.o.logger.info({ postId: post.id, game: post.gameNumber }, 'game ended while offline');
    if (post.messageId === null || post.messageChannelId === null) return;
    // Through a sender like every edit: it waits out rate limits, and logs a failure.
    const sender = this.sender(post.id);
    this.senders.delete(post.id);
    await sender.finish({
      message: {
        title: `Game ${post.gameNumber}: ${post.white} vs ${post.black}`,
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
      live = this.o.storage.livePosts.listLiveByGameNumber(game).filter((post) => post.id !== except);
    } catch (error) {
      // Unreadable: this guild lets go of its claim all the same; other guilds keep theirs.
      this.o.logger.error({ err: error, game }, 'database read failed');
    }
    if (live.some((post) => post.guildId === guildId)) return;
    // ChessLive! sources keep no claims: one is read while any post shows it.
    if (live.length > 0 && isChessLiveGame(game)) return;
    await this.unobserve(game, guildId);
  }

  private async unobserve(game: number, guildId?: string): Promise<void> {
    try {
      await this.o.feed.unobserve(game, guildId);
    } catch (error) {
      this.o.logger.warn({ game, error: errorMessage(error) }, 'unobserve failed');
    }
  }
}

/** Stable across restarts (the tracker's own keys are not): number and players. */
export function gameKeyOf(snapshot: GameSnapshot): string {
  return `${snapshot.game}:${snapshot.white}:${snapshot.black}`;
}

function count<K>(counts: Map<K, number>, key: K, by: 1 | -1): void {
  const next = (counts.get(key) ?? 0) + by;
  if (next > 0) counts.set(key, next);
  else counts.delete(key);
}
