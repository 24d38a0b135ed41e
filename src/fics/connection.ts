// One long-lived observer connection: it remembers which games it should be observing, and
// whenever its session drops (network, server restart, idle logout) it logs in again with
// back-off, observes those games again and asks each one's move list, so no move is lost across
// the gap. It forwards only the events of its own games.
import { EventEmitter } from 'node:events';
import type { GameCreated, GameEnd, MoveList, ServerEvent } from '../protocol/events.js';
import { backoffDelay, type BackoffOptions } from '../backoff.js';
import type { Timer } from './clock.js';
import * as requests from './requests.js';
import { FicsCommandError, FicsLoginError } from './errors.js';
import type { GamesList } from './games-list.js';
import { SkippedLineLog } from './logger.js';
import { FicsSession, type SessionOptions } from './session.js';
import type { GameNumber } from '../protocol/game-number.js';
import type { Handle } from '../protocol/handle.js';

/** A session's settings (server, login, timeouts) plus what reconnecting needs. */
export interface ConnectionOptions extends Omit<SessionOptions, 'onEvent' | 'onClose' | 'skippedLines'> {
  /** For log lines (`fics#1`). */
  name: string;
  backoff: BackoffOptions;
  /** [0, 1) source for the back-off jitter. */
  random: () => number;
  /** Games one login may observe (FICS allows 30). */
  maxGames: number;
  /** Failed first logins before `start()` gives up; unlimited when omitted. */
  startAttempts?: number;
  /**
   * Which game a number shows (its players), where known: a number restored after a reconnect
   * that shows other players than before is reported lost, not restored.
   */
  identify?(game: GameNumber): string | undefined;
}

export type ConnectionState = 'connecting' | 'online' | 'reconnecting' | 'failed' | 'closed';

/** What a reconnection cost, for the log and for the operator. */
export interface ReconnectReport {
  name: string;
  /** From the drop to logged in again, ms. */
  downMs: number;
  /** From the drop to every game observed again and its move list merged, ms. */
  reconciledMs: number;
  /** Login attempts it took. */
  attempts: number;
  games: GameNumber[];
  /** Games that ended while the connection was down. */
  lost: GameNumber[];
}

export interface ConnectionEvents {
  /** Events of games this connection observes, creation notices and undecodable lines, in order. */
  event: [ServerEvent];
  /** A game was created on the server (`set gin 1`). */
  gameCreated: [GameCreated];
  /** A game this connection does not observe ended (`set gin 1`). */
  gameEnded: [GameEnd];
  state: [ConnectionState];
  reconnected: [ReconnectReport];
  /** A login failed (the connection retries unless the error is permanent). */
  error: [Error];
}

interface Entry {
  game: GameNumber;
  /** Observed on the current session. */
  observing: boolean;
  /** Observed at some time (so a later "no such game" means it ended meanwhile). */
  seen: boolean;
  waiters: { resolve(): void; reject(error: Error): void }[];
}

export class ObserverConnection extends EventEmitter<ConnectionEvents> {
  state: ConnectionState = 'connecting';
  private session: FicsSession | null = null;
  private readonly entries = new Map<GameNumber, Entry>();
  /** Observe-by-handle requests in flight: they count against the limit until answered. */
  private reserved = 0;
  private maxGames: number;
  private notices = false;
  private readonly movesInFlight = new Map<number, Promise<MoveList>>();
  /**
   * Games whose `moves` went out, oldest first. lasker's list names no game: it answers the
   * oldest. Kept by hand, not read off movesInFlight, whose entries leave a tick late: two lists
   * in one read would both go to the first game.
   */
  private readonly listsAwaited: GameNumber[] = [];
  private retryTimer: Timer | null = null;
  private attempts = 0;
  private wasOnline = false;
  private droppedAt: number | null = null;
  private onlineWaiters: { resolve(): void; reject(error: Error): void }[] = [];
  /** One rate limit for the skipped lines of every session, so reconnecting does not reset it. */
  private readonly skippedLines: SkippedLineLog;
  /** Interface variables the server refused, not asked again after a reconnect. */
  private readonly refusedSettings = new Set<string>();

  constructor(private readonly options: ConnectionOptions) {
    super();
    this.maxGames = options.maxGames;
    this.skippedLines = new SkippedLineLog(options.logger, options.clock);
  }

  get name(): string {
    return this.options.name;
  }

  get handle(): string | null {
    return this.session?.handle ?? null;
  }

  /** Games observed or about to be. */
  get load(): number {
    return this.entries.size + this.reserved;
  }

  get capacity(): number {
    return this.maxGames;
  }

  /** Game numbers this connection observes (or will again after a reconnect). */
  games(): GameNumber[] {
    return [...this.entries.keys()];
  }

  has(game: GameNumber): boolean {
    return this.entries.has(game);
  }

  /** Logs in. Resolves once online; rejects on a permanent login failure or after `startAttempts`. */
  start(): Promise<void> {
    const online = this.whenOnline();
    void this.attempt();
    return online;
  }

  /** Observes a game, now or as soon as the connection is back; resolves when observed. */
  observeGame(game: GameNumber): Promise<void> {
    const known = this.entries.get(game);
    if (known?.observing) return Promise.resolve();
    if (known === undefined && this.load >= this.maxGames)
      return Promise.reject(this.limitError(`observe ${game}`));
    const entry = known ?? { game, observing: false, seen: false, waiters: [] };
    this.entries.set(game, entry);
    const done = new Promise<void>((resolve, reject) => entry.waiters.push({ resolve, reject }));
    if (known === undefined && this.session !== null) void this.observe(this.session, entry);
    return done;
  }

  /**
   * Observes the game a player is playing now (or with `partner`, the other board of their
   * bughouse game); resolves with its number.
   */
  async observePlayer(handle: Handle, partner = false): Promise<GameNumber> {
    if (this.load >= this.maxGames) throw this.limitError(`observe ${handle}`);
    this.reserved++;
    try {
      const session = await this.online();
      const observing = new Set([...this.entries.values()].filter((e) => e.observing).map((e) => e.game));
      const { game, toggledOff } = await session.run(requests.observePlayer(handle, observing, partner));
      if (toggledOff) await session.run(requests.observeGame(game));
      this.observed(game);
      return game;
    } catch (error) {
      if (error instanceof FicsCommandError && error.code === 'observeLimit') this.learnLimit();
      throw error;
    } finally {
      this.reserved--;
    }
  }

  /** Stops observing (and forgets) a game. */
  async unobserve(game: GameNumber): Promise<void> {
    const entry = this.entries.get(game);
    if (entry === undefined) return;
    this.entries.delete(game);
    this.settle(entry, new FicsCommandError('refused', `observe ${game}`, `game ${game} was unobserved`));
    if (this.session !== null && entry.observing) await this.session.run(requests.unobserve(game));
  }

  /** The move list of an observed game; concurrent asks for one game share one request. */
  moves(game: GameNumber): Promise<MoveList> {
    return this.shareMoves(game, this.online());
  }

  private shareMoves(game: GameNumber, via: FicsSession | Promise<FicsSession>): Promise<MoveList> {
    const inFlight = this.movesInFlight.get(game);
    if (inFlight !== undefined) return inFlight;
    const ask = (session: FicsSession): Promise<MoveList> => {
      this.listsAwaited.push(game);
      return session.run(requests.moves(game)).finally(() => this.listArrived(game));
    };
    // A session at hand is asked now, so that the command follows the one just written.
    const request = (via instanceof Promise ? via.then(ask) : ask(via)).finally(() => {
      if (this.movesInFlight.get(game) === request) this.movesInFlight.delete(game);
    });
    this.movesInFlight.set(game, request);
    return request;
  }

  /** Takes a game off the lists awaited (its list came, or its `moves` failed). */
  private listArrived(game: GameNumber): void {
    const at = this.listsAwaited.indexOf(game);
    if (at >= 0) this.listsAwaited.splice(at, 1);
  }

  async refresh(game: GameNumber): Promise<void> {
    await (await this.online()).run(requests.refresh(game));
  }

  async listGames(): Promise<GamesList> {
    const list = await (await this.online()).run(requests.games());
    for (const line of list.skipped) {
      this.skippedLines.skipped({
        from: this.name,
        kind: 'games',
        reason: 'not a row of the games list',
        line,
      });
    }
    return list;
  }

  /** Creation and result notices for every game on the server (kept across reconnects). */
  async setGameNotices(on: boolean): Promise<void> {
    // Sent once: the setting lasts the session, and a new session gets it at login.
    if (on === this.notices) return;
    this.notices = on;
    if (this.session !== null) await this.session.run(requests.gameNotices(on));
  }

  close(): void {
    if (this.state === 'closed') return;
    this.retryTimer?.cancel();
    this.retryTimer = null;
    const session = this.session;
    this.session = null;
    this.setState('closed');
    session?.close();
    const closed = new FicsCommandError('closed', '', 'the FICS connection was closed');
    for (const entry of this.entries.values()) this.settle(entry, closed);
    this.entries.clear();
    for (const waiter of this.onlineWaiters.splice(0)) waiter.reject(closed);
  }

  private get closedByUser(): boolean {
    return this.state === 'closed';
  }

  private async attempt(): Promise<void> {
    this.retryTimer = null;
    if (this.closedByUser) return;
    const { logger, name } = this.options;
    this.attempts++;
    let session: FicsSession;
    try {
      session = await FicsSession.open({
        ...this.options,
        skippedLines: this.skippedLines,
        refusedSettings: this.refusedSettings,
        onEvent: (event) => this.receive(event),
        onClose: (error) => this.dropped(session, error),
      });
    } catch (error) {
      this.failed(error as Error);
      return;
    }
    // close() may have been called while the login ran.
    if (this.closedByUser) {
      session.close();
      return;
    }
    const attempts = this.attempts;
    this.attempts = 0;
    this.session = session;
    this.wasOnline = true;
    this.setState('online');
    for (const waiter of this.onlineWaiters.splice(0)) waiter.resolve();
    const droppedAt = this.droppedAt;
    this.droppedAt = null;
    const onlineAt = this.options.clock.now();
    const { games, lost } = await this.restore(session);
    if (droppedAt !== null) {
      const report: ReconnectReport = {
        name,
        downMs: onlineAt - droppedAt,
        reconciledMs: this.options.clock.now() - droppedAt,
        attempts,
        games,
        lost,
      };
      logger.info({ ...report }, 'FICS connection restored');
      this.emit('reconnected', report);
    }
  }

  /** After a login: notices on again, every wanted game observed again and its history merged. */
  private async restore(session: FicsSession): Promise<{ games: GameNumber[]; lost: GameNumber[] }> {
    if (this.notices) await session.run(requests.gameNotices(true)).catch(() => undefined);
    const wanted = [...this.entries.values()];
    const before = wanted.map((entry) => this.options.identify?.(entry.game));
    // Each observe brings its game's move list too: the boards seen now may be moves ahead of
    // what we had, and the lists fill the gap.
    const results = await Promise.all(wanted.map((entry) => this.observe(session, entry)));
    // A number that now shows other players (a server restart gave it away) lost its game.
    const other = (i: number): boolean =>
      before[i] !== undefined && this.options.identify?.(wanted[i]!.game) !== before[i];
    const games = wanted.filter((_, i) => results[i] === 'observed' && !other(i)).map((entry) => entry.game);
    const lost = wanted
      .filter((_, i) => results[i] === 'lost' || (results[i] === 'observed' && other(i)))
      .map((entry) => entry.game);
    return { games, lost };
  }

  private async observe(
    session: FicsSession,
    entry: Entry,
  ): Promise<'observed' | 'lost' | 'refused' | 'retry'> {
    const { game } = entry;
    const command = requests.observeGame(game);
    const observing = session.run(command);
    // The move list is asked in the same breath, not after the board: the server answers both at
    // one moment of the game. A game that ended between the board and a later ask would have
    // lost its history, since FICS answers no move list once a game is over.
    const history = this.shareMoves(game, session).catch(() => null);
    try {
      if ((await observing).toggledOff) await session.run(command);
      this.observed(entry.game);
      // Reconnects report a game reconciled once its history is in.
      await history;
      return 'observed';
    } catch (caught) {
      const error = caught as Error;
      const code = error instanceof FicsCommandError ? error.code : 'refused';
      // Dropped before the answer: it is observed again after the reconnect.
      if (code === 'closed') return 'retry';
      // Its "You are now observing" line may still have come and settled it.
      if (entry.observing) return 'observed';
      if (this.entries.get(entry.game) === entry) this.entries.delete(entry.game);
      if (code === 'observeLimit') this.learnLimit();
      this.settle(entry, error);
      if (code === 'noSuchGame' && entry.seen) {
        // It ended while we were away: say so rather than leave it hanging.
        this.emit('event', endedWhileAway(entry.game));
        return 'lost';
      }
      return 'refused';
    }
  }

  private observed(game: GameNumber): void {
    const entry = this.entries.get(game) ?? { game, observing: false, seen: false, waiters: [] };
    this.entries.set(game, entry);
    entry.observing = true;
    entry.seen = true;
    this.settle(entry, null);
  }

  private settle(entry: Entry, error: Error | null): void {
    for (const waiter of entry.waiters.splice(0)) {
      if (error === null) waiter.resolve();
      else waiter.reject(error);
    }
  }

  private receive(event: ServerEvent): void {
    switch (event.kind) {
      case 'other':
        return;
      case 'undecoded':
        this.skippedLines.skipped({
          from: this.name,
          kind: event.lineKind,
          reason: event.reason,
          line: event.line,
        });
        this.emit('event', event);
        return;
      case 'observing':
        this.observed(event.game);
        this.emit('event', event);
        return;
      case 'gameCreated':
        this.emit('gameCreated', event);
        // The tracker learns from it that a number it knows now names a new game.
        this.emit('event', event);
        return;
      case 'moveList': {
        // lasker's list names no game: it answers the oldest `moves` still waiting.
        const game = event.game ?? this.listsAwaited[0] ?? null;
        if (game !== null) this.listArrived(game);
        // Only for a game this connection observes: FICS lists any game, and the list asked along
        // with an observe the server refused (its limit) belongs to no game of ours.
        if (game !== null && this.entries.get(game)?.observing === true)
          this.emit('event', { ...event, game });
        return;
      }
      case 'gameEnd':
      case 'stoppedObserving':
        if (!this.entries.has(event.game)) {
          if (event.kind === 'gameEnd') this.emit('gameEnded', event);
          return;
        }
        this.emit('event', event);
        this.entries.delete(event.game);
        return;
      default:
        if (this.entries.has(event.game)) this.emit('event', event);
    }
  }

  private dropped(session: FicsSession, error: Error | null): void {
    if (this.session !== session || this.state === 'closed') return;
    this.session = null;
    this.droppedAt = this.options.clock.now();
    for (const entry of this.entries.values()) entry.observing = false;
    this.options.logger.warn(
      { connection: this.options.name, reason: error?.message ?? 'closed', games: this.games() },
      'FICS connection lost; reconnecting',
    );
    this.setState('reconnecting');
    this.schedule();
  }

  private failed(error: Error): void {
    const { logger, name, startAttempts } = this.options;
    // A login cut short by close() (shutting down) is no failure.
    if (this.closedByUser) return;
    if (this.listenerCount('error') > 0) this.emit('error', error);
    // Before the first login a permanent failure (bad password, guests refused) ends it: someone
    // must change the configuration. Once it has worked, it keeps trying, as after any drop.
    const starting = !this.wasOnline;
    const permanent = error instanceof FicsLoginError && error.permanent;
    const givenUp = starting && startAttempts !== undefined && this.attempts >= startAttempts;
    if ((starting && permanent) || givenUp) {
      logger.error({ connection: name, error: error.message }, 'FICS login failed; not trying again');
      this.setState('failed');
      for (const entry of this.entries.values()) this.settle(entry, error);
      this.entries.clear();
      for (const waiter of this.onlineWaiters.splice(0)) waiter.reject(error);
      return;
    }
    // Expected while FICS is down: one line per attempt, no stack, and when the next one is.
    const retryInMs = this.schedule();
    logger.warn(
      { connection: name, error: error.message, attempt: this.attempts, retryInMs },
      `FICS login failed; trying again in ${(retryInMs / 1000).toFixed(1)} s`,
    );
  }

  /** Arms the next attempt; returns its delay. */
  private schedule(): number {
    const delay = backoffDelay(this.options.backoff, this.attempts, this.options.random);
    this.retryTimer = this.options.clock.after(delay, () => void this.attempt());
    return delay;
  }

  private online(): Promise<FicsSession> {
    if (this.session !== null) return Promise.resolve(this.session);
    return this.whenOnline().then(() => this.online());
  }

  private whenOnline(): Promise<void> {
    if (this.state === 'closed' || this.state === 'failed') {
      return Promise.reject(new FicsCommandError('closed', '', 'the FICS connection is closed'));
    }
    return new Promise<void>((resolve, reject) => this.onlineWaiters.push({ resolve, reject }));
  }

  private learnLimit(): void {
    // The server's limit is lower than we thought: it is what we observe now.
    this.maxGames = Math.max(0, this.entries.size);
  }

  private limitError(command: string): FicsCommandError {
    return new FicsCommandError(
      'observeLimit',
      command,
      `this FICS connection already observes ${this.load} games, its limit`,
    );
  }

  private setState(state: ConnectionState): void {
    if (this.state === state) return;
    this.state = state;
    this.emit('state', state);
  }
}

function endedWhileAway(game: GameNumber): GameEnd {
  return {
    kind: 'gameEnd',
    game,
    white: null,
    black: null,
    reason: 'The game ended while Kibitz was disconnected from FICS; the result is unknown',
    result: '*',
  };
}
