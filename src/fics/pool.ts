// Every game the bot watches, over as many FICS connections as it takes (a login observes at most
// 30 games), behind one stream of tracker updates. The pool validates what users ask for, picks a
// connection for each game, answers the tracker's requests for move lists and boards, observes
// bughouse partner boards, and watches followed players for their next games.
import { EventEmitter } from 'node:events';
import packageJson from '../../package.json' with { type: 'json' };
import type { GameSnapshot } from '../game/snapshot.js';
import { GameTracker, type TrackerUpdate } from '../game/tracker.js';
import type { GameCreated, MoveList, ServerEvent } from '../protocol/events.js';
import type { FramingLimits } from '../protocol/framer.js';
import { DEFAULT_BACKOFF, type BackoffOptions } from './backoff.js';
import { systemClock, type Clock } from './clock.js';
import { ObserverConnection, type ConnectionState, type ReconnectReport } from './connection.js';
import { FicsCapacityError, FicsCommandError } from './errors.js';
import { filterGames, type GamesFilter, type GamesListRow } from './games-list.js';
import { silentLogger, type FicsLogger } from './logger.js';
import type { Credentials } from './login.js';
import {
  orThrow,
  parseGameNumber,
  parseHandle,
  parsePassword,
  type GameNumber,
  type Handle,
} from './validate.js';

export interface PoolOptions {
  /** FICS_HOST; freechess.org when omitted. */
  host?: string;
  /** FICS_PORT; 5000 when omitted. */
  port?: number;
  /** FICS_USER / FICS_PASSWORD: a registered account for the first connection; guests otherwise. */
  user?: string | null;
  password?: string | null;
  /** FICS_MAX_CONNECTIONS; 2 when omitted. */
  maxConnections?: number;
  /** Games per connection; FICS allows 30. */
  maxGamesPerConnection?: number;
  logger?: FicsLogger;
  clock?: Clock;
  backoff?: Partial<BackoffOptions>;
  random?: () => number;
  loginTimeoutMs?: number;
  commandTimeoutMs?: number;
  /** Idle time before a keep-alive command; FICS logs out after 60 idle minutes. */
  keepAliveMs?: number;
  /** Sent as `set interface`; `Kibitz <version>` when omitted. */
  interfaceName?: string;
  /** Observe the partner board of an observed bughouse game too (default true). */
  observePartners?: boolean;
  /** Failed first logins before `start()` gives up; unlimited when omitted. */
  startAttempts?: number;
  /** Line, reply and telnet subnegotiation size limits; FRAMING_LIMITS when omitted. */
  framing?: Partial<FramingLimits>;
  /** KIBITZ_MAX_PLIES: a game longer than this ends as not supported. */
  maxPlies?: number;
}

export interface PoolEvents {
  /** Every change of every observed game, in order. */
  update: [TrackerUpdate];
  state: [{ connection: string; state: ConnectionState }];
  reconnected: [ReconnectReport];
  /** Login failures and failed background requests (move lists, partner boards, followed games). */
  error: [Error];
}

export const FICS_DEFAULTS = {
  host: 'freechess.org',
  port: 5000,
  maxConnections: 2,
  maxGamesPerConnection: 30,
  loginTimeoutMs: 30_000,
  commandTimeoutMs: 30_000,
  // Raptor keeps alive after 50 idle minutes; a margin under FICS's 60.
  keepAliveMs: 45 * 60_000,
} as const;

export class FicsPool extends EventEmitter<PoolEvents> {
  private readonly connections: ObserverConnection[] = [];
  private readonly tracker: GameTracker;
  /** The connection whose events count for each game (a game observed twice is reported once). */
  private readonly owners = new Map<number, ObserverConnection>();
  private readonly followed = new Map<string, Handle>();
  /** Games (by snapshot key) whose partner board was asked for, so each is asked once. */
  private readonly partnersAsked = new Set<string>();
  /**
   * New games of followed players that found every connection full, oldest first: each is
   * observed when a game ends and frees a place, so a busy hour does not lose a follow's game.
   */
  private readonly waitingForRoom = new Map<number, GameCreated>();
  private readonly credentials: Credentials | null;
  private readonly settings: Required<
    Omit<PoolOptions, 'user' | 'password' | 'backoff' | 'startAttempts' | 'maxPlies'>
  > & {
    backoff: BackoffOptions;
    startAttempts: number | undefined;
  };
  private serial = 0;

  constructor(options: PoolOptions = {}) {
    super();
    const user = options.user ?? null;
    const password = options.password ?? null;
    if ((user === null) !== (password === null)) {
      throw new TypeError('FICS user and password go together: give both, or neither to log in as a guest.');
    }
    this.credentials =
      user === null
        ? null
        : { user: orThrow(parseHandle(user)), password: orThrow(parsePassword(password!)) };
    this.tracker = new GameTracker(options.maxPlies);
    this.settings = {
      host: options.host ?? FICS_DEFAULTS.host,
      port: options.port ?? FICS_DEFAULTS.port,
      maxConnections: options.maxConnections ?? FICS_DEFAULTS.maxConnections,
      maxGamesPerConnection: options.maxGamesPerConnection ?? FICS_DEFAULTS.maxGamesPerConnection,
      logger: options.logger ?? silentLogger,
      clock: options.clock ?? systemClock,
      backoff: { ...DEFAULT_BACKOFF, ...options.backoff },
      random: options.random ?? Math.random,
      loginTimeoutMs: options.loginTimeoutMs ?? FICS_DEFAULTS.loginTimeoutMs,
      commandTimeoutMs: options.commandTimeoutMs ?? FICS_DEFAULTS.commandTimeoutMs,
      keepAliveMs: options.keepAliveMs ?? FICS_DEFAULTS.keepAliveMs,
      interfaceName: options.interfaceName ?? `Kibitz ${packageJson.version}`,
      observePartners: options.observePartners ?? true,
      startAttempts: options.startAttempts,
      framing: options.framing ?? {},
    };
  }

  /** Opens the first connection; rejects on a login failure that retrying cannot fix. */
  async start(): Promise<void> {
    await this.open().start();
  }

  /** Observes a game by its FICS number; resolves with the number once observed. */
  async observeGame(input: unknown): Promise<number> {
    const game = orThrow(parseGameNumber(input));
    const holder = this.connections.find((c) => c.has(game));
    if (holder !== undefined) {
      // Observed or on its way: the same answer for every caller.
      await holder.observeGame(game);
      return game;
    }
    for (;;) {
      const connection = this.withRoom();
      try {
        await connection.observeGame(game);
        return game;
      } catch (error) {
        // Its server limit was lower than thought: the next connection gets the game.
        if (!(error instanceof FicsCommandError && error.code === 'observeLimit')) throw error;
      }
    }
  }

  /** Observes the game a player is playing now; resolves with its number. */
  async observePlayer(input: unknown): Promise<number> {
    const handle = orThrow(parseHandle(input));
    // Asking again for a game observed already would stop it on lasker (observe toggles there).
    const known = this.currentGameOf(handle);
    if (known !== null) return known;
    for (;;) {
      const connection = this.withRoom();
      try {
        return await connection.observePlayer(handle);
      } catch (error) {
        if (!(error instanceof FicsCommandError && error.code === 'observeLimit')) throw error;
      }
    }
  }

  async unobserve(input: unknown): Promise<void> {
    const game = orThrow(parseGameNumber(input));
    const holders = this.connections.filter((c) => c.has(game));
    this.owners.delete(game);
    const key = this.tracker.snapshot(game)?.key;
    if (key !== undefined) this.partnersAsked.delete(key);
    this.tracker.forget(game);
    await Promise.all(holders.map((c) => c.unobserve(game)));
    if (holders.length > 0) this.placeFreed();
  }

  /**
   * Watches a player: their current game now (if any) and every game they start later.
   * Resolves with the game observed now, or null when they are not playing.
   */
  async follow(input: unknown): Promise<number | null> {
    const handle = orThrow(parseHandle(input));
    this.followed.set(handle.toLowerCase(), handle);
    await this.watcher().setGameNotices(true);
    return this.observeFollowed(handle);
  }

  async unfollow(input: unknown): Promise<void> {
    const handle = orThrow(parseHandle(input));
    this.followed.delete(handle.toLowerCase());
    if (this.followed.size === 0 && this.connections.length > 0) await this.watcher().setGameNotices(false);
  }

  /** The games being played on the server, filtered. */
  async listGames(filter: GamesFilter = {}): Promise<GamesListRow[]> {
    if (filter.player !== undefined) orThrow(parseHandle(filter.player));
    const list = await this.watcher().listGames();
    return filterGames(list.rows, filter);
  }

  async moves(input: unknown): Promise<MoveList> {
    const game = orThrow(parseGameNumber(input));
    return this.ownerOf(game).moves(game);
  }

  async refresh(input: unknown): Promise<void> {
    const game = orThrow(parseGameNumber(input));
    await this.ownerOf(game).refresh(game);
  }

  snapshot(game: number): GameSnapshot | undefined {
    return this.tracker.snapshot(game);
  }

  games(): GameSnapshot[] {
    return this.tracker.games();
  }

  /** Connections and the games each holds, for status displays and tests. */
  status(): { name: string; state: ConnectionState; handle: string | null; games: number[] }[] {
    return this.connections.map((c) => ({
      name: c.name,
      state: c.state,
      handle: c.handle,
      games: c.games(),
    }));
  }

  close(): void {
    for (const connection of this.connections.splice(0)) connection.close();
    this.owners.clear();
  }

  /** The first usable connection with room for one more game, opening one if allowed. */
  private withRoom(): ObserverConnection {
    const usable = this.connections.filter((c) => c.state !== 'failed' && c.state !== 'closed');
    const room = usable.find((c) => c.load < c.capacity);
    if (room !== undefined) return room;
    if (usable.length >= this.settings.maxConnections) {
      throw new FicsCapacityError(usable.length, this.settings.maxGamesPerConnection);
    }
    const connection = this.open();
    connection.start().catch(() => undefined); // failures arrive as 'error' events
    return connection;
  }

  /** The connection that watches for followed players (and answers `games`). */
  private watcher(): ObserverConnection {
    const connection = this.connections.find((c) => c.state !== 'failed' && c.state !== 'closed');
    if (connection !== undefined) return connection;
    const opened = this.open();
    opened.start().catch(() => undefined);
    return opened;
  }

  private ownerOf(game: GameNumber): ObserverConnection {
    const owner = this.owners.get(game) ?? this.connections.find((c) => c.has(game));
    if (owner === undefined) {
      throw new FicsCommandError('refused', `moves ${game}`, `Kibitz is not observing game ${game}.`);
    }
    return owner;
  }

  private open(): ObserverConnection {
    const s = this.settings;
    const name = `fics#${++this.serial}`;
    const connection = new ObserverConnection({
      name,
      host: s.host,
      port: s.port,
      // One login per registered handle: a second one would kick the first out.
      credentials: this.connections.length === 0 ? this.credentials : null,
      interfaceName: s.interfaceName,
      logger: s.logger,
      clock: s.clock,
      backoff: s.backoff,
      random: s.random,
      maxGames: s.maxGamesPerConnection,
      loginTimeoutMs: s.loginTimeoutMs,
      commandTimeoutMs: s.commandTimeoutMs,
      keepAliveMs: s.keepAliveMs,
      startAttempts: s.startAttempts,
      framing: s.framing,
    });
    connection.on('event', (event) => this.route(connection, event));
    connection.on('gameCreated', (created) => this.created(created));
    connection.on('state', (state) => {
      if (state === 'failed') this.replaced(connection);
      this.emit('state', { connection: name, state });
    });
    connection.on('reconnected', (report) => {
      this.emit('reconnected', report);
      if (connection !== this.watcher()) return;
      for (const handle of this.followed.values()) {
        this.observeFollowed(handle).catch((error: Error) => this.background(`observe ${handle}`, error));
      }
    });
    connection.on('error', (error) => this.report(error));
    this.connections.push(connection);
    return connection;
  }

  /** A connection failed for good: its games are gone, and another one watches for followed players. */
  private replaced(connection: ObserverConnection): void {
    for (const [game, owner] of this.owners) if (owner === connection) this.owners.delete(game);
    if (this.followed.size === 0 || this.connections.every((c) => c.state === 'failed')) return;
    this.watcher()
      .setGameNotices(true)
      .catch((error: Error) => this.background('set gin 1', error));
  }

  private route(connection: ObserverConnection, event: ServerEvent): void {
    if ('game' in event && event.kind !== 'gameCreated' && event.game !== null) {
      const owner = this.owners.get(event.game);
      if (owner === undefined) this.owners.set(event.game, connection);
      else if (owner !== connection) {
        // Observed twice (a player's game found again elsewhere): keep one.
        if (event.kind === 'observing') {
          connection.unobserve(event.game as GameNumber).catch(() => undefined);
        }
        return;
      }
      if (event.kind === 'gameEnd' || event.kind === 'stoppedObserving') {
        this.owners.delete(event.game);
        // Once the connection has let the game go (it does so after telling us).
        queueMicrotask(() => this.placeFreed());
      }
    }
    for (const update of this.tracker.apply(event)) this.updated(update);
  }

  private updated(update: TrackerUpdate): void {
    this.emit('update', update);
    if (update.type === 'needs') {
      const owner = this.owners.get(update.game);
      if (owner === undefined) return;
      const game = update.game as GameNumber;
      const request = update.need === 'moves' ? owner.moves(game) : owner.refresh(game);
      request.catch((error: Error) => this.background(`${update.need} ${game}`, error));
      return;
    }
    if (update.type === 'undecoded') return;
    const { key, partnerGame: partner } = update.snapshot;
    if (update.type === 'ended') {
      this.partnersAsked.delete(key);
      return;
    }
    if (
      this.settings.observePartners &&
      partner !== null &&
      !this.partnersAsked.has(key) &&
      this.owners.has(update.snapshot.game)
    ) {
      this.partnersAsked.add(key);
      this.observeGame(partner).catch((error: Error) =>
        this.background(`observe partner game ${partner}`, error),
      );
    }
  }

  private created(created: GameCreated): void {
    // The number names a new game now: a game that waited under it is over.
    this.waitingForRoom.delete(created.game);
    const follows = [created.white, created.black].some((name) => this.followed.has(name.toLowerCase()));
    if (follows) this.observeFollowedGame(created);
  }

  private observeFollowedGame(created: GameCreated): void {
    this.observeGame(created.game).catch((error: Error) => {
      if (error instanceof FicsCapacityError) {
        this.waitingForRoom.set(created.game, created);
        this.settings.logger.info({ game: created.game }, 'followed game waits for a free FICS place');
      } else if (error instanceof FicsCommandError && error.code === 'noSuchGame') {
        this.settings.logger.info({ game: created.game }, 'followed game ended before a place came free');
        // The place is still free: the next waiting game may have it.
        this.placeFreed();
      } else this.background(`observe game ${created.game} of a followed player`, error);
    });
  }

  /** A game left a connection: the oldest followed game waiting for a place takes it. */
  private placeFreed(): void {
    const next = this.waitingForRoom.values().next();
    if (next.done === true) return;
    this.waitingForRoom.delete(next.value.game);
    this.observeFollowedGame(next.value);
  }

  /** The observed, unfinished game of a player, if any. */
  private currentGameOf(handle: Handle): number | null {
    const name = handle.toLowerCase();
    const playing = this.tracker
      .games()
      .find(
        (g) =>
          !g.ended &&
          this.owners.has(g.game) &&
          [g.white, g.black].some((player) => player.toLowerCase() === name),
      );
    return playing?.game ?? null;
  }

  private async observeFollowed(handle: Handle): Promise<number | null> {
    try {
      return await this.observePlayer(handle);
    } catch (error) {
      if (error instanceof FicsCommandError && ['notPlaying', 'notLoggedIn'].includes(error.code))
        return null;
      throw error;
    }
  }

  private background(what: string, error: Error): void {
    this.settings.logger.warn({ request: what, error: error.message }, 'FICS request failed');
    this.report(error);
  }

  /** 'error' events are for whoever listens; they are logged in any case. */
  private report(error: Error): void {
    if (this.listenerCount('error') > 0) this.emit('error', error);
  }
}
