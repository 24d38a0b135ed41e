// Chess rules for the move files, on top of chessops: the start position of a variant, the legal
// moves, and SAN/UCI written with this module's conventions (see LiveMove).
import { castlingSide, normalizeMove } from 'chessops/chess';
import type { Position } from 'chessops/chess';
import { makeFen, parseFen } from 'chessops/fen';
import { makeSanAndPlay, parseSan } from 'chessops/san';
import { Material, MaterialSide } from 'chessops/setup';
import { SquareSet } from 'chessops/squareSet';
import { isDrop } from 'chessops/types';
import type { Move, Role } from 'chessops/types';
import { kingCastlesTo, makeSquare, makeUci, parseUci } from 'chessops/util';
import { defaultPosition, setupPosition } from 'chessops/variant';
import type { LiveGame, LiveMove, LiveVariant, Result } from './model.js';
import { err, ok } from './model.js';

/** A position being replayed under one variant's rules. `pos` is mutated by `play`. */
export interface Replay {
  readonly variant: LiveVariant;
  readonly pos: Position;
}

const PROMOTION_ROLES: readonly Role[] = ['queen', 'rook', 'bishop', 'knight'];
const DROP_ROLES: readonly Role[] = ['pawn', 'knight', 'bishop', 'rook', 'queen'];

export function startReplay(variant: LiveVariant, startFen?: string): Result<Replay> {
  const rules = variant === 'crazyhouse' || variant === 'bughouse' ? 'crazyhouse' : 'chess';
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
export function play(replay: Replay, move: Move): Pick<LiveMove, 'san' | 'uci'> {
  prepareBughouseHand(replay);
  const { pos } = replay;
  const side = castlingSide(pos, move);
  let uci = makeUci(move);
  if (side && !isDrop(move) && replay.variant !== 'chess960') {
    uci = makeSquare(move.from) + makeSquare(kingCastlesTo(pos.turn, side));
  }
  const san = makeSanAndPlay(pos, move);
  // chessops writes pawn drops `@e4`; FICS and the rest of Kibitz write `P@e4`.
  return { san: san.startsWith('@') ? `P${san}` : san, uci };
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

/** The legal move for a game's move `index` (0-based), or an error naming it and the position. */
export function gameMove(replay: Replay, m: LiveMove, index: number): Result<Move> {
  const move = parseUciMove(replay, m.uci);
  if (move) return ok(move);
  return err(
    `move ${index + 1} (${m.san}): UCI "${m.uci}" is not a legal move for ${sideName(replay)} in ${replayFen(replay)}`,
  );
}

/** Replays a game's UCI moves from its start; the error names the first move that is not legal. */
export function replayGame(game: LiveGame): Result<Replay> {
  const start = startReplay(game.variant, game.startFen);
  if (!start.ok) return start;
  const replay = start.value;
  for (const [i, m] of game.moves.entries()) {
    const move = gameMove(replay, m, i);
    if (!move.ok) return move;
    play(replay, move.value);
  }
  return ok(replay);
}
