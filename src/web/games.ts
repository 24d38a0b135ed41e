// The games the live page shows: every relayed game gets an unguessable id (random, kept in memory,
// the same while the game is relayed), its latest state, and its viewers' push streams. It follows
// the feed's updates after the relay (which only queues its edit), turns each into one event, and
// writes that event's text once to every viewer of the game. Told of engine evaluations, it sends
// those of the position a page shows.
import { randomBytes } from 'node:crypto';
import type { GameSnapshot } from '../game/snapshot.js';
import { isChessLive, type GameId } from '../game/game-id.js';
import type { SaidInGame, TrackerUpdate } from '../game/tracker.js';
import { gameKeyOf } from '../game/game-key.js';
import type { GameFeed } from '../game/feed.js';
import type { SaidSource } from '../relay/thread-talk.js';
import type { EventStream } from './stream.js';
import {
  changeEvent,
  evaluationView,
  gameView,
  makeEventText,
  miniChanged,
  miniView,
  type EngineOpinion,
  type GameView,
  type MiniView,
} from './view.js';

export interface LiveGamesOptions {
  feed: Pick<GameFeed, 'on' | 'off' | 'snapshot'>;
  /** Whether a live post shows this game now. */
  isRelayed(snapshot: GameSnapshot): boolean;
  /** The games live posts show now (read from the database). */
  relayed(): Promise<GameSnapshot[]>;
  /** ChessLive! sources the front page lists (FICS games are always listed). */
  publicSources: readonly string[];
  maxViewers: number;
  maxViewersPerGame: number;
  /** How long a game no longer relayed keeps its page (its result stays readable for a while). */
  lingerMs?: number;
  now?: () => number;
  /** The engine's newest evaluation of a game while a post asks for one; absent without an engine. */
  evaluation?: (snapshot: GameSnapshot) => EngineOpinion | null;
  /** Kibitzes and whispers of observed games; none by default. */
  said?: SaidSource;
}

export type Admission = 'ok' | 'unknown' | 'game full' | 'full';

interface Entry {
  id: string;
  key: string;
  last: GameSnapshot;
  viewers: Set<EventStream>;
  lastRelayedAt: number;
}

/** Ten minutes: long enough to read a result, short enough that finished games do not pile up. */
const DEFAULT_LINGER_MS = 10 * 60_000;

/**
 * Mini-boards on the front page: the strongest games this many, the rest listed by name only.
 * Bounds what each front-page viewer is sent per move, and the page's work in the browser.
 */
export const FRONT_BOARDS = 24;

export class LiveGames {
  private readonly byKey = new Map<string, Entry>();
  private readonly byId = new Map<string, Entry>();
  private viewerCount = 0;
  /** The games the front page shows as mini-boards (page ids, strongest first): at most FRONT_BOARDS. */
  private frontIds: string[] = [];
  /** The front page's streams: each gets the same text once per change of a board shown. */
  private readonly frontViewers = new Set<EventStream>();
  private readonly listener = (update: TrackerUpdate): void => this.onUpdate(update);
  private readonly saidListener = (said: SaidInGame): void => this.onSaid(said);
  private readonly now: () => number;

  constructor(private readonly options: LiveGamesOptions) {
    this.now = options.now ?? Date.now;
    options.feed.on('update', this.listener);
    options.said?.on('said', this.saidListener);
  }

  get viewers(): number {
    return this.viewerCount;
  }

  get games(): number {
    return this.byId.size;
  }

  /** The page id of a relayed game, made at its first call. */
  idFor(snapshot: GameSnapshot): string {
    return this.entryFor(snapshot).id;
  }

  /** The game's full state now, or undefined for an id not (or no longer) known. */
  view(id: string): GameView | undefined {
    const entry = this.byId.get(id);
    return entry === undefined ? undefined : this.fullView(entry);
  }

  snapshot(id: string): GameSnapshot | undefined {
    const entry = this.byId.get(id);
    return entry === undefined ? undefined : this.current(entry);
  }

  /** The front page: relayed games running now, FICS and public ChessLive! ones, highest average rating first. */
  async list(): Promise<{ id: string; snapshot: GameSnapshot }[]> {
    const shown = (await this.options.relayed()).filter((s) => !s.ended && this.isPublic(s));
    return shown
      .sort((a, b) => averageRating(b) - averageRating(a))
      .map((snapshot) => ({ id: this.idFor(snapshot), snapshot }));
  }

  /**
   * The front page's games (list()), its first FRONT_BOARDS becoming the boards it shows: when
   * they are other games than before, the open front pages are told the new ones.
   */
  async front(): Promise<{ id: string; snapshot: GameSnapshot }[]> {
    const games = await this.list();
    const ids = games.slice(0, FRONT_BOARDS).map((game) => game.id);
    if (ids.join() !== this.frontIds.join()) {
      this.frontIds = ids;
      this.broadcastFront(makeEventText({ type: 'front', data: this.frontBoards() }));
    }
    return games;
  }

  /** Whether one more front page may follow the boards (the same bounds as a game's page). */
  admitsFront(): Exclude<Admission, 'unknown'> {
    if (this.viewerCount >= this.options.maxViewers) return 'full';
    if (this.frontViewers.size >= this.options.maxViewersPerGame) return 'game full';
    return 'ok';
  }

  /** Adds a front page's stream (admitted just before): the boards now, then each change. */
  watchFront(stream: EventStream): void {
    this.frontViewers.add(stream);
    this.viewerCount++;
    stream.send(makeEventText({ type: 'front', data: this.frontBoards() }));
  }

  leaveFront(stream: EventStream): void {
    if (this.frontViewers.delete(stream)) this.viewerCount--;
  }

  /** Whether one more viewer may watch the game. */
  admits(id: string): Admission {
    const entry = this.byId.get(id);
    if (entry === undefined) return 'unknown';
    if (this.viewerCount >= this.options.maxViewers) return 'full';
    if (entry.viewers.size >= this.options.maxViewersPerGame) return 'game full';
    return 'ok';
  }

  /** Adds a viewer (admitted just before): it gets the full state now, then every change. */
  watch(id: string, stream: EventStream): void {
    const entry = this.byId.get(id);
    if (entry === undefined) return stream.close();
    entry.viewers.add(stream);
    this.viewerCount++;
    stream.send(makeEventText({ type: 'state', data: this.fullView(entry) }));
  }

  /** The engine evaluated a game's position: the pages that show that position now get it. */
  evaluated(game: GameId, fen: string): void {
    for (const entry of this.byId.values()) {
      if (entry.last.game !== game || entry.last.fen !== fen || entry.viewers.size === 0) continue;
      const opinion = this.opinionOf(entry.last);
      const view = opinion?.fen === fen ? evaluationView(entry.last, opinion) : null;
      if (view !== null) this.broadcast(entry, makeEventText({ type: 'evaluation', data: view }));
    }
  }

  /** A viewer's stream closed (or was dropped). */
  leave(id: string, stream: EventStream): void {
    const entry = this.byId.get(id);
    if (entry?.viewers.delete(stream)) this.viewerCount--;
  }

  /** Sends `text` (an SSE comment) to every viewer: keeps idle connections open through proxies. */
  ping(text: string): void {
    for (const entry of this.byId.values()) for (const viewer of entry.viewers) viewer.send(text);
    this.broadcastFront(text);
  }

  /**
   * Drops the games no live post has shown for `lingerMs` (stopped, or ended and read): their
   * viewers' streams end and their ids are no longer known.
   */
  sweep(): void {
    const now = this.now();
    const linger = this.options.lingerMs ?? DEFAULT_LINGER_MS;
    for (const entry of [...this.byId.values()]) {
      if (this.options.isRelayed(entry.last)) entry.lastRelayedAt = now;
      else if (now - entry.lastRelayedAt >= linger) this.drop(entry);
    }
  }

  close(): void {
    this.options.feed.off('update', this.listener);
    this.options.said?.off('said', this.saidListener);
    for (const entry of [...this.byId.values()]) this.drop(entry);
    for (const viewer of [...this.frontViewers]) viewer.close();
  }

  private drop(entry: Entry): void {
    this.frontIds = this.frontIds.filter((id) => id !== entry.id);
    this.byId.delete(entry.id);
    this.byKey.delete(entry.key);
    for (const viewer of [...entry.viewers]) viewer.close();
    this.viewerCount -= entry.viewers.size;
    entry.viewers.clear();
  }

  private entryFor(snapshot: GameSnapshot): Entry {
    const key = gameKeyOf(snapshot);
    let entry = this.byKey.get(key);
    if (entry === undefined) {
      // 128 random bits: a page of a private channel's game cannot be found by counting.
      const id = randomBytes(16).toString('base64url');
      entry = { id, key, last: snapshot, viewers: new Set(), lastRelayedAt: this.now() };
      this.byKey.set(key, entry);
      this.byId.set(id, entry);
    }
    return entry;
  }

  /**
   * The game as the feed has it now: an entry made from a post's first message may predate what
   * the feed learnt since without an update of the game itself (the name of a bughouse partner board).
   */
  private current(entry: Entry): GameSnapshot {
    const now = this.options.feed.snapshot(entry.last.game);
    return now !== undefined && gameKeyOf(now) === entry.key ? now : entry.last;
  }

  private fullView(entry: Entry): GameView {
    const last = this.current(entry);
    return gameView(entry.id, last, this.partnerOf(last), this.opinionOf(last));
  }

  private opinionOf(snapshot: GameSnapshot): EngineOpinion | null {
    return this.options.evaluation?.(snapshot) ?? null;
  }

  private partnerOf(snapshot: GameSnapshot): GameSnapshot | undefined {
    return snapshot.partnerGame === null ? undefined : this.options.feed.snapshot(snapshot.partnerGame);
  }

  private onUpdate(update: TrackerUpdate): void {
    if (update.type === 'needs' || update.type === 'undecoded') return;
    const snapshot = update.snapshot;
    let entry = this.byKey.get(gameKeyOf(snapshot));
    if (entry === undefined && this.options.isRelayed(snapshot)) entry = this.entryFor(snapshot);
    if (entry !== undefined) {
      const before = entry.last;
      entry.last = snapshot;
      if (this.frontViewers.size > 0) this.toFront(entry, before);
      if (entry.viewers.size > 0) {
        const event = changeEvent(
          entry.id,
          before,
          snapshot,
          this.partnerOf(snapshot),
          this.opinionOf(snapshot),
        );
        if (event !== null) this.broadcast(entry, makeEventText(event));
      }
    }
    // A bughouse page shows both boards: a move on the partner board goes to its viewers too.
    for (const main of this.byId.values()) {
      if (main.viewers.size === 0 || main === entry || main.last.variant !== 'bughouse') continue;
      if ((main.last.partnerGame ?? this.current(main).partnerGame) !== snapshot.game) continue;
      this.broadcast(
        main,
        makeEventText({ type: 'partner', data: gameView(main.id, snapshot, undefined, null).board }),
      );
    }
  }

  /** A line said in a game a page shows: to its viewers as it comes (the page escapes it). */
  private onSaid({ game, key, said }: SaidInGame): void {
    const snapshot = this.options.feed.snapshot(game);
    if (snapshot === undefined || snapshot.key !== key) return;
    const entry = this.byKey.get(gameKeyOf(snapshot));
    if (entry === undefined || entry.viewers.size === 0) return;
    entry.last = snapshot;
    this.broadcast(entry, makeEventText({ type: 'said', data: said }));
  }

  private broadcast(entry: Entry, text: string): void {
    for (const viewer of entry.viewers) viewer.send(text);
  }

  /**
   * A game changed: its mini-board's new state to the front pages, when it is one they show, or
   * when a new game fits in the room left (it is added at the end until the next front()).
   */
  private toFront(entry: Entry, before: GameSnapshot): void {
    const shown = this.frontIds.includes(entry.id);
    if (shown ? !miniChanged(before, entry.last) : !this.fitsFront(entry.last)) return;
    if (!shown) this.frontIds.push(entry.id);
    this.broadcastFront(makeEventText({ type: 'mini', data: miniView(entry.id, entry.last) }));
  }

  private fitsFront(snapshot: GameSnapshot): boolean {
    return this.frontIds.length < FRONT_BOARDS && !snapshot.ended && this.isPublic(snapshot);
  }

  private frontBoards(): MiniView[] {
    return this.frontIds.flatMap((id) => {
      const entry = this.byId.get(id);
      return entry === undefined ? [] : [miniView(id, this.current(entry))];
    });
  }

  private broadcastFront(text: string): void {
    for (const viewer of this.frontViewers) viewer.send(text);
  }

  /** FICS games are public; a ChessLive! source only when KIBITZ_WEB_PUBLIC_SOURCES names it. */
  private isPublic(snapshot: GameSnapshot): boolean {
    return !isChessLive(snapshot) || this.options.publicSources.includes(snapshot.source!);
  }
}

/** The average of the numeric ratings (guests and unrated players have none). */
function averageRating(snapshot: GameSnapshot): number {
  const ratings = [snapshot.whiteRating, snapshot.blackRating]
    .map((rating) => (rating !== null && /^\d+$/.test(rating) ? Number(rating) : null))
    .filter((rating) => rating !== null);
  return ratings.length === 0 ? 0 : ratings.reduce((a, b) => a + b, 0) / ratings.length;
}
