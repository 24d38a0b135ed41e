// Every game the bot watches, over as many FICS connections as it takes (a login observes at most
// 30 games), behind one stream of tracker updates. The pool validates what users ask for, picks a
// connection for each game, answers the tracker's requests for move lists and boards, observes
// bughouse partner boards, and watches followed players for their next games.
import { EventEmitter } from 'node:events';
import packageJson from '../../package.json' with { type: 'json' };
import type { FicsSnapshot, GameSnapshot } from '../game/snapshot.js';
import type { GameId } from '../game/game-id.js';
import { GameTracker, type SaidInGame, type TrackerUpdate } from '../game/tracker.js';
import type { GameCreated, MoveList, ServerEvent } from '../protocol/events.js';
import type { FramingLimits } from '../protocol/framer.js';
import { DEFAULT_BACKOFF, type BackoffOptions } from '../backoff.js';
import { systemClock, type Clock } from './clock.js';
import { ObserverConnection, type ConnectionState, type ReconnectReport } from './connection.js';
import { GamesCache } from './games-cache.js';
import { LogWindow } from '../log-window.js';
import { FicsCapacityError, FicsCommandError, FicsShareError } from './errors.js';
import { bughousePartner, filterGames, type GamesFilter, type GamesListRow } from './games-list.js';
import { silentLogger, type FicsLogger } from './logger.js';
import type { Credentials } from './login.js';
import { DEFAULT_PACE, type PaceOptions } from './pacer.js';
import { Shares, type Reservation } from './shares.js';
import { orThrow, parseGameNumber, parseHandle, parsePassword } from './validate.js';
import type { GameNumber } from '../protocol/game-number.js';
import type { Handle } from '../protocol/handle.js';

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
  /**
   * Who wants the games of these followed players (the bot: the servers that follow them or
   * have them in a club). Each new game is observed for those with room in their share
   * (src/fics/shares.ts) and waits otherwise. Without it, followed games belong to nobody.
   */
  wantedBy?: (players: readonly string[]) => string[];
  /** A holder's own ceiling on games held (the bot: the server's live-game limit). */
  limitOf?: (holder: string) => number;
  /** How fast each connection sends commands (src/fics/pacer.ts); DEFAULT_PACE otherwise. */
  commandPace?: Partial<PaceOptions>;
  /** Line, reply and telnet subnegotiation size limits; FRAMING_LIMITS when omitted. */
  framing?: Partial<FramingLimits>;
  /** KIBITZ_MAX_PLIES: a game longer than this ends as not supported. */
  maxPlies?: number;
  /**
   * Observes a followed player's new game for its holders (their shares already claimed): several
   * machines observe it once, through the fleet (src/fleet). This pool observes it when omitted.
   */
  observeFollowed?: (game: GameNumber, holders: readonly string[]) => Promise<unknown>;
  /** How old the shared games list may grow before a keystroke asks again (GAMES_LIST_MAX_AGE_MS). */
  gamesListMaxAgeMs?: number;
}

export interface PoolEvents {
  /** Every change of every observed game, in order. */
  update: [TrackerUpdate<FicsSnapshot>];
  /** A kibitz or whisper in an observed game (`set kibitz 1`). */
  said: [SaidInGame];
  state: [{ connection: string; state: ConnectionState }];
  reconnected: [ReconnectReport];
  /** Login failures and failed background requests (move lists, partner boards, followed games). */
  error: [Error];
  /** A followed player's new game waits for a place (its holders are at their share, or FICS is full). */
  waiting: [{ created: GameCreated; holders: string[] }];
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
  private readonly owners = new Map<GameNumber, ObserverConnection>();
  private readonly followed = new Map<string, Handle>();
  /** Games (by snapshot key) whose partner board was asked for, so each is asked once. */
  private readonly partnersAsked = new Set<string>();
  /** Bughouse boards (by snapshot key) whose partner the server was asked to name, once each. */
  private readonly partnersSought = new Set<string>();
  /** Whether the server has `pobserve` (freechess.org does; lasker and FatICS do not); null untried. */
  private pobserve: boolean | null = null;
  /** Partner searches run one after the other: the board one finds must not search again. */
  private partnerSearches: Promise<void> = Promise.resolve();
  /**
   * New games of followed players that found no place (every connection full, or every holder
   * that wants them at its share), oldest first: a freed place goes to the one whose holder holds
   * least, so a busy hour does not lose a follow's game and no server takes every place.
   */
  private readonly waitingForRoom = new Map<GameNumber, Waiting>();
  private readonly shares: Shares;
  /** Observes by handle on their way, each with the place its holder reserved. */
  private readonly byHandle = new Set<{ holder: string; handle: string; place: Reservation }>();
  /** Followed games FICS said were over when observed (the newest GONE_KEPT). */
  private readonly gone = new Set<string>();
  private readonly credentials: Credentials | null;
  private readonly settings: Required<
    Omit<
      PoolOptions,
      | 'user'
      | 'password'
      | 'backoff'
      | 'startAttempts'
      | 'wantedBy'
      | 'limitOf'
      | 'commandPace'
      | 'maxPlies'
      | 'observeFollowed'
      | 'gamesListMaxAgeMs'
    >
  > & {
    pace: PaceOptions;
    wantedBy: PoolOptions['wantedBy'];
    observeFollowed: PoolOptions['observeFollowed'];
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
    this.tracker = new GameTracker({
      server: options.host ?? FICS_DEFAULTS.host,
      maxPlies: options.maxPlies,
      onSaid: (said) => this.emit('said', said),
    });
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
      wantedBy: options.wantedBy,
      observeFollowed: options.observeFollowed,
      pace: { ...DEFAULT_PACE, ...options.commandPace },
      framing: options.framing ?? {},
    };
    this.shares = new Shares(options.limitOf === undefined ? {} : { limitOf: options.limitOf });
    this.recentGames = new GamesCache({
      fetch: () => this.listGames(),
      now: () => this.settings.clock.now(),
      ...(options.gamesListMaxAgeMs === undefined ? {} : { maxAgeMs: options.gamesListMaxAgeMs }),
    });
  }

  /** Opens the first connection; rejects on a login failure that retrying cannot fix. */
  async start(): Promise<void> {
    await this.open().start();
  }

  /**
   * Observes a game by its FICS number; resolves with the number once observed. With a holder,
   * the game counts in the holder's share from this moment (checked and taken in one step, before
   * FICS is asked) and the claim is given back if the observe fails. `kept`: the holder had the
   * game before a restart, and takes it again whatever its share now.
   */
  async observeGame(input: GameNumber, holder?: string, kept = false): Promise<GameNumber> {
    const game = checkedGame(input);
    if (holder === undefined || this.shares.holds(holder, game)) return this.observeNumber(game);
    // The game of an observe by handle still on its way: its first board came before the answer.
    const snapshot = this.tracker.snapshot(game);
    const players =
      snapshot === undefined ? [] : [snapshot.white, snapshot.black].map((n) => n.toLowerCase());
    const asked = [...this.byHandle].find((p) => p.holder === holder && players.includes(p.handle));
    if (asked !== undefined) {
      asked.place.settle(game);
      return this.observeNumber(game);
    }
    if (!kept) this.checkShare(holder);
    this.shares.claim(holder, game);
    try {
      return await this.observeNumber(game);
    } catch (error) {
      this.shares.release(holder, game);
      throw error;
    }
  }

  private async observeNumber(game: GameNumber): Promise<GameNumber> {
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

  /** Observes the game a player is playing now; resolves with its number. A holder as above. */
  async observePlayer(input: Handle, holder?: string): Promise<GameNumber> {
    const handle = checkedHandle(input);
    if (holder === undefined) return this.observeHandle(handle);
    const known = this.currentGameOf(handle);
    if (known !== null && this.shares.holds(holder, known)) return known;
    this.checkShare(holder);
    const asked = { holder, handle: handle.toLowerCase(), place: this.shares.reserve(holder) };
    this.byHandle.add(asked);
    try {
      const game = await this.observeHandle(handle);
      asked.place.settle(game);
      return game;
    } catch (error) {
      asked.place.settle(null);
      throw error;
    } finally {
      this.byHandle.delete(asked);
    }
  }

  private async observeHandle(handle: Handle): Promise<GameNumber> {
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

  /**
   * With a holder: gives back its claim, and stops observing once no holder is left. Without:
   * stops observing for everyone.
   */
  async unobserve(input: GameNumber, holder?: string): Promise<void> {
    const game = checkedGame(input);
    if (holder !== undefined && this.shares.release(holder, game) > 0) {
      // Its share has room again: a game it waits for may take a free place.
      this.placeFreed();
      return;
    }
    this.shares.drop(game);
    const holders = this.connections.filter((c) => c.has(game));
    this.owners.delete(game);
    // A bughouse board's partner was observed for its posts: it goes too unless someone holds it.
    const partner = this.tracker.snapshot(game)?.partnerGame ?? null;
    const key = this.tracker.snapshot(game)?.key;
    if (key !== undefined) {
      this.partnersAsked.delete(key);
      this.partnersSought.delete(key);
    }
    this.tracker.forget(game);
    await Promise.all(holders.map((c) => c.unobserve(game)));
    if (holders.length > 0) this.placeFreed();
    if (partner !== null && this.shares.holders(partner).length === 0 && this.owners.has(partner)) {
      await this.unobserve(orThrow(parseGameNumber(partner)));
    }
  }

  /**
   * Watches a player: their current game now (if any) and every game they start later.
   * Resolves with the game observed now, or null when they are not playing. The current game is
   * held by `holder` when given (rejecting with FicsShareError past its share), else by whoever
   * `wantedBy` names and has room.
   */
  async follow(input: Handle, holder?: string): Promise<number | null> {
    return (await this.followPlayer(input, holder)).game;
  }

  /**
   * `follow`, telling also whether the player is logged in now: an offline player is followed
   * all the same, and their next game is posted.
   */
  async followPlayer(input: Handle, holder?: string): Promise<{ game: GameNumber | null; online: boolean }> {
    const handle = checkedHandle(input);
    await this.followLater(handle);
    return this.observeFollowed(handle, holder);
  }

  /**
   * Follows a player without looking for a game they play now (no `observe`): their next game
   * comes by its start notice. For many handles at once (a club's pairings).
   */
  async followLater(input: Handle): Promise<void> {
    const handle = checkedHandle(input);
    this.followed.set(handle.toLowerCase(), handle);
    await this.watcher().setGameNotices(true);
  }

  /** True when the holder may take one more game now (its share has room). */
  hasRoom(holder: string): boolean {
    return this.shares.hasRoom(holder, this.capacity(), this.waitingHolders());
  }

  async unfollow(input: Handle): Promise<void> {
    const handle = checkedHandle(input);
    this.followed.delete(handle.toLowerCase());
    if (this.followed.size === 0 && this.connections.length > 0) await this.watcher().setGameNotices(false);
  }

  /**
   * Followed games' notices (waiting for a place, over before one came free): one line each up to
   * ten a minute, then a count, since a hostile server can send any number of game-start notices.
   */
  private readonly noticeLog = new LogWindow(
    { now: () => this.settings.clock.now(), after: (ms, fn) => this.settings.clock.after(ms, fn) },
    { burst: 10, windowMs: 60_000 },
    (suppressed, windowMs) =>
      this.settings.logger.info(
        { suppressed, windowMs },
        'more followed-game notices; not logged one by one',
      ),
  );

  /**
   * The games being played, from a shared list at most a few seconds old (src/fics/games-cache.ts):
   * what autocompletes call, so keystrokes cost FICS at most one `games` every few seconds.
   */
  readonly recentGames: GamesCache;

  /** The games being played on the server, filtered. */
  async listGames(filter: GamesFilter = {}): Promise<GamesListRow[]> {
    if (filter.player !== undefined) checkedHandle(filter.player);
    const list = await this.watcher().listGames();
    return filterGames(list.rows, filter);
  }

  async moves(input: GameNumber): Promise<MoveList> {
    const game = checkedGame(input);
    return this.ownerOf(game).moves(game);
  }

  async refresh(input: GameNumber): Promise<void> {
    const game = checkedGame(input);
    await this.ownerOf(game).refresh(game);
  }

  snapshot(game: GameId): FicsSnapshot | undefined {
    return this.tracker.snapshot(game);
  }

  games(): GameSnapshot[] {
    return this.tracker.games();
  }

  /** Connections and the games each holds, for status displays and tests. */
  status(): { name: string; state: ConnectionState; handle: string | null; games: GameNumber[] }[] {
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

  /** Games every connection the pool may open could observe (servers may have taught lower limits). */
  private capacity(): number {
    const usable = this.connections.filter((c) => c.state !== 'failed' && c.state !== 'closed');
    const unopened = Math.max(0, this.settings.maxConnections - usable.length);
    return usable.reduce((sum, c) => sum + c.capacity, 0) + unopened * this.settings.maxGamesPerConnection;
  }

  /** Whether one more game fits on some connection (open or still to open). */
  private placeFree(): boolean {
    const usable = this.connections.filter((c) => c.state !== 'failed' && c.state !== 'closed');
    return usable.length < this.settings.maxConnections || usable.some((c) => c.load < c.capacity);
  }

  /** Holders with a followed game waiting for a place. */
  waitingHolders(): string[] {
    return [...this.waitingForRoom.values()].flatMap((w) => w.holders ?? []);
  }

  private checkShare(holder: string): void {
    const capacity = this.capacity();
    const waiting = this.waitingHolders();
    if (this.shares.hasRoom(holder, capacity, waiting)) return;
    throw new FicsShareError(
      this.shares.holdings(holder),
      this.shares.limit(holder, capacity, waiting),
      capacity,
    );
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
      pace: s.pace,
      framing: s.framing,
      identify: (game) => {
        const snapshot = this.tracker.snapshot(game);
        return snapshot === undefined ? undefined : `${snapshot.white} ${snapshot.black}`;
      },
    });
    connection.on('event', (event) => this.route(connection, event));
    connection.on('gameCreated', (created) => this.created(created));
    connection.on('gameEnded', (end) => {
      // A followed game that waited for a place is over: it waits no more.
      const waiting = this.waitingForRoom.get(end.game);
      if (waiting !== undefined && (end.white === null || end.white === waiting.created.white))
        this.waitingForRoom.delete(end.game);
    });
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
          connection.unobserve(event.game).catch(() => undefined);
        }
        return;
      }
      if (event.kind === 'gameEnd' || event.kind === 'stoppedObserving') {
        this.owners.delete(event.game);
        this.shares.drop(event.game);
        // Once the connection has let the game go (it does so after telling us).
        queueMicrotask(() => this.placeFreed());
      }
    }
    for (const update of this.tracker.apply(event)) this.updated(update);
  }

  private updated(update: TrackerUpdate<FicsSnapshot>): void {
    this.emit('update', update);
    if (update.type === 'needs') {
      const owner = this.owners.get(update.game);
      if (owner === undefined) return;
      const { game } = update;
      const request = update.need === 'moves' ? owner.moves(game) : owner.refresh(game);
      request.catch((error: Error) => this.background(`${update.need} ${game}`, error));
      return;
    }
    if (update.type === 'undecoded') return;
    const { key, partnerGame: partner } = update.snapshot;
    if (update.type === 'ended' && this.tracker.cutShort(update.snapshot.game))
      this.letGo(update.snapshot.game);
    if (update.type === 'ended' && this.tracker.replaced(update.snapshot))
      this.dropReused(update.snapshot.game);
    if (update.type === 'ended') {
      this.partnersAsked.delete(key);
      this.partnersSought.delete(key);
      return;
    }
    if (
      this.settings.observePartners &&
      partner === null &&
      update.snapshot.variant === 'bughouse' &&
      !this.partnersSought.has(key) &&
      this.owners.has(update.snapshot.game)
    ) {
      this.partnersSought.add(key);
      const { game, white } = update.snapshot;
      this.partnerSearches = this.partnerSearches
        .then(() => this.findPartner(game, white))
        .catch((error: Error) => this.background(`find the partner board of game ${game}`, error));
    }
    if (
      this.settings.observePartners &&
      partner !== null &&
      !this.partnersAsked.has(key) &&
      this.owners.has(update.snapshot.game)
    ) {
      this.partnersAsked.add(key);
      // A number from the server: checked here, and a bad one reported like a failed observe.
      const partnerGame = parseGameNumber(partner);
      if (!partnerGame.ok) this.background(`observe partner game ${partner}`, partnerGame.error);
      else
        this.observeGame(partnerGame.value).catch((error: Error) =>
          this.background(`observe partner game ${partner}`, error),
        );
    }
  }

  /**
   * Stops the server sending a game Kibitz ended itself (past KIBITZ_MAX_PLIES) and frees its
   * place; its snapshot and claims stay until its posts let it go, as after any end.
   */
  private letGo(game: GameNumber): void {
    const owner = this.owners.get(game);
    if (owner === undefined) return;
    owner
      .unobserve(game)
      .then(() => this.placeFreed())
      .catch((error: Error) => this.background(`unobserve game ${game} ended for its length`, error));
  }

  /**
   * The number of an observed game now shows other players (a server restart gave it away while
   * Kibitz was not connected): nobody asked for that game, so it is let go like any unobserved
   * game (its claims, place and state; its partner board too when nobody holds it).
   */
  private dropReused(game: GameNumber): void {
    this.unobserve(game).catch((error: Error) =>
      this.background(`unobserve game ${game} reused by other players`, error),
    );
  }

  /**
   * Asks the server which board is the partner of a bughouse board, with what it offers:
   * `pobserve <white>` (which observes it too), else the `games` list. Failing both, the tracker
   * still pairs the boards from their captures and passed pieces.
   */
  private async findPartner(game: GameNumber, white: string): Promise<void> {
    const owner = this.owners.get(game);
    const handle = parseHandle(white);
    if (owner === undefined || !handle.ok || this.tracker.snapshot(game)?.partnerGame !== null) return;
    if (this.pobserve !== false) {
      try {
        const partner = await owner.observePlayer(handle.value, true);
        this.pobserve = true;
        this.pairBoards(game, partner);
        return;
      } catch (error) {
        if (!(error instanceof FicsCommandError && error.code === 'unknownCommand')) throw error;
        this.pobserve = false;
      }
    }
    const partner = bughousePartner((await this.watcher().listGames()).rows, game);
    if (partner !== null && this.tracker.snapshot(game)?.partnerGame === null) this.pairBoards(game, partner);
  }

  private pairBoards(a: GameNumber, b: GameNumber): void {
    for (const update of this.tracker.pair(a, b)) this.updated(update);
  }

  private created(created: GameCreated): void {
    const game = created.game;
    const waiting = this.waitingForRoom.get(game);
    // The same notice again (a server repeating itself): one observe is enough.
    if (waiting !== undefined && sameGame(waiting.created, created)) return;
    // The number names a new game now: a game that waited under it is over.
    this.waitingForRoom.delete(game);
    const players = [created.white, created.black];
    if (!players.some((name) => this.followed.has(name.toLowerCase()))) return;
    if (this.connections.some((c) => c.has(game))) return;
    // Refused as over already: a server repeating the notice gets no second observe.
    if (this.gone.has(gameKey(created))) return;
    const holders = this.settings.wantedBy?.(players) ?? null;
    if (holders !== null && holders.length === 0) return;
    // A player plays one game at a time: an older game of theirs still waiting is over.
    const names = new Set(players.map((name) => name.toLowerCase()));
    for (const [number, entry] of this.waitingForRoom) {
      if ([entry.created.white, entry.created.black].some((name) => names.has(name.toLowerCase())))
        this.waitingForRoom.delete(number);
    }
    this.waitingForRoom.set(game, { created, holders });
    this.placeFreed();
    if (!this.waitingForRoom.has(game)) return;
    this.notice({ game, holders }, 'followed game waits for a free FICS place');
    this.emit('waiting', { created, holders: holders ?? [] });
  }

  /**
   * A place may be free: waiting followed games take free places, each going to the game whose
   * holder with room holds least (the oldest game on a tie).
   */
  private placeFreed(): void {
    while (this.placeFree()) {
      const next = this.nextWaiting();
      if (next === null) return;
      this.waitingForRoom.delete(next.entry.created.game);
      this.observeWaiting(next.entry, next.holders);
    }
  }

  private nextWaiting(): { entry: Waiting; holders: string[] } | null {
    const capacity = this.capacity();
    const waiting = this.waitingHolders();
    let best: { entry: Waiting; holders: string[]; least: number } | null = null;
    for (const entry of this.waitingForRoom.values()) {
      if (entry.holders === null) return { entry, holders: [] };
      const holders = entry.holders.filter((h) => this.shares.hasRoom(h, capacity, waiting));
      if (holders.length === 0) continue;
      const least = Math.min(...holders.map((h) => this.shares.holdings(h)));
      if (best === null || least < best.least) best = { entry, holders, least };
    }
    return best;
  }

  private observeWaiting(entry: Waiting, holders: string[]): void {
    const { game } = entry.created;
    for (const holder of holders) this.shares.claim(holder, game);
    const observe = this.settings.observeFollowed ?? ((number: GameNumber) => this.observeNumber(number));
    observe(game, holders).then(
      () => {
        // Observed by another machine of the fleet: nothing of it is held here.
        if (!this.connections.some((c) => c.has(game)))
          for (const holder of holders) this.shares.release(holder, game);
      },
      (error: Error) => this.notObserved(entry, holders, error),
    );
  }

  private notice(fields: object, message: string): void {
    if (this.noticeLog.admit()) this.settings.logger.info(fields, message);
  }

  /** A followed game's observe failed: it waits for room again, or is over, or the error is told. */
  private notObserved(entry: Waiting, holders: string[], error: Error): void {
    const { game } = entry.created;
    for (const holder of holders) this.shares.release(holder, game);
    if (error instanceof FicsCapacityError) {
      this.waitingForRoom.set(game, entry);
      this.notice({ game }, 'followed game waits for a free FICS place');
    } else if (error instanceof FicsCommandError && error.code === 'noSuchGame') {
      this.notice({ game }, 'followed game ended before a place came free');
      this.gone.add(gameKey(entry.created));
      if (this.gone.size > GONE_KEPT) this.gone.delete(this.gone.values().next().value!);
      // The place is still free: the next waiting game may have it.
      this.placeFreed();
    } else this.background(`observe game ${game} of a followed player`, error);
  }

  /** The observed, unfinished game of a player, if any. */
  private currentGameOf(handle: Handle): GameNumber | null {
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

  /**
   * A followed player's game now, if any, held by `holder` or else by whoever `wantedBy` names
   * and has room; an offline (or guest no longer known) player has none.
   */
  private async observeFollowed(
    handle: Handle,
    holder?: string,
  ): Promise<{ game: GameNumber | null; online: boolean }> {
    try {
      if (holder !== undefined || this.settings.wantedBy === undefined) {
        return { game: await this.observePlayer(handle, holder), online: true };
      }
      const holders = this.settings.wantedBy([handle]).filter((h) => this.hasRoom(h));
      if (holders.length === 0) return { game: null, online: true };
      const game = await this.observePlayer(handle, holders[0]);
      for (const other of holders.slice(1)) this.shares.claim(other, game);
      return { game, online: true };
    } catch (error) {
      if (!(error instanceof FicsCommandError)) throw error;
      if (error.code === 'notPlaying') return { game: null, online: true };
      // A guest exists only while logged in: lasker says "No user named ..." once one has left.
      if (error.code === 'notLoggedIn' || error.code === 'noSuchPlayer') return { game: null, online: false };
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

/** A followed game waiting for a place, and who wants it (null: nobody in particular). */
interface Waiting {
  created: GameCreated;
  holders: string[] | null;
}

/** Followed games remembered as over: enough for a burst of repeated notices, and bounded. */
const GONE_KEPT = 1_000;

function gameKey(created: GameCreated): string {
  return `${created.game} ${created.white} ${created.black}`;
}

function sameGame(a: GameCreated, b: GameCreated): boolean {
  return a.white === b.white && a.black === b.black;
}

/**
 * Callers parse user and server text at their edge and pass branded values; each is checked again
 * here all the same, because it ends in FICS command text and a cast elsewhere must not reach the
 * wire.
 */
function checkedGame(game: GameNumber): GameNumber {
  return orThrow(parseGameNumber(game));
}

function checkedHandle(handle: Handle): Handle {
  return orThrow(parseHandle(handle));
}
