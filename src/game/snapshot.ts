// A plain-data view of one game at one moment: what the relay, the renderer and the CLIs read.
// Game state produces it; nothing here knows about the wire format or Discord. A snapshot is a
// game record with what a game being watched adds (ratings, clocks, hands, sync state).
import type { GameNumber } from '../protocol/game-number.js';
import type { GameId } from './game-id.js';
import type { Holdings } from '../protocol/events.js';
import type { GameRecord } from './record.js';
import type { Opening } from './openings.js';

/**
 * Plies a game may have: far above any real game (the longest tournament games have some 550),
 * far below what a game's images, move lists and memory can bear. Longer games end as unsupported.
 */
export const DEFAULT_MAX_PLIES = 2_000;

/** Kibitzes and whispers kept per game (a lecture has some 100); later ones are only counted. */
export const MAX_SAID_PER_GAME = 300;

/** A kibitz or whisper heard in the game, and when. */
export interface Said {
  /** Plies of the snapshot's `san` played when it was said (0: before its first move). */
  ply: number;
  handle: string;
  text: string;
  whisper: boolean;
}

/** What the state needs from the server to be exact again. */
export type SyncNeed = 'moves' | 'refresh';

/** A FICS game's snapshot: its number is one FICS gave. */
export type FicsSnapshot = GameSnapshot & { game: GameNumber };

export interface GameSnapshot extends GameRecord {
  /** Unique for this process: server game numbers are reused, so `<number>:<serial>`. */
  key: string;
  game: GameId;
  whiteRating: string | null;
  blackRating: string | null;
  rated: boolean | null;
  /** FICS game type as the server named it (`blitz`, `lightning`, `crazyhouse`, `wild/fr`...). */
  type: string | null;
  initialMinutes: number | null;
  incrementSec: number | null;
  /**
   * FEN of the position the history starts from (the standard start for normal games). The moves
   * (`san`, `uci`, `clocksMs`) start at ply 1 when `complete`, else at the first position seen;
   * FICS castling is the king's move (`e1g1`), chess960 included.
   */
  startFen: string;
  /** Time each ply took, ms, where known. */
  moveTimesMs: (number | null)[];
  /**
   * Bughouse: the hands after each ply, pieces passed before the next move included, where known
   * (a replay of one board cannot know what its partner board passed).
   */
  handsAfter?: (Holdings | null)[];
  /** FEN after the last move; crazyhouse/bughouse carry `[pockets]` and `~` for promoted pieces. */
  fen: string;
  sideToMove: 'white' | 'black';
  whiteClockMs: number;
  blackClockMs: number;
  clockTicking: boolean;
  holdings: Holdings | null;
  partnerGame: GameNumber | null;
  /** True when the side to move is in check. */
  check: boolean;
  /** Server's orientation hint: true when Black is at the bottom. */
  flip: boolean;
  ended: boolean;
  /** True when the move history is known from ply 1. */
  complete: boolean;
  /** Set while the state is out of sync and needs a `moves` or `refresh` reply. */
  needs: SyncNeed | null;
  /** The FICS server the game was observed on (FICS_HOST), where known. */
  server?: string;
  /** Where the game comes from when it is not a FICS game: the ChessLive! source's name. */
  source: string | null;
  /** Examined game, isolated position, or a played game. */
  mode: 'played' | 'examined' | 'isolated';
  /** Kibitzes and whispers in the order heard (at most MAX_SAID_PER_GAME); absent when none. */
  said?: Said[];
  /** How many more were heard than kept. */
  saidDropped?: number;
  /** The deepest position of the ECO table the moves reached; null outside standard chess. */
  opening: Opening | null;
}

/** Plies played before a FEN's position, from its move number and side to move. */
export function plyOfFen(fen: string): number {
  const fields = fen.split(' ');
  const fullmove = Number(fields[5] ?? 1);
  return (Number.isSafeInteger(fullmove) ? fullmove - 1 : 0) * 2 + (fields[1] === 'b' ? 1 : 0);
}

/** Plies played before a snapshot's first known position (none when its history is complete). */
export function firstPlyOf(snapshot: Pick<GameSnapshot, 'complete' | 'startFen'>): number {
  return snapshot.complete ? 0 : plyOfFen(snapshot.startFen);
}
