// chessops glue: positions from Style 12 boards, board comparison, moves from FICS notations.
import type { Move, Piece, Role, Rules } from 'chessops';
import { castlingSide, type Position } from 'chessops/chess';
import { makeBoardFen, makeFen, parseBoardFen, parsePockets } from 'chessops/fen';
import { makeSan, parseSan } from 'chessops/san';
import { Material, defaultSetup, type Setup } from 'chessops/setup';
import { SquareSet } from 'chessops/squareSet';
import { charToRole, kingCastlesTo, makeUci, parseSquare } from 'chessops/util';
import { defaultPosition, setupPosition } from 'chessops/variant';
import type { Holdings, Style12 } from '../protocol/events.js';
import { ranksToBoardFen } from '../protocol/style12.js';
import type { Variant } from './snapshot.js';

/** chessops rules that decide legality for a FICS variant. */
export function rulesFor(variant: Variant): Rules {
  switch (variant) {
    case 'crazyhouse':
    case 'bughouse':
      return 'crazyhouse';
    case 'suicide':
      return 'antichess';
    case 'atomic':
      return 'atomic';
    default:
      return 'chess';
  }
}

/** Variant from a FICS game type (`blitz`, `crazyhouse`, `blitz bughouse`, `wild/fr`, `zh`). */
export function variantFromType(type: string): Variant {
  if (/bughouse|\bbug\b/.test(type)) return 'bughouse';
  if (/crazyhouse|\bzh\b/.test(type)) return 'crazyhouse';
  if (/wild|\bw\d|chess960|fr\b/.test(type)) return 'wild';
  if (/suicide/.test(type)) return 'suicide';
  if (/atomic/.test(type)) return 'atomic';
  if (/losers/.test(type)) return 'losers';
  return 'chess';
}

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

/** SAN as FICS and PGN write it: chessops leaves the P off pawn drops (`@e4`). */
export function sanOf(pos: Position, move: Move): string {
  const san = makeSan(pos, move);
  return san.startsWith('@') ? `P${san}` : san;
}

/** UCI as the project writes it: castling as the king's move (e1g1) in standard chess. */
export function uciOf(pos: Position, move: Move): string {
  if (!('from' in move)) return makeUci(move);
  const side = castlingSide(pos, move);
  if (side !== undefined && pos.rules !== 'antichess') {
    const kingTo = kingCastlesTo(pos.turn, side);
    // Only rewrite when it is a normal castle (king from its home file): 960 keeps king-takes-rook.
    if (move.from === (pos.turn === 'white' ? 4 : 60)) return makeUci({ from: move.from, to: kingTo });
  }
  return makeUci(move);
}

function legal(pos: Position, move: Move | undefined): Move | undefined {
  return move !== undefined && pos.isLegal(move) ? move : undefined;
}

/** A move from coordinates as FICS gives them (`e1g1` castling as the king's move). */
export function moveFromSquares(
  pos: Position,
  from: string,
  to: string,
  promotion: string | null,
): Move | undefined {
  const f = parseSquare(from);
  const t = parseSquare(to);
  if (f === undefined || t === undefined) return undefined;
  const role: Role | undefined = promotion === null ? undefined : charToRole(promotion.toLowerCase());
  const direct = legal(pos, { from: f, to: t, promotion: role });
  if (direct !== undefined) return direct;
  // chessops encodes castling as king-takes-rook.
  const piece = pos.board.get(f);
  if (piece?.role === 'king' && Math.abs(f - t) === 2) {
    const rookSquare = t > f ? f + 3 : f - 4;
    return legal(pos, { from: f, to: rookSquare });
  }
  return undefined;
}

/** Verbose Style 12 moves: `P/e2-e4`, `o-o`, `o-o-o`, `N/@@-d5`, `P/e7-e8=Q` (lasker drops `=Q`). */
export function moveFromVerbose(pos: Position, verbose: string, san: string | null): Move | undefined {
  if (verbose === 'o-o' || verbose === 'o-o-o') {
    return legal(pos, parseSan(pos, verbose === 'o-o' ? 'O-O' : 'O-O-O'));
  }
  const m = /^([PNBRQK])\/(@@|[a-h][1-8])-([a-h][1-8])(?:=([NBRQK]))?$/.exec(verbose);
  if (m === null) return undefined;
  const to = parseSquare(m[3]!);
  if (to === undefined) return undefined;
  if (m[2] === '@@') return legal(pos, { role: charToRole(m[1]!.toLowerCase())!, to });
  const promo = m[4] ?? /=([NBRQK])/.exec(san ?? '')?.[1] ?? null;
  return moveFromSquares(pos, m[2]!, m[3]!, promo);
}

/** The move a SAN names, if legal here. */
export function moveFromSan(pos: Position, san: string): Move | undefined {
  return legal(pos, parseSan(pos, san));
}
