// Moves as Kibitz writes and reads them, and their replay, written once on top of chessops:
// SAN with pawn drops as `P@e4` (as FICS writes them), UCI with castling as the king's move
// except in chess960, FICS's verbose moves, and the bughouse hand one board cannot know.
import type { Move, Role } from 'chessops';
import { castlingSide, normalizeMove, type Position } from 'chessops/chess';
import { makeFen, parseFen } from 'chessops/fen';
import { makeSanAndPlay, parseSan } from 'chessops/san';
import { Material, MaterialSide } from 'chessops/setup';
import { SquareSet } from 'chessops/squareSet';
import { isDrop, type Color } from 'chessops/types';
import { charToRole, kingCastlesTo, makeUci, parseSquare, parseUci } from 'chessops/util';
import { defaultPosition, setupPosition } from 'chessops/variant';
import { err, ok, type Result } from '../result.js';
import { rulesFor, type Variant } from './variants.js';

/** Style 12's verbose move: `P/e2-e4`, `N/@@-d5`, `P/e7-e8=Q` (castling is `o-o`, `o-o-o`). */
const VERBOSE_MOVE = /^([PNBRQK])\/(@@|[a-h][1-8])-([a-h][1-8])(?:=([NBRQK]))?$/;

const PROMOTION_ROLES: readonly Role[] = ['queen', 'rook', 'bishop', 'knight'];
const DROP_ROLES: readonly Role[] = ['pawn', 'knight', 'bishop', 'rook', 'queen'];

/** SAN as FICS and PGN write it: chessops leaves the P off pawn drops (`@e4`). */
export function sanOf(pos: Position, move: Move): string {
  return playSan(pos, move).san;
}

/**
 * A move's SAN and the position after it. The SAN's check mark needs that position, so it is
 * made on a copy that is then the next position: one play per move, not one to name it and one
 * to play it. `pos` is left as it was.
 */
export function playSan(pos: Position, move: Move): { san: string; after: Position } {
  const after = pos.clone();
  const san = makeSanAndPlay(after, move);
  return { san: san.startsWith('@') ? `P${san}` : san, after };
}

/**
 * Whether the side to move is in check after a move named `san` by chessops: under chess and
 * crazyhouse rules it marks `+` or `#` exactly then (atomic and antichess games end otherwise).
 */
export function checkAfter(after: Position, san: string): boolean {
  if (after.rules !== 'chess' && after.rules !== 'crazyhouse') return after.isCheck();
  return san.endsWith('+') || san.endsWith('#');
}

/**
 * UCI as Kibitz writes it: castling as the king's move (`e1g1`) from the king's home square;
 * chess960, and a king castling from elsewhere, keep chessops' king-takes-rook form.
 */
export function uciOf(pos: Position, move: Move, chess960 = false): string {
  if (isDrop(move) || chess960 || pos.rules === 'antichess') return makeUci(move);
  const side = castlingSide(pos, move);
  if (side !== undefined && move.from === (pos.turn === 'white' ? 4 : 60)) {
    return makeUci({ from: move.from, to: kingCastlesTo(pos.turn, side) });
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
  const m = VERBOSE_MOVE.exec(verbose);
  if (m === null) return undefined;
  const to = parseSquare(m[3]!);
  if (to === undefined) return undefined;
  if (m[2] === '@@') return legal(pos, { role: charToRole(m[1]!.toLowerCase())!, to });
  const promo = m[4] ?? /=([NBRQK])/.exec(san ?? '')?.[1] ?? null;
  return moveFromSquares(pos, m[2]!, m[3]!, promo);
}

/** Style 12's verbose move as UCI without a position: `o-o` e1g1, `N/@@-d5` N@d5, `P/e7-e8=Q` e7e8q. */
export function verboseToUci(verbose: string, mover: Color): string | null {
  const home = mover === 'white' ? '1' : '8';
  if (verbose === 'o-o') return `e${home}g${home}`;
  if (verbose === 'o-o-o') return `e${home}c${home}`;
  const m = VERBOSE_MOVE.exec(verbose);
  if (!m) return null;
  if (m[2] === '@@') return `${m[1]}@${m[3]}`;
  return `${m[2]}${m[3]}${m[4]?.toLowerCase() ?? ''}`;
}

/** The move a SAN names, if legal here. */
export function moveFromSan(pos: Position, san: string): Move | undefined {
  return legal(pos, parseSan(pos, san));
}

/** A position being replayed under one variant's rules. `pos` is mutated by `play`. */
export interface Replay {
  readonly variant: Variant;
  readonly pos: Position;
}

export function startReplay(variant: Variant, startFen?: string): Result<Replay> {
  const rules = rulesFor(variant);
  if (startFen === undefined) return ok({ variant, pos: defaultPosition(rules) });
  const setup = parseFen(startFen);
  if (setup.isErr) return err(`start FEN "${startFen}" is not a FEN (${setup.error.message})`);
  const pos = setupPosition(rules, setup.value);
  if (pos.isErr) return err(`start FEN "${startFen}" is not a legal position (${pos.error.message})`);
  return ok({ variant, pos: pos.value });
}

/**
 * Bughouse hands are fed by the partner board, so one board's moves cannot know them: before each
 * move the mover holds one of every piece and the opponent nothing. Drops are then legal wherever
 * the rules allow, and `#` means mate that no piece from an empty hand could stop.
 */
function prepareBughouseHand(replay: Replay): void {
  if (replay.variant !== 'bughouse') return;
  const hand = MaterialSide.empty();
  for (const role of DROP_ROLES) hand[role] = 1;
  const pockets = Material.empty();
  pockets[replay.pos.turn] = hand;
  replay.pos.pockets = pockets;
}

/** Every legal move, promotions to each piece and drops included. */
export function legalMoves(replay: Replay): Move[] {
  prepareBughouseHand(replay);
  const { pos } = replay;
  const ctx = pos.ctx();
  const moves: Move[] = [];
  for (const [from, dests] of pos.allDests(ctx)) {
    const isPawn = pos.board.pawn.has(from);
    for (const to of dests) {
      if (isPawn && SquareSet.backranks().has(to)) {
        for (const promotion of PROMOTION_ROLES) moves.push({ from, to, promotion });
      } else {
        moves.push({ from, to });
      }
    }
  }
  const hand = pos.pockets?.[pos.turn];
  if (hand) {
    const dropDests = pos.dropDests(ctx);
    for (const role of DROP_ROLES) {
      if (hand[role] <= 0) continue;
      for (const to of dropDests) {
        if (role !== 'pawn' || !SquareSet.backranks().has(to)) moves.push({ role, to });
      }
    }
  }
  return moves;
}

/**
 * The legal move a UCI string names, or undefined. Castling may be written either way: as the king
 * taking its rook or as the king's move to its castled square. In chess960 the second form is
 * ambiguous (f1g1 may be a king step), so there a legal king step wins.
 */
export function parseUciMove(replay: Replay, uci: string): Move | undefined {
  const parsed = parseUci(uci);
  if (!parsed) return undefined;
  prepareBughouseHand(replay);
  const { pos } = replay;
  if (replay.variant !== 'chess960') {
    const move = normalizeMove(pos, parsed);
    return pos.isLegal(move) ? move : undefined;
  }
  if (pos.isLegal(parsed)) return parsed;
  if (isDrop(parsed) || !pos.board.king.has(parsed.from)) return undefined;
  for (const side of ['a', 'h'] as const) {
    const rook = pos.castles.rook[pos.turn][side];
    const castle = { from: parsed.from, to: rook ?? parsed.to };
    if (rook !== undefined && kingCastlesTo(pos.turn, side) === parsed.to && pos.isLegal(castle))
      return castle;
  }
  return undefined;
}

/** The legal move a SAN string names, or undefined. */
export function parseSanMove(replay: Replay, san: string): Move | undefined {
  prepareBughouseHand(replay);
  return parseSan(replay.pos, san);
}

/** Plays a legal move (king-takes-rook form for castling) and names it. */
export function play(replay: Replay, move: Move): { san: string; uci: string } {
  prepareBughouseHand(replay);
  const { pos } = replay;
  const uci = uciOf(pos, move, replay.variant === 'chess960');
  const san = sanOf(pos, move);
  pos.play(move);
  return { san, uci };
}

/** FEN of the position; a bughouse hand is unknown, so it is written empty. */
export function replayFen(replay: Replay): string {
  const setup = replay.pos.toSetup();
  if (replay.variant === 'bughouse') setup.pockets = Material.empty();
  return makeFen(setup);
}

export function sideName(replay: Replay): string {
  return replay.pos.turn === 'white' ? 'White' : 'Black';
}
