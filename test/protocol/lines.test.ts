import { describe, expect, it } from 'vitest';
import { decodeLine, ObserverDecoder } from '../../src/protocol/decode.js';
import { MAX_LIST_PLIES } from '../../src/protocol/movelist.js';
import { decodeStyle12, parseMoveTime, ranksToBoardFen } from '../../src/protocol/style12.js';

const HELP_EXAMPLE =
  '<12> rnbqkb-r pppppppp -----n-- -------- ----P--- -------- PPPPKPPP RNBQ-BNR B -1 0 0 1 1 0 7 Newton Einstein 1 2 12 39 39 119 122 2 K/e1-e2 (0:06) Ke2 0';

describe('Style 12', () => {
  it('reads every documented field of the help example (31 fields, seconds)', () => {
    const s = decodeStyle12(HELP_EXAMPLE);
    expect(s).toMatchObject({
      kind: 'style12',
      sideToMove: 'black',
      doublePushFile: -1,
      castling: { whiteShort: false, whiteLong: false, blackShort: true, blackLong: true },
      halfmoveClock: 0,
      game: 7,
      white: 'Newton',
      black: 'Einstein',
      relation: 1,
      initialTime: 2,
      incrementSec: 12,
      whiteStrength: 39,
      blackStrength: 39,
      whiteClockMs: 119_000,
      blackClockMs: 122_000,
      clocksInMs: false,
      moveNumber: 2,
      ply: 3,
      verboseMove: 'K/e1-e2',
      moveTimeMs: 6000,
      san: 'Ke2',
      flip: false,
      clockTicking: null,
      lagMs: null,
    });
    if (s.kind === 'style12')
      expect(ranksToBoardFen(s.ranks)).toBe('rnbqkb1r/pppppppp/5n2/8/4P3/8/PPPPKPPP/RNBQ1BNR');
  });

  it('accepts the tag glued to the first rank, as in the help text', () => {
    expect(decodeStyle12(HELP_EXAMPLE.replace('<12> ', '<12>')).kind).toBe('style12');
  });

  it('reads milliseconds (iset ms), clock-ticking, lag, negative clocks and further fields', () => {
    const line =
      '<12> rnbqkbnr pppppppp -------- -------- -------- -------- PPPPPPPP RNBQKBNR W -1 1 1 1 1 0 16 A B 0 5 2 39 39 -3283 300000 1 none (0:00.703) none 0 1 250 future 7';
    expect(decodeStyle12(line)).toMatchObject({
      whiteClockMs: -3283,
      blackClockMs: 300_000,
      clocksInMs: true,
      moveTimeMs: 703,
      verboseMove: null,
      san: null,
      clockTicking: true,
      lagMs: 250,
      extra: ['future', '7'],
    });
  });

  it('reads move times in every form the servers use, and rejects others', () => {
    expect(parseMoveTime('(0:06)')).toEqual({ ms: 6000, precise: false });
    expect(parseMoveTime('(1:02:03)')).toEqual({ ms: 3_723_000, precise: false });
    expect(parseMoveTime('(0:00.703)')).toEqual({ ms: 703, precise: true });
    expect(parseMoveTime('(0:00.7)')).toEqual({ ms: 700, precise: true });
    for (const bad of ['(soon)', '(1:2:3:4)', '(:06)', '(0:)', '(0:06.1234)', '()', '(1.5)', '0:06']) {
      expect(parseMoveTime(bad), bad).toBeNull();
    }
  });

  it('reads drops, promotions and every relation code', () => {
    const base = HELP_EXAMPLE.split(' ');
    for (const relation of [-4, -3, -2, -1, 0, 1, 2]) {
      const t = [...base];
      t[19] = String(relation);
      expect(decodeStyle12(t.join(' ')), `relation ${relation}`).toMatchObject({ relation });
    }
    const drop = [...base];
    drop[27] = 'N/@@-d5';
    drop[29] = 'N@d5';
    expect(decodeStyle12(drop.join(' '))).toMatchObject({ verboseMove: 'N/@@-d5', san: 'N@d5' });
    const promo = [...base];
    promo[27] = 'P/e7-e8=Q';
    expect(decodeStyle12(promo.join(' '))).toMatchObject({ verboseMove: 'P/e7-e8=Q' });
  });

  it('reports malformed lines with the reason, never throws', () => {
    const cases: [string, RegExp][] = [
      ['<12> rnbqkbnr', /fields/],
      [HELP_EXAMPLE.replace('rnbqkb-r', 'rnbqkb-x'), /bad rank/],
      [HELP_EXAMPLE.replace(' B -1 ', ' X -1 '), /side to move/],
      [HELP_EXAMPLE.replace('Einstein 1 2', 'Einstein 9 2'), /relation/],
      [HELP_EXAMPLE.replace('(0:06)', '(soon)'), /move time/],
      [HELP_EXAMPLE.replace(' 119 ', ' 1x9 '), /not a number/],
    ];
    for (const [line, reason] of cases) {
      const event = decodeStyle12(line);
      expect(event.kind, line).toBe('undecoded');
      if (event.kind === 'undecoded') expect(event.reason).toMatch(reason);
    }
  });
});

describe('delta boards', () => {
  it('reads smith notation: captures, promotions, castling, en passant', () => {
    expect(decodeLine('<d1> 2 64 Rxc2 e2c2p 1200 203800')).toMatchObject({
      kind: 'delta',
      game: 2,
      ply: 64,
      san: 'Rxc2',
      from: 'e2',
      to: 'c2',
      captured: 'p',
      moveTimeMs: 1200,
      clockMs: 203_800,
      lagMs: null,
    });
    expect(decodeLine('<d1> 1 9 bxa8=Q b7a8rQ 10 20 0')).toMatchObject({
      captured: 'r',
      promotion: 'Q',
      lagMs: 0,
    });
    expect(decodeLine('<d1> 1 9 O-O e1g1c 10 20')).toMatchObject({ castle: 'short' });
    expect(decodeLine('<d1> 1 9 O-O-O e8c8C 10 20')).toMatchObject({ castle: 'long' });
    expect(decodeLine('<d1> 1 9 exf6 e5f6E 10 20')).toMatchObject({ enPassant: true });
    // The documented example of a delta board has a negative clock.
    expect(decodeLine('<d1> 157 6 Qd8 d5d8 1686813 -1548885 0')).toMatchObject({ clockMs: -1_548_885 });
  });

  it('reports bad deltas', () => {
    expect(decodeLine('<d1> 2 64 Rxc2 e2c9p 1200 203800')).toMatchObject({
      kind: 'undecoded',
      lineKind: 'delta',
    });
    expect(decodeLine('<d1> 2 x Rxc2 e2c2 1 2')).toMatchObject({
      kind: 'undecoded',
      reason: expect.stringMatching(/ply/),
    });
    expect(decodeLine('<d1> 2 64')).toMatchObject({ kind: 'undecoded' });
  });
});

describe('game numbers', () => {
  // Found by npm run fuzz: these decoded to games 0, -1 and 9007199254740992.
  it('refuses 0, negative and oversized game numbers in every kind of line', () => {
    const board = HELP_EXAMPLE.split(' ');
    const game = 16; // <12>, 8 ranks, side, double push, 4 castling rights, halfmove clock
    const bad = ['0', '-1', '9007199254740993', '1234567890'];
    for (const number of bad) {
      const lines = [
        Object.assign([...board], { [game]: number }).join(' '),
        `<d1> ${number} 3 c4 c2c4 178 179822 0`,
        `<b1> game ${number} white [PP] black []`,
        `<g1> ${number} p=0 t=blitz r=0`,
        `{Game ${number} (GuestA vs. GuestB) GuestA resigns} 0-1`,
        `You are now observing game ${number}.`,
      ];
      for (const line of lines) {
        const event = decodeLine(line);
        expect('game' in event ? event.game : null, line).not.toBe(Number(number));
        expect(event.kind, line).toMatch(/undecoded|other/);
      }
    }
    // The largest game number taken, and the help's own board, still decode.
    expect(decodeLine('<d1> 999999999 3 c4 c2c4 178 179822 0')).toMatchObject({ game: 999_999_999 });
    expect(decodeLine(board.join(' '))).toMatchObject({ kind: 'style12', game: Number(board[game]) });
  });
});

describe('holdings, game info and life-cycle lines', () => {
  it('reads <b1> with a board and standalone passes, in any case', () => {
    expect(decodeLine('<b1> game 6 white [PNBBB] black [PNB]')).toEqual({
      kind: 'holdings',
      game: 6,
      holdings: { white: 'PNBBB', black: 'PNB' },
      passed: null,
    });
    expect(decodeLine('<b1> game 3 White [NQ] Black [PPR] <- WQ')).toMatchObject({
      passed: { to: 'white', piece: 'Q' },
    });
    expect(decodeLine('<b1> game 52 white [NB] black [N] <- BN')).toMatchObject({ passed: { to: 'black' } });
    expect(decodeLine('<b1> game x white []')).toMatchObject({ kind: 'undecoded', lineKind: 'holdings' });
  });

  it('reads <g1> with keys beyond the help page', () => {
    expect(
      decodeLine('<g1> 16 p=0 t=blitz r=0 u=1,1 it=300,2 i=300,2 pt=21 rt=0,0 ts=0,0 m=2 n=0'),
    ).toMatchObject({
      kind: 'gameinfo',
      game: 16,
      partnerGame: 21,
      rated: false,
      type: 'blitz',
      fields: { m: '2', n: '0', it: '300,2' },
    });
  });

  it('reads game starts, ends, observation notices', () => {
    expect(decodeLine('Game 463: schachbjm (2243) Maras (2158E) rated standard 45 45')).toMatchObject({
      kind: 'gameHeader',
      whiteRating: '2243',
      blackRating: '2158E',
      rated: true,
      type: 'standard',
      initialMinutes: 45,
    });
    expect(decodeLine('Game 2: A (++++) B (++++) unrated blitz bughouse 5 0')).toMatchObject({
      type: 'blitz bughouse',
    });
    expect(decodeLine('{Game 124 (FlixxG vs. Schoon) Continuing rated blitz match.}')).toMatchObject({
      kind: 'gameCreated',
      rated: true,
      type: 'blitz',
    });
    expect(decodeLine('{Game 16 (A vs. B) A resigns} 0-1')).toMatchObject({
      kind: 'gameEnd',
      reason: 'A resigns',
      result: '0-1',
    });
    expect(decodeLine('{Game 112 (A vs. B) Game aborted on move 1} *')).toMatchObject({ result: '*' });
    expect(decodeLine('Game 127: Black checkmated 1-0')).toMatchObject({ kind: 'gameEnd', white: null });
    expect(decodeLine('You are now observing game 13.')).toEqual({ kind: 'observing', game: 13 });
    expect(decodeLine('Removing game 13 from observation list.')).toMatchObject({ kind: 'stoppedObserving' });
    expect(decodeLine('Game 16: GuestCDCR requests to take back 1 half-move(s).')).toMatchObject({
      kind: 'other',
    });
    expect(decodeLine('{Game 16 (A vs. B) something odd')).toMatchObject({ kind: 'undecoded' });
  });
});

describe('move lists', () => {
  const list = [
    'Movelist for game 157:',
    '',
    'guestHHH (UNR) vs. guestGGG (UNR) --- Sat Aug 11, 09:21 PDT 2012',
    'Unrated blitz match, initial time: 2 minutes, increment: 12 seconds.',
    '',
    'Move  guestHHH           guestGGG           ',
    '----  ----------------   ----------------',
    '  1.  e4      (0:00)     d5      (0:00)  ',
    '  2.  exd5    (0:04)     Qxd5    (0:06.250)  ',
    '  3.  Nc3     (0:08)  ',
    '      {Still in progress} *',
  ];

  it('assembles the help example into one event, with timed moves', () => {
    const events = new ObserverDecoder().lines(list);
    const lists = events.filter((e) => e.kind === 'moveList');
    expect(lists).toHaveLength(1);
    expect(lists[0]).toMatchObject({
      game: 157,
      white: 'guestHHH',
      black: 'guestGGG',
      rated: false,
      type: 'blitz',
      initialMinutes: 2,
      incrementSec: 12,
      result: '*',
      reason: 'Still in progress',
      moves: [
        { san: 'e4', timeMs: 0 },
        { san: 'd5', timeMs: 0 },
        { san: 'exd5', timeMs: 4000 },
        { san: 'Qxd5', timeMs: 6250 },
        { san: 'Nc3', timeMs: 8000 },
      ],
    });
    expect(events.some((e) => e.kind === 'undecoded')).toBe(false);
  });

  it('reads lasker lists (no title line) and lets boards through in the middle', () => {
    const board = HELP_EXAMPLE;
    const events = new ObserverDecoder().lines([...list.slice(2, 8), board, ...list.slice(8)]);
    expect(events.map((e) => e.kind).filter((k) => k !== 'other')).toEqual(['style12', 'moveList']);
    const moveList = events.find((e) => e.kind === 'moveList');
    expect(moveList).toMatchObject({ game: null, moves: { length: 5 } });
  });

  it('reports a list that breaks off', () => {
    const events = new ObserverDecoder().lines([...list.slice(0, 4), 'garbage here']);
    expect(events.find((e) => e.kind === 'undecoded')).toMatchObject({ lineKind: 'moveList' });
  });

  it('gives up a list that never ends past the most plies a list may have', () => {
    const rows = Array.from(
      { length: MAX_LIST_PLIES / 2 + 1 },
      (_, i) => `  ${i + 1}.  Nf3  (0:01)  Nf6  (0:01)`,
    );
    const events = new ObserverDecoder().lines([...list.slice(0, 7), ...rows]);
    expect(events.filter((e) => e.kind === 'undecoded')).toEqual([
      expect.objectContaining({ lineKind: 'moveList', reason: `more than ${MAX_LIST_PLIES} plies` }),
    ]);
    expect(events.some((e) => e.kind === 'moveList')).toBe(false);
  });
});
