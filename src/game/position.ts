// chessops glue: positions from Style 12 boards, board comparison, hands and captures.
import type { Move, Piece, Role } from 'chessops';
import { castlingSide, type Position } from 'chessops/chess';
import { makeBoardFen, makeFen, parseBoardFen, parsePockets } from 'chessops/fen';
import { Material, defaultSetup, type Setup } from 'chessops/setup';
import { SquareSet } from 'chessops/squareSet';
import { parseSquare } from 'chessops/util';
import { defaultPosition, setupPosition } from 'chessops/variant';
import type { Holdings, Style12 } from '../protocol/events.js';
import { ranksToBoardFen } from '../protocol/style12.js';
import { rulesFor, type Variant } from './variants.js';

export function startPosition(variant: Variant): Position {
  return defaultPosition(rulesFor(variant));
}

/** The board part of a FEN without crazyhouse promotion marks, for comparison with `<12>` ranks. */
export function boardKey(pos: Position): string {
  return makeBoardFen(pos.board).replace(/~/g, '');
}

export function boardMatches(pos: Position, board: Style12): boolean {
  return boardKey(pos) === ranksToBoardFen(board.ranks);
}

/** Pieces in hand as FICS writes them (`PPN`), per side. */
export function holdingsFrom(pockets: Material): Holdings {
  const letters = (color: 'white' | 'black'): string =>
    HAND_ROLES.map(([letter, role]) => letter.repeat(pockets[color][role])).join('');
  return { white: letters('white'), black: letters('black') };
}

const HAND_ROLES = [
  ['P', 'pawn'],
  ['N', 'knight'],
  ['B', 'bishop'],
  ['R', 'rook'],
  ['Q', 'queen'],
] as const satisfies readonly (readonly [string, Role])[];

/** The role of a hand piece letter (`P`, `N`, `B`, `R`, `Q`), if it is one. */
export function handRole(letter: string): Role | undefined {
  return HAND_ROLES.find(([l]) => l === letter.toUpperCase())?.[1];
}

/**
 * lasker credits a phantom piece to the holdings when someone castles in crazyhouse and bughouse:
 * the piece standing on g6 (short) or c4 (long) before the move, whoever castles.
 */
export function laskerPhantom(pos: Position, move: Move): Piece | undefined {
  const side = 'from' in move ? castlingSide(pos, move) : undefined;
  if (side === undefined) return undefined;
  return pos.board.get(parseSquare(side === 'h' ? 'g6' : 'c4')!);
}

export function castles(pos: Position, move: Move): boolean {
  return 'from' in move && castlingSide(pos, move) !== undefined;
}

/** The hand piece a capture yields (a promoted piece goes back as a pawn); null for no capture. */
export function capturedRole(pos: Position, move: Move): Role | null {
  if (!('from' in move) || castles(pos, move)) return null;
  const victim = pos.board.get(move.to);
  if (victim === undefined) {
    const enPassant = pos.board.get(move.from)?.role === 'pawn' && move.to === pos.epSquare;
    return enPassant ? 'pawn' : null;
  }
  return pos.board.promoted.has(move.to) ? 'pawn' : victim.role;
}

/**
 * Plays a move on a bughouse board: a drop uses a piece in hand, but a capture goes to the
 * partner board, not to the capturer's hand as in crazyhouse.
 */
export function playBughouse(pos: Position, move: Move): void {
  const pockets = pos.pockets?.clone();
  const mover = pos.turn;
  pos.play(move);
  if (pockets === undefined) return;
  if ('role' in move) pockets[mover][move.role] = Math.max(0, pockets[mover][move.role] - 1);
  pos.pockets = pockets;
}

export function pocketsFrom(holdings: Holdings): Material {
  const parsed = parsePockets(holdings.white.toUpperCase() + holdings.black.toLowerCase());
  return parsed.isOk ? parsed.value : Material.empty();
}

/**
 * A setup from a full board, trusting the server's fields. Used only where no move history
 * can tell better (first board seen, resynchronisation).
 */
export function setupFromStyle12(board: Style12, holdings: Holdings | null): Setup | null {
  const parsed = parseBoardFen(ranksToBoardFen(board.ranks));
  if (!parsed.isOk) return null;
  const setup = defaultSetup();
  setup.board = parsed.value;
  setup.turn = board.sideToMove;
  const rights: number[] = [];
  const rookAt = (name: string, white: boolean): void => {
    const sq = parseSquare(name)!;
    const piece = setup.board.get(sq);
    if (piece?.role === 'rook' && (piece.color === 'white') === white) rights.push(sq);
  };
  if (board.castling.whiteShort) rookAt('h1', true);
  if (board.castling.whiteLong) rookAt('a1', true);
  if (board.castling.blackShort) rookAt('h8', false);
  if (board.castling.blackLong) rookAt('a8', false);
  setup.castlingRights = rights.reduce((set, sq) => set.with(sq), SquareSet.empty());
  if (board.doublePushFile >= 0) {
    setup.epSquare = board.doublePushFile + (board.sideToMove === 'white' ? 40 : 16);
  }
  if (holdings !== null) setup.pockets = pocketsFrom(holdings);
  setup.halfmoves = Math.max(0, board.halfmoveClock);
  setup.fullmoves = board.moveNumber;
  return setup;
}

export function positionFromSetup(setup: Setup, variant: Variant): Position | null {
  const rules = rulesFor(variant);
  const withPockets =
    rules === 'crazyhouse' && !setup.pockets ? { ...setup, pockets: Material.empty() } : setup;
  const pos = setupPosition(rules, withPockets);
  return pos.isOk ? pos.value : null;
}

export function fenOfSetup(setup: Setup): string {
  return makeFen(setup);
}
