// Typed events decoded from what a FICS observer connection receives.
// Decoders are pure: one text line (or one block reply) in, one event out.
import type { GameNumber } from './game-number.js';

/** Piece letters as FICS writes them: upper case White, lower case Black. */
export type PieceLetter = 'P' | 'N' | 'B' | 'R' | 'Q' | 'K' | 'p' | 'n' | 'b' | 'r' | 'q' | 'k';
export type Color = 'white' | 'black';

/**
 * Style 12 "my relation to this game":
 * -4 initial position of a game (startpos), -3 isolated position, -2 observing an examined game,
 * -1 playing (opponent's move), 0 observing a played game, 1 playing (my move), 2 examining.
 */
export type Relation = -4 | -3 | -2 | -1 | 0 | 1 | 2;

/** A `<12>` line. Clocks are in milliseconds whatever unit the server used. */
export interface Style12 {
  kind: 'style12';
  /** 8 ranks, rank 8 first, files a..h, '-' for empty squares (exactly as sent). */
  ranks: string[];
  sideToMove: Color;
  /** File (0..7) of a double pawn push on the previous move, or -1. */
  doublePushFile: number;
  castling: { whiteShort: boolean; whiteLong: boolean; blackShort: boolean; blackLong: boolean };
  /** Half moves since the last irreversible move, as the server says (not always right). */
  halfmoveClock: number;
  game: GameNumber;
  white: string;
  black: string;
  relation: Relation;
  /** Initial time: minutes on freechess.org and FatICS (the help page says seconds). */
  initialTime: number;
  incrementSec: number;
  whiteStrength: number;
  blackStrength: number;
  whiteClockMs: number;
  blackClockMs: number;
  /** True when the server sent clocks in milliseconds (`iset ms 1`, told by the move-time format). */
  clocksInMs: boolean;
  /** Number of the move about to be made (both sides' first moves are 1). */
  moveNumber: number;
  /** Plies played before this position: (moveNumber - 1) * 2 + (black to move ? 1 : 0). */
  ply: number;
  /** Verbose move (`P/e2-e4`, `o-o`, `N/@@-d5`, `P/e7-e8=Q`) or null for "none". */
  verboseMove: string | null;
  /** Time taken for the previous move, in ms. */
  moveTimeMs: number;
  /** Pretty (SAN) notation for the previous move, or null for "none". */
  san: string | null;
  /** Flip: true when Black is at the bottom. */
  flip: boolean;
  /** Clock-ticking field (33-token servers and lasker); null when absent. */
  clockTicking: boolean | null;
  /** Lag of the last move in ms; null when absent (lasker sends 32 tokens). */
  lagMs: number | null;
  /** Any further fields a newer server appended, kept as text. */
  extra: string[];
}

/** A `<d1>` delta board (`iset compressmove 1`). */
export interface DeltaBoard {
  kind: 'delta';
  game: GameNumber;
  /** Half moves played after this move. */
  ply: number;
  san: string;
  from: string;
  to: string;
  /** Piece captured (lower case letter), if any. */
  captured: string | null;
  /** Promotion piece (upper case letter), if any. */
  promotion: string | null;
  castle: 'short' | 'long' | null;
  enPassant: boolean;
  moveTimeMs: number;
  /** The mover's remaining clock. */
  clockMs: number;
  lagMs: number | null;
  extra: string[];
}

/** Pieces in hand, as upper-case letters (`PNBRQ`), per side. */
export interface Holdings {
  white: string;
  black: string;
}

/** A `<b1>` line: holdings after a board, or a standalone piece-passing notice. */
export interface HoldingsLine {
  kind: 'holdings';
  game: GameNumber;
  holdings: Holdings;
  /** Set on a `<- WP` notice: which side received which piece. */
  passed: { to: Color; piece: string } | null;
}

/** A `<g1>` game-info line: every key kept, the common ones typed. */
export interface GameInfo {
  kind: 'gameinfo';
  game: GameNumber;
  fields: Record<string, string>;
  /** Partner game number for bughouse (`pt=`), 0/absent when none. */
  partnerGame: GameNumber | null;
  rated: boolean | null;
  type: string | null;
}

/** `Game N: White (1500) Black (1600) rated blitz 5 0` */
export interface GameHeader {
  kind: 'gameHeader';
  game: GameNumber;
  white: string;
  whiteRating: string;
  black: string;
  blackRating: string;
  rated: boolean;
  type: string;
  initialMinutes: number;
  incrementSec: number;
}

/** `{Game N (A vs. B) Creating unrated blitz match.}` and the like: a game began. */
export interface GameCreated {
  kind: 'gameCreated';
  game: GameNumber;
  white: string;
  black: string;
  rated: boolean | null;
  type: string | null;
  text: string;
}

export type GameResult = '1-0' | '0-1' | '1/2-1/2' | '*';

/** `{Game N (A vs. B) reason} result` or an examine result `Game N: reason result`. */
export interface GameEnd {
  kind: 'gameEnd';
  game: GameNumber;
  white: string | null;
  black: string | null;
  reason: string;
  result: GameResult;
}

export interface Observing {
  kind: 'observing';
  game: GameNumber;
}

export interface StoppedObserving {
  kind: 'stoppedObserving';
  game: GameNumber;
  /** The line as sent: removal after a game end, an unobserve, or the server dropping it. */
  text: string;
}

/** One ply of a `moves` listing. */
export interface MoveListEntry {
  san: string;
  timeMs: number | null;
}

/** A complete `moves N` reply. */
export interface MoveList {
  kind: 'moveList';
  /** Null where the server gave no `Movelist for game N:` line (lasker). */
  game: GameNumber | null;
  white: string;
  whiteRating: string;
  black: string;
  blackRating: string;
  rated: boolean | null;
  type: string | null;
  initialMinutes: number | null;
  incrementSec: number | null;
  moves: MoveListEntry[];
  /** `*` while in progress. */
  result: GameResult;
  /** Text inside the final braces (`Still in progress`, `White resigns`). */
  reason: string;
}

/** `Handle(titles)(rating)[game] kibitzes: text` (or `whispers:`): talk heard in a game. */
export interface Kibitz {
  kind: 'kibitz';
  game: GameNumber;
  handle: string;
  /** `TD`, `C`, `GM`... as the server shows them; empty for most people. */
  titles: string[];
  /** As shown: a number, `----` (unrated) or `++++` (guest). */
  rating: string;
  /** Said to observers only (`whisper`) rather than to players and observers (`kibitz`). */
  whisper: boolean;
  /** At most KIBITZ_TEXT_MAX characters (src/protocol/kibitz.ts). */
  text: string;
}

/** A line the decoders could not read. Never thrown; always reported. */
export interface Undecoded {
  kind: 'undecoded';
  /** What the line looked like it was (`style12`, `delta`, `holdings`, ...), or `unknown`. */
  lineKind: string;
  reason: string;
  line: string;
}

/** A line that is known to carry nothing for game state (prompt, chatter, blank). */
export interface OtherLine {
  kind: 'other';
  line: string;
}

export type ServerEvent =
  | Style12
  | DeltaBoard
  | HoldingsLine
  | GameInfo
  | GameHeader
  | GameCreated
  | GameEnd
  | Observing
  | StoppedObserving
  | MoveList
  | Kibitz
  | Undecoded
  | OtherLine;

export type GameEvent = Exclude<ServerEvent, Undecoded | OtherLine>;
