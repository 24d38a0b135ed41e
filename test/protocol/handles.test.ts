// FICS handles are at most 17 letters: a server line naming a longer one is malformed, skipped as
// undecoded (the connection logs it shortened), never carried into a game.
import { describe, expect, it } from 'vitest';
import { decodeLine, ObserverDecoder } from '../../src/protocol/decode.js';

const LONG = 'A'.repeat(40_000);
const EIGHTEEN = 'Abcdefghijklmnopqr';
const SEVENTEEN = EIGHTEEN.slice(0, 17);
const board = (white: string, black: string): string =>
  `<12> rnbqkb-r pppppppp -----n-- -------- ----P--- -------- PPPPKPPP RNBQ-BNR B -1 0 0 1 1 0 7 ${white} ${black} 1 2 12 39 39 119 122 2 K/e1-e2 (0:06) Ke2 0`;

describe('a handle longer than FICS allows', () => {
  it('makes a board line undecoded, and 17 letters still decode', () => {
    expect(decodeLine(board(SEVENTEEN, 'Einstein'))).toMatchObject({ kind: 'style12', white: SEVENTEEN });
    for (const [white, black] of [
      [EIGHTEEN, 'Einstein'],
      ['Newton', LONG],
    ] as const) {
      expect(decodeLine(board(white, black))).toMatchObject({
        kind: 'undecoded',
        lineKind: 'style12',
        reason: `a handle of ${Math.max(white.length, black.length)} characters (FICS allows at most 17)`,
      });
    }
  });

  it('makes game start and end notices undecoded', () => {
    expect(decodeLine(`{Game 12 (${SEVENTEEN} vs. Bob) Creating rated blitz match.}`)).toMatchObject({
      kind: 'gameCreated',
    });
    expect(decodeLine(`{Game 12 (${LONG} vs. Bob) Creating rated blitz match.}`)).toMatchObject({
      kind: 'undecoded',
    });
    expect(decodeLine(`{Game 12 (Bob vs. ${EIGHTEEN}) Bob resigns} 0-1`)).toMatchObject({
      kind: 'undecoded',
    });
    expect(decodeLine(`{Game 12 (Bob vs. ${SEVENTEEN}) Bob resigns} 0-1`)).toMatchObject({ kind: 'gameEnd' });
  });

  it('is not taken for a game header', () => {
    const header = (white: string): string => `Game 12: ${white} (1500) Bob (1600) rated blitz 3 0`;
    expect(decodeLine(header(SEVENTEEN))).toMatchObject({ kind: 'gameHeader', white: SEVENTEEN });
    expect(decodeLine(header(LONG))).toMatchObject({ kind: 'other' });
  });

  it('ends a move list as undecoded', () => {
    const events = new ObserverDecoder().lines([
      'Movelist for game 157:',
      '',
      `${LONG} (UNR) vs. guestGGG (UNR) --- Sat Aug 11, 09:21 PDT 2012`,
      'Unrated blitz match, initial time: 2 minutes, increment: 12 seconds.',
    ]);
    expect(events.some((e) => e.kind === 'moveList')).toBe(false);
    expect(events.find((e) => e.kind === 'undecoded')).toMatchObject({ lineKind: 'moveList' });
  });
});
