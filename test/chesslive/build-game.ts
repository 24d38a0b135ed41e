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

/** Ply `i` of a game as one object. */
export function plyOf(game: GameRecord, i: number): { san?: string; uci?: string; clockMs?: number | null } {
  return { san: game.san[i], uci: game.uci[i], clockMs: game.clocksMs[i] };
}

/** A game from SAN moves; `clocks` gives each move a clock in ms. */
export function gameFromSan(
  variant: FileVariant,
  sans: string[],
  options: { startFen?: string; clocks?: boolean } = {},
): GameRecord {
  const pos = startPosition(variant, options.startFen);
  const uci = sans.map((san) => {
    const move = parseSan(pos, san);
    if (!move) throw new Error(`test game: ${san} is not legal`);
    const written = uciOf(pos, move, variant);
    pos.play(move);
    return written;
  });
  const clocksMs = sans.map((_, i) => (options.clocks === false ? null : 60_000 - i * 1000));
  const game: GameRecord = {
    white: 'W',
    black: 'B',
    variant,
    san: [...sans],
    uci,
    clocksMs,
    result: '*',
    reason: null,
  };
  if (options.startFen !== undefined) game.startFen = options.startFen;
  return game;
}
