// Builds test games straight from chessops (independently of the module under test).
import { castlingSide } from 'chessops/chess';
import { parseFen } from 'chessops/fen';
import { parseSan } from 'chessops/san';
import { isDrop } from 'chessops/types';
import { kingCastlesTo, makeSquare, makeUci } from 'chessops/util';
import { defaultPosition, setupPosition } from 'chessops/variant';
import type { Position } from 'chessops/chess';
import type { Move } from 'chessops/types';
import type { GameRecord } from '../../src/game/record.js';
import type { FileVariant } from '../../src/game/variants.js';

export function startPosition(variant: FileVariant, fen?: string): Position {
  const rules = variant === 'crazyhouse' || variant === 'bughouse' ? 'crazyhouse' : 'chess';
  return fen === undefined ? defaultPosition(rules) : setupPosition(rules, parseFen(fen).unwrap()).unwrap();
}

/** UCI as RecordMove documents it: castling as the king's target square except in chess960. */
export function uciOf(pos: Position, move: Move, variant: FileVariant): string {
  const side = castlingSide(pos, move);
  if (side && !isDrop(move) && variant !== 'chess960') {
    return makeSquare(move.from) + makeSquare(kingCastlesTo(pos.turn, side));
  }
  return makeUci(move);
}

/** A game from SAN moves; `clocks` gives each move a clock in ms. */
export function gameFromSan(
  variant: FileVariant,
  sans: string[],
  options: { startFen?: string; clocks?: boolean } = {},
): GameRecord {
  const pos = startPosition(variant, options.startFen);
  const moves = sans.map((san, i) => {
    const move = parseSan(pos, san);
    if (!move) throw new Error(`test game: ${san} is not legal`);
    const uci = uciOf(pos, move, variant);
    pos.play(move);
    return { san, uci, clockMs: options.clocks === false ? null : 60_000 - i * 1000 };
  });
  const game: GameRecord = { white: 'W', black: 'B', variant, moves, result: '*' };
  if (options.startFen !== undefined) game.startFen = options.startFen;
  return game;
}
