// ChessLive! move files as a game feed: a watched source is read every `pollMs`, and each time the
// file has grown by a move (or a result) the relay hears an update, exactly as from FICS. So the
// relay, the renderer and the live messages serve both without knowing where a game comes from.
import { EventEmitter } from 'node:events';
import { StringDecoder } from 'node:string_decoder';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { ChessLiveReader } from './read.js';
import {
  DEFAULT_READ,
  readSourceFrom,
  snapshotOfRead,
  SourceTooLargeError,
  type ChessLiveSource,
  type ReadSourceOptions,
} from './source.js';
import { makeChessLiveGame, parseChessLiveGame, type ChessLiveGame, type GameId } from '../game/game-id.js';
import { DEFAULT_MAX_PLIES } from '../game/snapshot.js';
import type { FicsSnapshot, GameSnapshot } from '../game/snapshot.js';
import { cleanText } from '../text.js';
import type { TrackerUpdate } from '../game/tracker.js';
import { shortened, type Logger } from '../log.js';
import { orThrow, parseGameNumber } from '../fics/validate.js';
import type { GameNumber } from '../protocol/game-number.js';
import type { Handle } from '../protocol/handle.js';
import type { GameFeed } from '../game/feed.js';
import { errorMessage } from '../result.js';

export interface ChessLiveFeedOptions {
  sources: readonly ChessLiveSource[];
  /** Time between two reads of a watched source. */
  pollMs: number;
  logger: Logger;
  read?: ReadSourceOptions;
  /** Plies a game may have; past it the game ends as not supported. */
  maxPlies?: number;
}

/** A source as read so far. */
interface Reading {
  reader: ChessLiveReader;
  /** Decodes what is appended (a character may be split between two reads). */
  decoder: StringDecoder;
  /** Bytes read so far. */
  length: number;
  /** The last of them, to tell a file that grew from one that was rewritten. */
  tail: Buffer;
}

/** Bytes compared at the end of what was read to see that a source only grew. */
const OVERLAP = 64;
/** Fields read between two turns of the event loop: a few milliseconds of work. */
const FIELDS_PER_TURN = 64;

interface Watched extends Reading {
  source: ChessLiveSource;
  snapshot: GameSnapshot;
  timer: NodeJS.Timeout | null;
  /** The last problem logged, so a source that stays broken is logged once. */
  problem: string | null;
  /** The result arrived; it is final once a read shows nothing more (the reason may still grow). */
  ending: boolean;
}

type FeedEvents = { update: [TrackerUpdate] };

export class ChessLiveFeed extends EventEmitter<FeedEvents> implements GameFeed {
  private readonly watched = new Map<GameId, Watched>();
  /** Games that ended or stopped: their last snapshot stays for the PGN until observed again. */
  private readonly finished = new Map<GameId, GameSnapshot>();
  private serial = 0;
  private closed = false;

  private readonly maxPlies: number;

  constructor(private readonly options: ChessLiveFeedOptions) {
    super();
    this.maxPlies = options.maxPlies ?? DEFAULT_MAX_PLIES;
  }

  /** The configured source names, in configuration order. */
  names(): string[] {
    return this.options.sources.map((s) => s.name);
  }

  /** The game number of a source, or null when no source has that name. */
  gameOf(name: string): ChessLiveGame | null {
    const index = this.options.sources.findIndex((s) => s.name === name.trim().toLowerCase());
    return index < 0 ? null : makeChessLiveGame(index);
  }

  /** True when the number is one of the configured sources' games (never a FICS game number). */
  hasGame(game: GameId): boolean {
    return this.sourceOf(game) !== undefined;
  }

  private sourceOf(game: GameId): ChessLiveSource | undefined {
    const index = parseChessLiveGame(game);
    return index === null ? undefined : this.options.sources[index];
  }

  /** Reads the source now and keeps reading it; rejects when it cannot be read or parsed. */
  async observeGame(game: GameId): Promise<GameId> {
    const source = this.sourceOf(game);
    if (source === undefined) throw new Error(`No ChessLive! source has game number ${game}.`);
    if (this.watched.has(game)) return game;
    const reading = startReading((await readSourceFrom(source, 0, this.options.read)).bytes);
    await readFields(reading.reader);
    if (this.watched.has(game)) return game;
    const read = reading.reader.read();
    if (!read.ok) throw new Error(`ChessLive! source "${source.name}": ${read.error.message}`);
    if (!reading.reader.namesRead) {
      throw new Error(`ChessLive! source "${source.name}" holds no game yet: it does not name both players.`);
    }
    if (read.value.completeMoves > this.maxPlies) {
      throw new Error(
        `ChessLive! source "${source.name}" has ${read.value.completeMoves} moves (plies), more than the ${this.maxPlies} Kibitz relays.`,
      );
    }
    const snapshot = snapshotOfRead(read.value, {
      key: `chesslive:${source.name}:${++this.serial}`,
      game,
      source: source.name,
    });
    this.finished.delete(game);
    const entry: Watched = {
      ...reading,
      source,
      snapshot,
      timer: null,
      problem: null,
      ending: snapshot.ended,
    };
    this.watched.set(game, entry);
    this.emit('update', { type: 'started', snapshot });
    // A finished file is shown as it is, and not read again.
    if (snapshot.ended) this.stopWatching(game, entry);
    else this.schedule(game, entry);
    return game;
  }

  async unobserve(game: GameId): Promise<void> {
    const entry = this.watched.get(game);
    if (entry !== undefined) this.stopWatching(game, entry);
  }

  snapshot(game: GameId): GameSnapshot | undefined {
    return this.watched.get(game)?.snapshot ?? this.finished.get(game);
  }

  close(): void {
    this.closed = true;
    for (const [game, entry] of this.watched) this.stopWatching(game, entry);
  }

  private schedule(game: GameId, entry: Watched): void {
    if (this.closed) return;
    entry.timer = setTimeout(() => void this.poll(game, entry), this.options.pollMs);
  }

  private stopWatching(game: GameId, entry: Watched): void {
    if (entry.timer !== null) clearTimeout(entry.timer);
    entry.timer = null;
    if (this.watched.get(game) === entry) this.watched.delete(game);
    this.finished.set(game, entry.snapshot);
  }

  private async poll(game: GameId, entry: Watched): Promise<void> {
    entry.timer = null;
    let change: 'same' | 'shorter' | 'grew';
    try {
      change = await this.readMore(entry);
    } catch (error) {
      if (this.watched.get(game) !== entry) return;
      if (error instanceof SourceTooLargeError) return this.outgrown(game, entry, error);
      this.problem(entry, errorMessage(error));
      return this.next(game, entry);
    }
    if (this.watched.get(game) !== entry) return;
    if (change !== 'grew') {
      if (change === 'same' && entry.ending) return this.end(game, entry);
      return this.next(game, entry);
    }
    await readFields(entry.reader);
    if (this.watched.get(game) !== entry) return;
    if (!entry.reader.namesRead) return this.next(game, entry);
    const read = entry.reader.read();
    if (!read.ok) {
      this.problem(entry, `ChessLive! source "${entry.source.name}": ${read.error.message}`);
      return this.next(game, entry);
    }
    entry.problem = null;
    const before = entry.snapshot;
    const white = cleanText(read.value.game.white);
    const black = cleanText(read.value.game.black);
    if (white !== before.white || black !== before.black) {
      // Another game was written over this one: this one ends here, unfinished.
      entry.snapshot = { ...before, ended: true, reason: `the source now shows ${white} vs ${black}` };
      return this.end(game, entry);
    }
    if (read.value.completeMoves > this.maxPlies) {
      entry.snapshot = {
        ...before,
        reason: `more than ${this.maxPlies} moves (plies): Kibitz does not relay games that long`,
      };
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

  /**
   * Reads what the source gained since the last read into its reader: `same` when nothing
   * changed, `shorter` while a rewrite is half written. Only the new bytes are read and parsed,
   * unless the source was rewritten: then it is read whole, and a different text from the start.
   */
  private async readMore(entry: Watched): Promise<'same' | 'shorter' | 'grew'> {
    const from = Math.max(0, entry.length - OVERLAP);
    const got = await readSourceFrom(entry.source, from, this.options.read);
    const overlap = entry.length - from;
    if (
      got.from === from &&
      got.bytes.length >= overlap &&
      got.bytes.subarray(0, overlap).equals(entry.tail)
    ) {
      return this.append(entry, got.bytes.subarray(overlap));
    }
    const whole = got.from === 0 ? got : await readSourceFrom(entry.source, 0, this.options.read);
    const fresh = startReading(whole.bytes);
    const before = entry.reader.textRead;
    const now = fresh.reader.textRead;
    if (now === before) return 'same';
    // A file rewritten in place can be read half written: wait for the rest.
    if (before.startsWith(now)) return 'shorter';
    if (now.startsWith(before)) {
      // The server sent it whole: only the rest is new.
      entry.reader.append(now.slice(before.length));
      Object.assign(entry, { decoder: fresh.decoder, length: fresh.length, tail: fresh.tail });
      return 'grew';
    }
    Object.assign(entry, fresh);
    return 'grew';
  }

  private append(entry: Watched, bytes: Buffer): 'same' | 'grew' {
    if (bytes.length === 0) return 'same';
    entry.reader.append(entry.decoder.write(bytes));
    entry.length += bytes.length;
    entry.tail = lastBytes(Buffer.concat([entry.tail, bytes]));
    return 'grew';
  }

  /** The source grew past what Kibitz reads: said once, and the game ends there. */
  private outgrown(game: GameId, entry: Watched, error: SourceTooLargeError): void {
    const limit = this.options.read?.maxBytes ?? DEFAULT_READ.maxBytes;
    this.options.logger.warn(
      { source: entry.source.name, error: error.message },
      'ChessLive! source too large; no longer relayed',
    );
    entry.snapshot = {
      ...entry.snapshot,
      reason: `the source grew past the ${limit} bytes Kibitz reads: it is no longer relayed`,
    };
    this.end(game, entry);
  }

  /** The final update: the relay writes the result, the PGN and the GIF. */
  private end(game: GameId, entry: Watched): void {
    entry.snapshot = { ...entry.snapshot, ended: true };
    this.stopWatching(game, entry);
    this.emit('update', { type: 'ended', snapshot: entry.snapshot });
  }

  private next(game: GameId, entry: Watched): void {
    if (this.watched.get(game) === entry) this.schedule(game, entry);
  }

  private problem(entry: Watched, message: string): void {
    if (entry.problem === message) return;
    entry.problem = message;
    this.options.logger.warn(
      { source: entry.source.name, error: shortened(message, 300) },
      'ChessLive! source unreadable; retrying',
    );
  }
}

/** The FICS side of a combined feed: it takes checked game numbers and handles only. */
export type FicsFeed = GameFeed<GameNumber, FicsSnapshot>;

/**
 * FICS games and ChessLive! games behind one feed for one relay: a number is a ChessLive! game
 * when the ChessLive! feed has a source under it (their numbers lie above every FICS number).
 */
export class CombinedFeed extends EventEmitter<FeedEvents> implements GameFeed {
  private readonly forward = (update: TrackerUpdate): void => {
    this.emit('update', update);
  };

  constructor(
    private readonly fics: FicsFeed,
    private readonly chesslive: ChessLiveFeed,
  ) {
    super();
    fics.on('update', this.forward);
    chesslive.on('update', this.forward);
  }

  /** A number that is not a ChessLive! game's is a FICS game number, checked here. */
  async observeGame(game: GameId, holder?: string, kept?: boolean): Promise<GameId> {
    if (this.chesslive.hasGame(game)) return this.chesslive.observeGame(game);
    return this.fics.observeGame(orThrow(parseGameNumber(game)), holder, kept);
  }

  async unobserve(game: GameId, holder?: string): Promise<void> {
    if (this.chesslive.hasGame(game)) return this.chesslive.unobserve(game);
    return this.fics.unobserve(orThrow(parseGameNumber(game)), holder);
  }

  /** Players are FICS handles: ChessLive! names are not observed by name. */
  observePlayer(handle: Handle, holder?: string): Promise<GameId> {
    return this.fics.observePlayer?.(handle, holder) ?? Promise.reject(new Error('FICS is not connected.'));
  }

  snapshot(game: GameId): GameSnapshot | undefined {
    return (this.chesslive.hasGame(game) ? this.chesslive : this.fics).snapshot(game);
  }

  close(): void {
    this.fics.off('update', this.forward);
    this.chesslive.off('update', this.forward);
  }
}

/** A reader holding `bytes`, not read yet. */
function startReading(bytes: Buffer): Reading {
  const decoder = new StringDecoder('utf8');
  const reader = new ChessLiveReader();
  reader.append(decoder.write(bytes));
  return { reader, decoder, length: bytes.length, tail: lastBytes(bytes) };
}

function lastBytes(bytes: Buffer): Buffer {
  return Buffer.from(bytes.subarray(Math.max(0, bytes.length - OVERLAP)));
}

/** Reads every complete field, yielding to other work between slices. */
async function readFields(reader: ChessLiveReader): Promise<void> {
  while (reader.advance(FIELDS_PER_TURN)) await nextTurn();
}
