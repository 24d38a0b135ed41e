// ChessLive! move files as a game feed: a watched source is read every `pollMs`, and each time the
// file has grown by a move (or a result) the relay hears an update, exactly as from FICS. So the
// relay, the renderer and the live messages serve both without knowing where a game comes from.
import { EventEmitter } from 'node:events';
import { parseChessLive } from '../chesslive/read.js';
import {
  FIRST_CHESSLIVE_GAME,
  isChessLiveGame,
  readSource,
  snapshotOfRead,
  type ChessLiveSource,
  type ReadSourceOptions,
} from '../chesslive/source.js';
import type { GameSnapshot } from '../game/snapshot.js';
import type { TrackerUpdate } from '../game/tracker.js';
import type { Logger } from '../log.js';
import type { GameFeed } from './relay.js';

export interface ChessLiveFeedOptions {
  sources: readonly ChessLiveSource[];
  /** Time between two reads of a watched source. */
  pollMs: number;
  logger: Logger;
  read?: ReadSourceOptions;
}

interface Watched {
  source: ChessLiveSource;
  snapshot: GameSnapshot;
  /** The text the snapshot was read from. */
  text: string;
  timer: NodeJS.Timeout | null;
  /** The last problem logged, so a source that stays broken is logged once. */
  problem: string | null;
  /** The result arrived; it is final once a read shows nothing more (the reason may still grow). */
  ending: boolean;
}

type FeedEvents = { update: [TrackerUpdate] };

export class ChessLiveFeed extends EventEmitter<FeedEvents> implements GameFeed {
  private readonly watched = new Map<number, Watched>();
  /** Games that ended or stopped: their last snapshot stays for the PGN until observed again. */
  private readonly finished = new Map<number, GameSnapshot>();
  private serial = 0;
  private closed = false;

  constructor(private readonly o: ChessLiveFeedOptions) {
    super();
  }

  /** The configured source names, in configuration order. */
  names(): string[] {
    return this.o.sources.map((s) => s.name);
  }

  /** The game number of a source, or null when no source has that name. */
  gameOf(name: string): number | null {
    const index = this.o.sources.findIndex((s) => s.name === name.trim().toLowerCase());
    return index < 0 ? null : FIRST_CHESSLIVE_GAME + index;
  }

  /** Reads the source now and keeps reading it; rejects when it cannot be read or parsed. */
  async observeGame(input: unknown): Promise<number> {
    const game = typeof input === 'number' ? input : Number.NaN;
    const source = this.o.sources[game - FIRST_CHESSLIVE_GAME];
    if (source === undefined) throw new Error(`No ChessLive! source has game number ${String(input)}.`);
    if (this.watched.has(game)) return game;
    const text = await readSource(source, this.o.read);
    if (this.watched.has(game)) return game;
    const read = parseChessLive(text, { growing: true });
    if (!read.ok) throw new Error(`ChessLive! source "${source.name}": ${read.error.message}`);
    if (!namesBoth(text)) {
      throw new Error(`ChessLive! source "${source.name}" holds no game yet: it does not name both players.`);
    }
    const snapshot = snapshotOfRead(read.value, {
      key: `chesslive:${source.name}:${++this.serial}`,
      game,
      source: source.name,
    });
    this.finished.delete(game);
    const entry: Watched = { source, snapshot, text, timer: null, problem: null, ending: snapshot.ended };
    this.watched.set(game, entry);
    this.emit('update', { type: 'started', snapshot });
    // A finished file is shown as it is, and not read again.
    if (snapshot.ended) this.stopWatching(game, entry);
    else this.schedule(game, entry);
    return game;
  }

  async unobserve(input: unknown): Promise<void> {
    const entry = typeof input === 'number' ? this.watched.get(input) : undefined;
    if (entry !== undefined) this.stopWatching(input as number, entry);
  }

  snapshot(game: number): GameSnapshot | undefined {
    return this.watched.get(game)?.snapshot ?? this.finished.get(game);
  }

  close(): void {
    this.closed = true;
    for (const [game, entry] of this.watched) this.stopWatching(game, entry);
  }

  private schedule(game: number, entry: Watched): void {
    if (this.closed) return;
    entry.timer = setTimeout(() => void this.poll(game, entry), this.o.pollMs);
  }

  private stopWatching(game: number, entry: Watched): void {
    if (entry.timer !== null) clearTimeout(entry.timer);
    entry.timer = null;
    if (this.watched.get(game) === entry) this.watched.delete(game);
    this.finished.set(game, entry.snapshot);
  }

  private async poll(game: number, entry: Watched): Promise<void> {
    entry.timer = null;
    let text: string;
    try {
      text = await readSource(entry.source, this.o.read);
    } catch (error) {
      this.problem(entry, (error as Error).message);
      return this.next(game, entry);
    }
    if (this.watched.get(game) !== entry) return;
    if (text === entry.text) {
      if (entry.ending) return this.end(game, entry);
      return this.next(game, entry);
    }
    // A file rewritten in place can be read half written: wait for the rest.
    if (entry.text.startsWith(text) || !namesBoth(text)) return this.next(game, entry);
    const read = parseChessLive(text, { growing: true });
    if (!read.ok) {
      this.problem(entry, `ChessLive! source "${entry.source.name}": ${read.error.message}`);
      return this.next(game, entry);
    }
    entry.problem = null;
    entry.text = text;
    const before = entry.snapshot;
    const { white, black } = read.value.game;
    if (white !== before.white || black !== before.black) {
      // Another game was written over this one: this one ends here, unfinished.
      entry.snapshot = { ...before, ended: true, reason: `the source now shows ${white} vs ${black}` };
      return this.end(game, entry);
    }
    const snapshot = snapshotOfRead(read.value, { key: before.key, game, source: before.source! });
    entry.snapshot = { ...snapshot, ended: false };
    entry.ending = snapshot.ended;
    // The result alone is no new position: it comes with the final update.
    const moved =
      snapshot.uci.length !== before.uci.length || snapshot.uci.some((uci, i) => uci !== before.uci[i]);
    if (moved) this.emit('update', { type: 'moved', snapshot: entry.snapshot });
    return this.next(game, entry);
  }

  /** The final update: the relay writes the result, the PGN and the GIF. */
  private end(game: number, entry: Watched): void {
    entry.snapshot = { ...entry.snapshot, ended: true };
    this.stopWatching(game, entry);
    this.emit('update', { type: 'ended', snapshot: entry.snapshot });
  }

  private next(game: number, entry: Watched): void {
    if (this.watched.get(game) === entry) this.schedule(game, entry);
  }

  private problem(entry: Watched, message: string): void {
    if (entry.problem === message) return;
    entry.problem = message;
    this.o.logger.warn(
      { source: entry.source.name, error: message },
      'ChessLive! source unreadable; retrying',
    );
  }
}

/** FICS games and ChessLive! games behind one feed for one relay: the game number tells them apart. */
export class CombinedFeed extends EventEmitter<FeedEvents> implements GameFeed {
  private readonly forward = (update: TrackerUpdate): void => {
    this.emit('update', update);
  };

  constructor(
    private readonly fics: GameFeed,
    private readonly chesslive: ChessLiveFeed,
  ) {
    super();
    fics.on('update', this.forward);
    chesslive.on('update', this.forward);
  }

  observeGame(game: unknown, holder?: string, kept?: boolean): Promise<number> {
    return this.feedOf(game).observeGame(game, holder, kept);
  }

  unobserve(game: unknown, holder?: string): Promise<void> {
    return this.feedOf(game).unobserve(game, holder);
  }

  /** Players are FICS handles: ChessLive! names are not observed by name. */
  observePlayer(handle: unknown, holder?: string): Promise<number> {
    return this.fics.observePlayer?.(handle, holder) ?? Promise.reject(new Error('FICS is not connected.'));
  }

  snapshot(game: number): GameSnapshot | undefined {
    return this.feedOf(game).snapshot(game);
  }

  close(): void {
    this.fics.off('update', this.forward);
    this.chesslive.off('update', this.forward);
  }

  private feedOf(game: unknown): GameFeed {
    return typeof game === 'number' && isChessLiveGame(game) ? this.chesslive : this.fics;
  }
}

/** Both player names are complete (each ends with ";"). */
function namesBoth(text: string): boolean {
  return text.split(';').length > 2;
}
