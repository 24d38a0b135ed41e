// Club games beyond the relay's one look at a game's start: the games a club wants but could not
// post yet (the server's live-game limit, or a rating/type the server has not told yet) wait here
// and are posted as room frees; games a club filtered out are unobserved so they take no observe
// slot; posted games and their results are recorded for /club results; members are followed.
import { isChessLive } from '../game/game-id.js';
import type { Handle } from '../protocol/handle.js';
import type { GameSnapshot } from '../game/snapshot.js';
import type { TrackerUpdate } from '../game/tracker.js';
import type { Logger } from '../log.js';
import { followTargets, type AutoPostSource } from '../relay/auto-post.js';
import { gameKeyOf } from '../game/game-key.js';
import type { Relay } from '../relay/relay.js';
import type { LivePost, Storage } from '../storage/index.js';
import { decide } from '../game/club-rules.js';
import { clubTarget, clubTargets } from './targets.js';
import { errorMessage } from '../result.js';
import type { GameId } from '../game/game-id.js';

/**
 * New handles looked up on FICS (one `observe` each, paced with the connection's other commands)
 * per club change; the others are followed for their next game only.
 */
export const MAX_LOOKUPS = 25;

/** What the poster needs of the FICS pool. */
export interface ClubFeed {
  snapshot(game: GameId): GameSnapshot | undefined;
  games(): GameSnapshot[];
  follow(handle: Handle): Promise<number | null>;
  /** Follows for the next game only: no `observe` to find a game played now. */
  followLater(handle: Handle): Promise<void>;
  unfollow(handle: Handle): Promise<void>;
  on(event: 'update', listener: (update: TrackerUpdate) => void): unknown;
  off(event: 'update', listener: (update: TrackerUpdate) => void): unknown;
  /** A followed game waits for a place in its servers' shares of FICS (not observed meanwhile). */
  on(event: 'waiting', listener: (waiting: FicsWaiting) => void): unknown;
  off(event: 'waiting', listener: (waiting: FicsWaiting) => void): unknown;
  /** Servers with a game waiting so. */
  waitingHolders(): string[];
}

interface FicsWaiting {
  created: { white: string; black: string };
  holders: string[];
}

/** What the poster needs of the relay. */
export type ClubRelay = Pick<
  Relay,
  'watch' | 'notice' | 'hasRoom' | 'releaseIfUnwanted' | 'addAutoPostSource' | 'onPostEnded'
>;

export interface ClubPosterOptions {
  feed: ClubFeed;
  relay: ClubRelay;
  storage: Storage;
  logger: Logger;
}

/** A game some clubs want and do not show yet. */
interface Waiting {
  game: GameId;
  /** Guilds waiting for it. */
  guilds: Set<string>;
}

const ENDED_OFFLINE_REASON = 'ended while Kibitz was offline';

export class ClubPoster {
  /** By game key, oldest first (a Map keeps insertion order). */
  private readonly waiting = new Map<string, Waiting>();
  private readonly listener = (update: TrackerUpdate): void => this.onUpdate(update);
  private readonly heldBack = (waiting: FicsWaiting): void =>
    this.background('tell clubs a game waits', this.onHeldBack(waiting));
  /** Null once closed: nothing waiting is posted after that. */
  private relay: ClubRelay | null;
  /** Posting waiting games one at a time, so that two freed places do not both take one game. */
  private queue: Promise<void> = Promise.resolve();
  /** Guilds whose "limit reached" notice is being decided. */
  private readonly noticing = new Set<string>();
  /** Database work started by events (a game's end, a post's end): idle() waits for it. */
  private readonly pending = new Set<Promise<void>>();

  /**
   * Club targets join the relay's auto-posting after the sources it has (follows), and the
   * poster hears when a post ends; the relay knows nothing of clubs.
   */
  constructor(private readonly options: ClubPosterOptions) {
    this.relay = options.relay;
    options.relay.addAutoPostSource(this.source);
    options.relay.onPostEnded((post) => this.background('note a club post that ended', this.postEnded(post)));
    options.feed.on('update', this.listener);
    options.feed.on('waiting', this.heldBack);
  }

  /**
   * The relay's source of club targets, asked when a game's first board arrives (after the
   * sources before it, follows, have posted). Each target reports back: posted (recorded), or kept
   * out by the guild's cap (the game waits, and the club channel hears it once). Clubs that need
   * a rating or type not known yet make the game wait; a game no club wants is let go.
   */
  readonly source: AutoPostSource = async (snapshot, storage) => {
    if (isChessLive(snapshot) || snapshot.ended) return [];
    await this.closeStale(snapshot);
    const targets = (await clubTargets(snapshot, storage)).map((target) => ({
      ...target,
      onPosted: async (post: LivePost) => {
        await this.record(post);
        // It may have been the last game of this server waiting for a place.
        await this.resetNotices();
      },
      onCapReached: () => {
        this.wait(snapshot, target.guildId);
        this.background('say club games wait', this.noticeFull(target.guildId, target.channelId));
      },
    }));
    for (const club of await storage.clubs.clubsFor(snapshot.white, snapshot.black)) {
      if (club.channelId !== null && decide(club, snapshot) === 'undecided')
        this.wait(snapshot, club.guildId);
    }
    if (targets.length === 0) await this.releaseIfClubGame(snapshot);
    return targets;
  };

  close(): void {
    this.options.feed.off('update', this.listener);
    this.options.feed.off('waiting', this.heldBack);
    this.relay = null;
  }

  /** A live post ended: its place may go to a waiting game; a game gone while offline is closed. */
  async postEnded(post: LivePost): Promise<void> {
    void this.postWaiting();
    const record = await this.options.storage.clubs.gameOfPost(post.id);
    if (record !== null && post.state === 'ended_offline') {
      await this.options.storage.clubs.closeGame(record.id, '*', ENDED_OFFLINE_REASON);
    }
  }

  /** Follows every handle a club watches (at start-up), looking up at most MAX_LOOKUPS now. */
  async followAll(): Promise<void> {
    const handles = await this.options.storage.clubs.watchedHandles();
    for (const [i, handle] of handles.entries()) {
      await (i < MAX_LOOKUPS ? this.follow(handle) : this.options.feed.followLater(handle)).catch(
        (error: unknown) =>
          this.options.logger.warn({ handle, error: errorMessage(error) }, 'could not follow a club handle'),
      );
    }
  }

  /**
   * After a club's members, pairings or mode changed: follows the handles now watched and
   * unfollows those no club and no /follow needs any more. Returns the follows FICS refused.
   */
  async syncFollows(
    watchedBefore: readonly Handle[],
  ): Promise<{ problems: { handle: string; error: unknown }[]; later: number }> {
    const lower = (list: readonly string[]): Set<string> => new Set(list.map((h) => h.toLowerCase()));
    const now = await this.options.storage.clubs.watchedHandles();
    const before = lower(watchedBefore);
    const after = lower(now);
    const followed = lower(await this.options.storage.follows.handles());
    const problems: { handle: string; error: unknown }[] = [];
    const added = now.filter((handle) => !before.has(handle.toLowerCase()));
    for (const [i, handle] of added.entries()) {
      const follow =
        i < MAX_LOOKUPS ? this.options.feed.follow(handle) : this.options.feed.followLater(handle);
      await follow.catch((error: unknown) => problems.push({ handle, error }));
    }
    for (const handle of watchedBefore) {
      const name = handle.toLowerCase();
      if (after.has(name) || followed.has(name)) continue;
      await this.options.feed
        .unfollow(handle)
        .catch((error: unknown) => this.options.logger.warn({ err: error, handle }, 'FICS unfollow failed'));
    }
    return { problems, later: Math.max(0, added.length - MAX_LOOKUPS) };
  }

  /**
   * Posts the games being observed now that the guild's club wants and has not posted (after
   * /club add, channel, mode, pairings or filter): they take their turn like waiting games.
   */
  async offerObserved(guildId: string): Promise<void> {
    const club = await this.options.storage.clubs.get(guildId);
    if (club.channelId === null) return;
    for (const snapshot of this.options.feed.games()) {
      if (snapshot.ended || isChessLive(snapshot) || decide(club, snapshot) === 'skip') continue;
      if ((await this.options.storage.clubs.openGame(guildId, gameKeyOf(snapshot))) !== null) continue;
      this.wait(snapshot, guildId);
    }
    await this.postWaiting();
  }

  /** Waits until everything queued has been tried (tests, shutdown). */
  async idle(): Promise<void> {
    await Promise.all(this.pending);
    await this.queue;
  }

  /** Runs event-started database work in view of idle(); a failure is logged. */
  private background(what: string, task: Promise<unknown>): void {
    const done = task.then(
      () => undefined,
      (error: unknown) => this.options.logger.error({ err: error, what }, 'club database work failed'),
    );
    this.pending.add(done);
    void done.then(() => this.pending.delete(done));
  }

  private async follow(handle: Handle): Promise<void> {
    try {
      await this.options.feed.follow(handle);
    } catch (error) {
      this.options.logger.warn({ handle, error: errorMessage(error) }, 'could not follow a club handle');
    }
  }

  private onUpdate(update: TrackerUpdate): void {
    if (update.type === 'needs' || update.type === 'undecoded') return;
    const snapshot = update.snapshot;
    if (isChessLive(snapshot)) return;
    const key = gameKeyOf(snapshot);
    if (update.type === 'ended') {
      // Called from the FICS feed: a database that refuses must not break the feed.
      this.background(
        'record a club result',
        this.options.storage.clubs.finishGame(key, snapshot.result, snapshot.reason),
      );
      if (this.waiting.delete(key)) this.background('reset club notices', this.resetNotices());
      return;
    }
    // A rating or type the rules waited for may have come with this update.
    if (this.waiting.has(key)) void this.postWaiting();
  }

  /**
   * A game observed because a club follows one of its players, and wanted by no club, follow or
   * post: unobserved, so that it takes no observe slot.
   */
  private async releaseIfClubGame(snapshot: GameSnapshot): Promise<void> {
    const { storage } = this.options;
    if ((await storage.clubs.clubsFor(snapshot.white, snapshot.black)).length === 0) return;
    if (this.waiting.has(gameKeyOf(snapshot)) || (await followTargets(snapshot, storage)).length > 0) return;
    const partner = snapshot.partnerGame;
    if (partner !== null && (await storage.livePosts.listLiveByGame(partner)).length > 0) return;
    // A club may have started waiting for it while the database was read.
    if (this.waiting.has(gameKeyOf(snapshot))) return;
    this.options.logger.debug({ game: snapshot.game }, 'club game filtered out: unobserving');
    void this.relay?.releaseIfUnwanted(snapshot.game);
  }

  private wait(snapshot: GameSnapshot, guildId: string): void {
    const key = gameKeyOf(snapshot);
    const entry = this.waiting.get(key) ?? { game: snapshot.game, guilds: new Set<string>() };
    entry.guilds.add(guildId);
    this.waiting.set(key, entry);
  }

  /** Said once while club games wait for room, not for every game that has to wait. */
  private async noticeFull(guildId: string, channelId: string): Promise<void> {
    // Claimed before the database is read, so that two games waiting at once say it once.
    if (this.noticing.has(guildId)) return;
    this.noticing.add(guildId);
    try {
      if ((await this.options.storage.clubs.settings(guildId)).capNoticed) return;
      await this.options.storage.clubs.setCapNoticed(guildId, true);
    } finally {
      this.noticing.delete(guildId);
    }
    void this.relay?.notice(
      channelId,
      'This server relays as many live games as its limit allows, so club games now wait: each is posted here as soon as a live game ends.',
    );
  }

  private async record(post: LivePost): Promise<void> {
    await this.options.storage.clubs.recordGame({
      guildId: post.guildId,
      channelId: post.channelId,
      gameKey: post.gameKey,
      game: post.game,
      white: post.white,
      black: post.black,
      postId: post.id,
      messageChannelId: post.messageChannelId,
      messageId: post.messageId,
    });
  }

  /**
   * FICS reuses game numbers: a club record of a game whose post is over, while a game with the
   * same number and players starts from its first move, is a game that ended unseen (stopped, or
   * over while the connection was down). Close it, so the new game is not taken for the old one.
   */
  private async closeStale(snapshot: GameSnapshot): Promise<void> {
    if (snapshot.san.length > 0 || !snapshot.complete || isChessLive(snapshot)) return;
    const key = gameKeyOf(snapshot);
    for (const club of await this.options.storage.clubs.clubsFor(snapshot.white, snapshot.black)) {
      const open = await this.options.storage.clubs.openGame(club.guildId, key);
      if (open === null) continue;
      const post = open.postId === null ? null : await this.options.storage.livePosts.get(open.postId);
      if (post?.state === 'live') continue;
      await this.options.storage.clubs.closeGame(open.id, '*', 'not seen to end');
    }
  }

  /** Tries every waiting game, one post at a time. */
  private postWaiting(): Promise<void> {
    this.queue = this.queue
      .then(() => this.tryWaiting())
      .catch((error: unknown) => {
        this.options.logger.warn({ err: error }, 'posting waiting club games failed');
      });
    return this.queue;
  }

  private async tryWaiting(): Promise<void> {
    const relay = this.relay;
    if (relay === null) return;
    const { storage } = this.options;
    for (const [key, entry] of [...this.waiting]) {
      const snapshot = this.options.feed.snapshot(entry.game);
      if (snapshot === undefined || snapshot.ended || gameKeyOf(snapshot) !== key) {
        this.waiting.delete(key);
        continue;
      }
      for (const guildId of [...entry.guilds]) {
        const club = await storage.clubs.get(guildId);
        const decision = club.channelId === null ? 'skip' : decide(club, snapshot);
        if (decision === 'undecided') continue;
        if (decision === 'post' && club.channelId !== null && !(await relay.hasRoom(guildId))) {
          await this.noticeFull(guildId, club.channelId);
          continue;
        }
        entry.guilds.delete(guildId);
        if (
          decision === 'skip' ||
          club.channelId === null ||
          (await storage.clubs.openGame(guildId, key)) !== null
        )
          continue;
        const target = clubTarget({ ...club, channelId: club.channelId }, snapshot);
        const result = await relay.watch({ ...target, game: snapshot.game });
        if (result.ok) await this.record(result.value.post);
        else if (result.error.kind === 'full') {
          // No room in the server's share of FICS after all: it waits for the next free place.
          entry.guilds.add(guildId);
          await this.noticeFull(guildId, club.channelId);
        } else
          this.options.logger.warn(
            { guildId, game: snapshot.game, error: result.error.message },
            'club game not posted',
          );
      }
      if (entry.guilds.size > 0) continue;
      this.waiting.delete(key);
      await this.releaseIfClubGame(snapshot);
    }
    await this.resetNotices();
  }

  /** A club game waits unobserved for room in its server's share: the club channel hears it once. */
  private async onHeldBack({ created, holders }: FicsWaiting): Promise<void> {
    for (const club of await this.options.storage.clubs.clubsFor(created.white, created.black)) {
      if (club.channelId !== null && holders.includes(club.guildId))
        await this.noticeFull(club.guildId, club.channelId);
    }
  }

  /** A guild with no waiting game may hear about the limit again next time. */
  private async resetNotices(): Promise<void> {
    const stillWaiting = new Set([
      ...[...this.waiting.values()].flatMap((w) => [...w.guilds]),
      ...this.options.feed.waitingHolders(),
    ]);
    for (const guildId of await this.options.storage.clubs.guildsWithCapNotice()) {
      if (!stillWaiting.has(guildId)) await this.options.storage.clubs.setCapNoticed(guildId, false);
    }
  }
}
