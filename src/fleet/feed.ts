// One FICS observation per game for the whole fleet. Between the FICS pool and the relay: a game
// wanted here is observed on this machine's FICS logins only when this process takes its lease in
// PostgreSQL; the holder stores each new snapshot there and notifies, and every other process that
// posts the game reads it and feeds it to its relay as if its own FICS connection had sent it.
// A holder renews its leases every third of a lease; one that stops (a crash) loses them when they
// expire, and a process that wants the game and has room on FICS takes it over, observes it and
// reconciles from the move list as after a reconnect. Kibitzes and whispers travel the same way:
// a line heard in a held game publishes the game's state (which keeps them), and the other
// processes pass on the lines their last read did not have; a new holder's list goes on from the
// last stored state's (said-list.ts).
import { EventEmitter } from 'node:events';
import type pg from 'pg';
import { backoffDelay, DEFAULT_BACKOFF } from '../backoff.js';
import type { FicsFeed } from '../chesslive/feed.js';
import { FicsCommandError } from '../fics/errors.js';
import type { GameNumber } from '../protocol/game-number.js';
import { isFicsGame, type GameId } from '../game/game-id.js';
import type { Handle } from '../protocol/handle.js';
import type { FicsSnapshot } from '../game/snapshot.js';
import type { SaidInGame, TrackerUpdate } from '../game/tracker.js';
import type { Logger } from '../log.js';
import { gameKeyOf } from '../game/game-key.js';
import { errorMessage } from '../result.js';
import { carriedFrom, continueSaid, saidSince, type CarriedSaid } from './said-list.js';
import {
  FLEET_CHANNEL,
  parseNotice,
  type FleetNotice,
  type FleetStore,
  type StoredSnapshot,
} from './store.js';

/** What the fleet needs from the FICS pool. */
export interface FleetPool extends FicsFeed {
  /** True when the holder may take one more game on this machine's FICS logins. */
  hasRoom(holder: string): boolean;
  on(event: 'update', listener: (update: TrackerUpdate<FicsSnapshot>) => void): unknown;
  /** A kibitz or whisper kept in a game this machine observes. */
  on(event: 'said', listener: (said: SaidInGame) => void): unknown;
  off(event: 'update', listener: (update: TrackerUpdate<FicsSnapshot>) => void): unknown;
  off(event: 'said', listener: (said: SaidInGame) => void): unknown;
}

export interface FleetFeedOptions {
  pool: FleetPool;
  store: FleetStore;
  /** A new client for LISTEN (kept open; opened again after a failure). */
  listener: () => pg.Client;
  /** KIBITZ_FLEET_LEASE_MS. */
  leaseMs: number;
  logger: Logger;
}

/** A game another process observes: the latest state read. */
interface Remote {
  seq: number;
  snapshot: StoredSnapshot | undefined;
  /** The newest sequence number a notice announced. */
  wanted: number;
  reading: boolean;
  /** FICS no longer has the game (observing it again failed): it is not taken over again. */
  gone: boolean;
  /**
   * Held before a restart: an end read first is this game's end (it may have ended meanwhile; the
   * relay tells by the players). Otherwise an end read first is an earlier game's under the number.
   */
  resuming: boolean;
}

const UNREAD: Remote = {
  seq: 0,
  snapshot: undefined,
  wanted: 0,
  reading: false,
  gone: false,
  resuming: false,
};

/** Snapshots of one held game on their way to PostgreSQL: only the latest waits. */
interface Outbox {
  next: FicsSnapshot | null;
  busy: boolean;
}

/** Ended games' states are kept this long for late readers, then pruned. */
const KEEP_ENDED_MS = 10 * 60_000;
const PRUNE_EVERY_MS = 60_000;

type FleetEvents = { update: [TrackerUpdate<FicsSnapshot>]; said: [SaidInGame] };

export class FleetFeed extends EventEmitter<FleetEvents> implements FicsFeed {
  /** Games wanted here and by which holders (Discord servers). */
  private readonly wanted = new Map<GameNumber, Set<string>>();
  /** Games this process holds the lease of: observed on this machine's FICS logins. */
  private readonly held = new Set<GameNumber>();
  /** Games another process holds: their state comes from PostgreSQL. */
  private readonly remote = new Map<GameNumber, Remote>();
  /** The first decision (lease or subscribe) for a game, shared by concurrent callers. */
  private readonly joining = new Map<GameNumber, Promise<void>>();
  private readonly outbox = new Map<GameNumber, Outbox>();
  /** Held games' lines carried over from their last stored state: they come first in its states. */
  private readonly carried = new Map<GameNumber, CarriedSaid>();
  /** The game key (number and players) each game was announced under, and whether it ended. */
  private readonly announced = new Map<GameNumber, { key: string; ended: boolean }>();
  private readonly forward = (update: TrackerUpdate<FicsSnapshot>): void => this.fromPool(update);
  private readonly forwardSaid = (said: SaidInGame): void => this.saidInPool(said);
  private timer: NodeJS.Timeout | null = null;
  private pruner: NodeJS.Timeout | null = null;
  private ticking = false;
  private client: pg.Client | null = null;
  private listenFailures = 0;
  private closed = false;

  constructor(private readonly options: FleetFeedOptions) {
    super();
    options.pool.on('update', this.forward);
    options.pool.on('said', this.forwardSaid);
  }

  /** Opens the notice channel, then renews and takes leases every third of a lease. */
  async start(): Promise<void> {
    await this.listen();
    this.timer = setInterval(() => void this.tick(), Math.max(100, Math.floor(this.options.leaseMs / 3)));
    this.pruner = setInterval(() => {
      this.options.store
        .prune(KEEP_ENDED_MS)
        .catch((error: unknown) => this.warn('prune ended games', null, error));
    }, PRUNE_EVERY_MS);
  }

  /** Games held here (observed on this machine's FICS logins for the fleet). */
  heldGames(): GameNumber[] {
    return [...this.held];
  }

  async observeGame(game: GameNumber, holder?: string, kept?: boolean): Promise<GameNumber> {
    return this.want(game, holder, kept, kept === true);
  }

  /**
   * A followed player's new game, for the holders the pool named (their shares already claimed):
   * every machine that follows the player hears of it, only the lease holder observes it.
   */
  async observeFollowed(game: GameNumber, holders: readonly string[]): Promise<void> {
    if (holders.length === 0) await this.options.pool.observeGame(game);
    for (const holder of holders) await this.want(game, holder, true, false);
  }

  /** `resuming`: held before a restart (it may have ended meanwhile on another machine's watch). */
  private async want(
    game: GameNumber,
    holder: string | undefined,
    kept: boolean | undefined,
    resuming: boolean,
  ) {
    const { pool } = this.options;
    if (holder === undefined) return pool.observeGame(game, holder, kept);
    const holders = this.wantedBy(game);
    holders.add(holder);
    try {
      const first = await this.join(game, () => this.firstWant(game, holder, kept, resuming));
      if (!first && this.held.has(game)) await pool.observeGame(game, holder, kept);
      return game;
    } catch (error) {
      this.unwant(game, holder);
      throw error;
    }
  }

  async observePlayer(handle: Handle, holder?: string): Promise<GameNumber> {
    const { pool } = this.options;
    if (pool.observePlayer === undefined) throw new Error('FICS is not connected.');
    // The game's number comes with the observe: the lease is taken just after it.
    const game = await pool.observePlayer(handle, holder);
    if (holder === undefined) return game;
    this.wantedBy(game).add(holder);
    try {
      await this.join(game, async () => {
        if (!(await this.options.store.lease([game], this.options.leaseMs)).has(game))
          return this.subscribe(game);
        await this.carryOn(game);
        this.held.add(game);
        const now = pool.snapshot(game);
        if (now !== undefined) this.send(now);
      });
    } catch (error) {
      this.unwant(game, holder);
      throw error;
    }
    // Followed already from another machine's observation: this one was one too many.
    if (this.remote.has(game) && pool.snapshot(game) !== undefined)
      await pool.unobserve(game).catch((error: unknown) => this.warn('unobserve', game, error));
    return game;
  }

  async unobserve(game: GameNumber, holder?: string): Promise<void> {
    const { pool, store } = this.options;
    const holders = this.wanted.get(game);
    if (holder !== undefined) holders?.delete(holder);
    if (this.held.has(game) && holder !== undefined) await pool.unobserve(game, holder);
    if (holder !== undefined && holders !== undefined && holders.size > 0) return;
    this.wanted.delete(game);
    this.remote.delete(game);
    this.announced.delete(game);
    this.carried.delete(game);
    if (!this.held.delete(game)) {
      if (holder === undefined || holders === undefined) await pool.unobserve(game, holder);
      return;
    }
    if (holder === undefined) await pool.unobserve(game);
    // Another process that wants the game takes it over at its next round.
    await store.release(game).catch((error: unknown) => this.warn('release a lease', game, error));
  }

  snapshot(game: GameId): FicsSnapshot | undefined {
    const remote = isFicsGame(game) ? this.remote.get(game) : undefined;
    if (remote !== undefined) return remote.snapshot;
    const now = this.options.pool.snapshot(game);
    return now === undefined ? undefined : this.continued(now);
  }

  /** Gives every lease back so that the other processes take the games over at once. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.timer !== null) clearInterval(this.timer);
    if (this.pruner !== null) clearInterval(this.pruner);
    this.options.pool.off('update', this.forward);
    this.options.pool.off('said', this.forwardSaid);
    if (this.held.size > 0)
      await this.options.store
        .releaseAll()
        .catch((error: unknown) => this.warn('release leases', null, error));
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  // ---- leases --------------------------------------------------------------------------------------

  private wantedBy(game: GameNumber): Set<string> {
    let holders = this.wanted.get(game);
    if (holders === undefined) this.wanted.set(game, (holders = new Set()));
    return holders;
  }

  private unwant(game: GameNumber, holder: string): void {
    const holders = this.wanted.get(game);
    holders?.delete(holder);
    if (holders?.size !== 0) return;
    this.wanted.delete(game);
    this.remote.delete(game);
    this.carried.delete(game);
  }

  /** Runs `decide` for a game neither held nor followed yet; true when this call decided. */
  private async join(game: GameNumber, decide: () => Promise<void>): Promise<boolean> {
    const pending = this.joining.get(game);
    if (pending !== undefined) {
      await pending;
      return false;
    }
    if (this.held.has(game) || this.remote.has(game)) return false;
    const decided = decide().finally(() => this.joining.delete(game));
    this.joining.set(game, decided);
    await decided;
    return true;
  }

  /**
   * The first holder here to want a game: the lease when it is free (the pool then observes it,
   * checking the holder's share), else the state from whoever holds it.
   */
  private async firstWant(
    game: GameNumber,
    holder: string,
    kept: boolean | undefined,
    resuming: boolean,
  ): Promise<void> {
    const { pool, store, leaseMs } = this.options;
    // Held before a restart: it may have ended meanwhile on another machine's watch, its end
    // stored and its lease given back. The lease statement itself refuses it then: a read first
    // could miss an end stored just after it, and FICS would be asked for a game that is over.
    // The relay tells by the players whether that end is its post's game.
    if (!(await store.lease([game], leaseMs, resuming)).has(game)) return this.subscribe(game, resuming);
    // Before it is held: the pool may observe it already (a follow), and none of its states may
    // be published without the carried lines.
    await this.carryOn(game);
    this.held.add(game);
    try {
      await pool.observeGame(game, holder, kept);
    } catch (error) {
      this.held.delete(game);
      await store.release(game).catch(() => undefined);
      // Held before a restart and over now: its end may have been stored just after the read above.
      const now = resuming ? await store.read(game).catch(() => null) : null;
      if (now === null || !now.snapshot.ended) throw error;
      await this.subscribe(game, true);
    }
  }

  /** Another process observes the game: from now on its state comes from PostgreSQL. */
  private async subscribe(game: GameNumber, resuming = false): Promise<void> {
    const { pool } = this.options;
    // Observed here already for a follow or a club (every machine sees a followed player's new
    // game): the lease holder observes it for the fleet, this machine lets it go.
    if (pool.snapshot(game) !== undefined)
      await pool.unobserve(game).catch((error: unknown) => this.warn('unobserve', game, error));
    this.remote.set(game, { ...UNREAD, resuming });
    await this.read(game);
  }

  /**
   * Renews this process's leases and takes over the games it wants whose holder stopped renewing,
   * as far as this machine's FICS logins have room for them.
   */
  private async tick(): Promise<void> {
    if (this.ticking || this.closed) return;
    this.ticking = true;
    const { store, leaseMs } = this.options;
    const startedAt = performance.now();
    try {
      const renewing = [...this.held].filter((game) => this.announced.get(game)?.ended !== true);
      if (renewing.length > 0) {
        const kept = await store.lease(renewing, leaseMs);
        // Not awaited: FICS answers must not hold up the next renewal (leases would expire meanwhile).
        for (const game of renewing) if (!kept.has(game)) void this.lost(game, 'renewing');
      }
      const orphans = [...this.remote]
        .filter(
          ([game, remote]) =>
            !remote.gone && remote.snapshot?.ended !== true && this.holderWithRoom(game) !== null,
        )
        .map(([game]) => game);
      if (orphans.length > 0) {
        const taken = await store.lease(orphans, leaseMs, true);
        for (const game of taken) void this.takeOver(game);
      }
    } catch (error) {
      this.warn('renew leases', null, error);
    } finally {
      this.ticking = false;
    }
    const tookMs = Math.round(performance.now() - startedAt);
    // Renewals this slow lose leases to other machines: the database is overloaded or far.
    if (tookMs > leaseMs / 3)
      this.options.logger.warn({ tookMs, leaseMs }, 'fleet: renewing leases was slow');
  }

  private holderWithRoom(game: GameNumber): string | null {
    for (const holder of this.wanted.get(game) ?? []) if (this.options.pool.hasRoom(holder)) return holder;
    return null;
  }

  /** The previous holder stopped renewing: observe the game here (the pool asks for its move list). */
  private async takeOver(game: GameNumber): Promise<void> {
    const holders = [...(this.wanted.get(game) ?? [])];
    if (!this.remote.delete(game) || holders.length === 0) {
      await this.options.store
        .release(game)
        .catch((error: unknown) => this.warn('release a lease', game, error));
      return;
    }
    this.held.add(game);
    this.options.logger.info({ game }, 'fleet: took over a game whose holder stopped renewing its lease');
    // Held already (renewed meanwhile); not observed here yet, so nothing is published before.
    await this.carryOn(game);
    try {
      for (const holder of holders) await this.options.pool.observeGame(game, holder, true);
    } catch (error) {
      this.warn('observe a game taken over', game, error);
      this.held.delete(game);
      // Over on FICS with no end published: nobody can observe it again; its state may still come.
      const gone = error instanceof FicsCommandError && error.code === 'noSuchGame';
      this.remote.set(game, { ...UNREAD, gone });
      await this.options.store.release(game).catch(() => undefined);
      void this.read(game);
    }
  }

  /**
   * A holder now: the game's list of lines goes on from its last stored state (this machine's FICS
   * connection hears only what is said from now on). Read after the lease is taken, so the old
   * holder can store no more lines meanwhile. A failed read, or a state this version cannot read,
   * starts a new list (the readers pass all of it on).
   */
  private async carryOn(game: GameNumber): Promise<void> {
    this.carried.delete(game);
    try {
      const last = await this.options.store.read(game);
      const carried = last === null ? null : carriedFrom(last.snapshot);
      if (carried !== null) this.carried.set(game, carried);
    } catch (error) {
      this.warn('carry the lines of the last stored state over', game, error);
    }
  }

  /** A held game's snapshot from the pool, its carried lines first. */
  private continued(snapshot: FicsSnapshot): FicsSnapshot {
    const carried = this.carried.get(snapshot.game);
    return carried === undefined ? snapshot : continueSaid(carried, snapshot);
  }

  /** Another process took the lease (this one was too late to renew): it observes the game now. */
  private async lost(game: GameNumber, when: 'renewing' | 'publishing'): Promise<void> {
    this.options.logger.warn({ game, when }, 'fleet: lease lost to another process; following its state');
    this.held.delete(game);
    this.outbox.delete(game);
    await this.options.pool.unobserve(game).catch(() => undefined);
    if (this.wanted.has(game)) await this.subscribe(game);
  }

  // ---- state: out (held games) and in (games held elsewhere) ---------------------------------------

  private fromPool(update: TrackerUpdate<FicsSnapshot>): void {
    if (update.type === 'needs' || update.type === 'undecoded') {
      this.emit('update', update);
      return;
    }
    const snapshot = this.continued(update.snapshot);
    const { game, ended } = snapshot;
    if (this.held.has(game)) this.send(snapshot);
    else if (ended && this.wanted.has(game)) void this.keepEnd(snapshot);
    // Held elsewhere: the state comes from its holder (this end too, once stored).
    if (this.remote.has(game)) return;
    this.announce(update.type, snapshot);
  }

  /**
   * A line heard on this machine's FICS logins: passed on here, and for a held game published
   * with the game's state (coalesced with its moves: only the latest state waits). A game held
   * elsewhere is not observed here; its lines come from its holder.
   */
  private saidInPool(said: SaidInGame): void {
    const game = said.game;
    if (!isFicsGame(game) || this.remote.has(game)) return;
    if (this.held.has(game)) {
      const now = this.options.pool.snapshot(game);
      if (now?.key === said.key) this.send(this.continued(now));
    }
    this.emit('said', said);
  }

  /** Publishes a held game's snapshot; while one is on its way, only the latest waits. */
  private send(snapshot: FicsSnapshot): void {
    let box = this.outbox.get(snapshot.game);
    if (box === undefined) this.outbox.set(snapshot.game, (box = { next: null, busy: false }));
    box.next = snapshot;
    if (!box.busy) void this.drain(snapshot.game, box);
  }

  private async drain(game: GameNumber, box: Outbox): Promise<void> {
    box.busy = true;
    let failures = 0;
    while (box.next !== null && !this.closed) {
      const snapshot = box.next;
      box.next = null;
      try {
        const seq = await this.options.store.publish(snapshot);
        failures = 0;
        if (seq !== null) {
          // Over: nobody needs to observe it again (a takeover skips ended games).
          if (snapshot.ended) await this.options.store.release(game);
          continue;
        }
        // The lease went to another process (this one was late to renew).
        if (snapshot.ended) await this.keepEnd(snapshot);
        if (this.held.has(game)) await this.lost(game, 'publishing');
        break;
      } catch (error) {
        this.warn('publish a game', game, error);
        box.next ??= snapshot;
        await new Promise((resolve) => setTimeout(resolve, backoffDelay(DEFAULT_BACKOFF, failures++)));
      }
    }
    box.busy = false;
    if (box.next === null && this.outbox.get(game) === box) this.outbox.delete(game);
  }

  /**
   * An end this pool saw after the game's lease went elsewhere: stored all the same, as the new
   * holder will find the game gone on FICS (publishEnd keeps it only for the same players).
   */
  private async keepEnd(snapshot: FicsSnapshot): Promise<void> {
    await this.options.store
      .publishEnd(snapshot)
      .catch((error: unknown) => this.warn('keep the end of a game', snapshot.game, error));
  }

  /** A notice from the channel: a game held elsewhere has a newer state. */
  private noticed(notice: FleetNotice): void {
    if (notice.server !== this.options.store.server) return;
    const remote = this.remote.get(notice.game);
    if (remote === undefined) return;
    remote.wanted = Math.max(remote.wanted, notice.seq);
    if (!remote.reading && remote.wanted > remote.seq) void this.read(notice.game);
  }

  /** Reads a game's state until it is as new as the newest notice (one read in flight per game). */
  private async read(game: GameNumber): Promise<void> {
    const remote = this.remote.get(game);
    if (remote === undefined || remote.reading) return;
    remote.reading = true;
    try {
      do {
        const row = await this.options.store.read(game);
        if (this.remote.get(game) !== remote || row === null) break;
        if (row.seq > remote.seq) {
          remote.seq = row.seq;
          const previous = remote.snapshot;
          const first = previous === undefined;
          // A state left by an earlier game under this number: the holder's first board comes next.
          if (first && row.snapshot.ended && !remote.resuming) continue;
          remote.snapshot = row.snapshot;
          const { snapshot } = row;
          // Before the state itself: an end after them must not overtake its game's last lines.
          for (const said of saidSince(previous, snapshot))
            this.emit('said', { game, key: snapshot.key, said });
          // An end read first reaches the caller as a snapshot, then as an end just after it.
          if (first && snapshot.ended) setImmediate(() => this.announce('ended', snapshot));
          else this.announce(snapshot.ended ? 'ended' : 'moved', snapshot);
        }
      } while (remote.wanted > remote.seq);
    } catch (error) {
      this.warn('read a game', game, error);
    } finally {
      remote.reading = false;
    }
  }

  /**
   * Tells the relay, as the pool would: a game first seen here is 'started', a game seen already
   * (observed again after a takeover, or read from another process) 'moved', an end once.
   */
  private announce(type: 'started' | 'moved' | 'ended', snapshot: FicsSnapshot): void {
    // Not the fleet's (a partner board, a followed game not posted): as the pool said.
    if (!this.wanted.has(snapshot.game)) {
      this.emit('update', { type, snapshot });
      return;
    }
    const key = gameKeyOf(snapshot);
    const known = this.announced.get(snapshot.game);
    const same = known?.key === key;
    if (same && known.ended) return;
    this.announced.set(snapshot.game, { key, ended: snapshot.ended });
    this.emit('update', { type: snapshot.ended ? 'ended' : same ? 'moved' : 'started', snapshot });
  }

  // ---- notices ---------------------------------------------------------------------------------

  /** LISTENs on the fleet's channel; after a failure, again with a back-off, and reads what it missed. */
  private async listen(): Promise<void> {
    const client = this.options.listener();
    client.on('notification', (message) => {
      if (message.channel !== FLEET_CHANNEL) return;
      const notice = parseNotice(message.payload);
      if (notice !== null) this.noticed(notice);
    });
    client.on('error', (error) => {
      this.warn('listen for notices', null, error);
      this.relisten(client);
    });
    client.on('end', () => this.relisten(client));
    await client.connect();
    await client.query(`LISTEN ${FLEET_CHANNEL}`);
    this.client = client;
    this.listenFailures = 0;
  }

  private relisten(client: pg.Client): void {
    if (this.closed || this.client !== client) return;
    this.client = null;
    client.end().catch(() => undefined);
    const retry = (): void => {
      if (this.closed) return;
      this.listen().then(
        () => {
          for (const game of this.remote.keys()) void this.read(game);
        },
        (error: unknown) => {
          this.warn('listen for notices', null, error);
          setTimeout(retry, backoffDelay(DEFAULT_BACKOFF, this.listenFailures++));
        },
      );
    };
    setTimeout(retry, backoffDelay(DEFAULT_BACKOFF, this.listenFailures++));
  }

  private warn(what: string, game: GameNumber | null, error: unknown): void {
    this.options.logger.warn({ game, error: errorMessage(error) }, `fleet: ${what} failed`);
  }
}
