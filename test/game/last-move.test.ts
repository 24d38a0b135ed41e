// The move a picture marks as last must be one that could have led to the position shown.
import { describe, expect, it } from 'vitest';
import { checkLastMove } from '../../src/game/last-move.js';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const AFTER_E4 = 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1';
/** 1.e4 d5 2.exd5: White's pawn took on d5, Black to move. */
const AFTER_EXD5 = 'rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2';
/** White has castled short: king g1, rook f1, Black to move. */
const CASTLED = 'r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1';
/** White promoted on a8 to a queen. */
const PROMOTED = 'Q3k3/8/8/8/8/8/8/4K3 b - - 0 1';
/** Crazyhouse: White dropped a knight on e5. */
const DROPPED = 'rnbqkbnr/pppppppp/8/4N3/8/8/PPPPPPPP/RNBQKBNR[] b KQkq - 0 1';
/** A bishop of Black's on g4 with its path from c8 blocked on d7. */
const BLOCKED = 'rn1qkbnr/pppppppp/8/8/6b1/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

describe('checkLastMove', () => {
  it.each([
    [AFTER_E4, 'e2e4'],
    [AFTER_EXD5, 'e4d5'],
    [CASTLED, 'e1g1'],
    [PROMOTED, 'a7a8q'],
    [DROPPED, 'N@e5'],
    [AFTER_E4, 'e3e4'],
  ])('%s: %s could have led here', (fen, uci) => {
    expect(checkLastMove(fen, uci)).toEqual({ ok: true, value: undefined });
  });

  it.each([
    [START, 'c8g4', /no black piece on g4/],
    [AFTER_E4, 'e7e5', /no white piece on e5/],
    [AFTER_E4, 'd2e4', /d2 is not empty/],
    [AFTER_E4, 'e1e4', /e1 is not empty/],
    [AFTER_E4, 'e5e4', /a pawn cannot move from e5 to e4/],
    [BLOCKED, 'c8g4', /a bishop cannot move from c8 to g4/],
    [PROMOTED, 'a7a8r', /the piece on a8 is a queen, not a rook/],
    [PROMOTED, 'b6a8q', /a pawn cannot move from b6 to a8/],
    [CASTLED, 'e1c1', /no white piece on c1/],
    [DROPPED, 'B@e5', /the piece on e5 is a knight/],
    [START, 'e9e4', /invalid last move "e9e4"/],
  ])('%s: %s is refused (%s)', (fen, uci, why) => {
    const checked = checkLastMove(fen, uci);
    expect(checked.ok).toBe(false);
    expect(checked.ok ? '' : checked.error).toMatch(why);
  });

  it('a double step needs its pawn on its first rank and the square it passed empty', () => {
    expect(checkLastMove('4k3/8/8/8/4P3/8/8/4K3 b - - 0 1', 'e2e4').ok).toBe(true);
    expect(checkLastMove('4k3/8/8/8/4P3/4n3/8/4K3 b - - 0 1', 'e2e4').ok).toBe(false);
    expect(checkLastMove('4k3/8/8/4P3/8/8/8/4K3 b - - 0 1', 'e3e5').ok).toBe(false);
  });
});
