// The pictures in words: what a screen reader says for a board, a game's GIF and its clock chart.
import { describe, expect, it } from 'vitest';
import {
  ALT_TEXT_MAX,
  describeAnimation,
  describeBoard,
  describeChart,
  sanInWords,
} from '../../render/alt-text.js';
import type { BoardScene } from '../../render/scene.js';
import { startReplay } from '../../src/game/moves.js';
import { recordScenes } from '../../src/game/scenes.js';
import { parseSanMove, play } from '../../src/game/moves.js';

describe('sanInWords', () => {
  it.each([
    ['Nf3', 'knight to f3'],
    ['Nxf3+', 'knight takes f3, check'],
    ['e4', 'pawn to e4'],
    ['exd5', 'pawn takes d5'],
    ['exd8=Q#', 'pawn takes d8, promotes to queen, checkmate'],
    ['Rae1', 'rook from a to e1'],
    ['N@e4+', 'knight dropped on e4, check'],
    ['P@f7', 'pawn dropped on f7'],
    ['O-O', 'castles kingside'],
    ['o-o-o', 'castles queenside'],
    ['Qh5!?', 'queen to h5'],
    ['none', 'none'],
  ])('%s is "%s"', (san, words) => {
    expect(sanInWords(san)).toBe(words);
  });
});

const scene = (extra: Partial<BoardScene> = {}): BoardScene => ({
  fen: 'rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2',
  orientation: 'white',
  lastMove: 'g1f3',
  lastSan: 'Nf3',
  white: { name: 'Alice', rating: '1500', clockMs: 182_000 },
  black: { name: 'Bob', rating: '++++', clockMs: 9_400 },
  ...extra,
});

describe('describeBoard', () => {
  it('names the players, clocks, side to move, the last move in words and the FEN', () => {
    expect(describeBoard(scene())).toBe(
      'Chess board, White at the bottom. White: Alice (1500), clock 3:02. Black: Bob, clock 0:09.4. ' +
        'Black to move. Last move: 2. Nf3, knight to f3. ' +
        'FEN: rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2',
    );
  });

  it("numbers Black's move with dots, and says check", () => {
    const text = describeBoard(
      scene({
        fen: 'rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3',
        lastSan: 'Qh4#',
        result: { result: '0-1', reason: 'White checkmated' },
      }),
    );
    expect(text).toContain('Game over: 0-1 · White checkmated.');
    expect(text).toContain('Last move: 2... Qh4#, queen to h4, checkmate.');
    expect(text).not.toContain('to move');
  });

  it('lists pieces in hand; a bughouse partner board is named so in its own picture', () => {
    const text = describeBoard(scene({ rules: 'crazyhouse', holdings: { white: 'PPN', black: '' } }));
    expect(text).toContain('In hand: White 1 knight, 2 pawns; Black nothing.');
    const partner = describeBoard(
      scene({ white: { name: 'Carol' }, black: { name: 'Dan' }, lastSan: null }),
      'Partner board',
    );
    expect(partner).toMatch(
      /^Partner board, White at the bottom\. White: Carol\. Black: Dan\. Black to move\. FEN/,
    );
  });

  it('stays within Discord’s 1,024 characters whatever the names', () => {
    const long = 'N'.repeat(5_000);
    const big = scene({
      white: { name: long, rating: '9'.repeat(400) },
      black: { name: long },
      result: { result: '1-0', reason: long },
    });
    const text = describeBoard(big);
    expect(text.length).toBeLessThanOrEqual(ALT_TEXT_MAX);
    expect(text).toMatch(/^Chess board/);
  });
});

function game(sans: string[]): BoardScene[] {
  const replay = startReplay('chess');
  if (!replay.ok) throw new Error(replay.error);
  const uci = sans.map((san) => play(replay.value, parseSanMove(replay.value, san)!).uci);
  const scenes = recordScenes(
    {
      white: 'Alice',
      black: 'Bob',
      variant: 'chess',
      san: sans,
      uci,
      clocksMs: [],
      result: '1-0',
      reason: null,
    },
    {
      initialClockMs: null,
      white: { name: 'Alice' },
      black: { name: 'Bob' },
      handsAfter: [],
      finalHoldings: null,
      ended: true,
    },
    {},
  );
  if (!scenes.ok) throw new Error(scenes.error);
  return scenes.value;
}

describe('describeAnimation', () => {
  it('says how many moves it shows and where it ends', () => {
    const text = describeAnimation(game(['e4', 'e5', 'Nf3', 'Nc6']));
    expect(text).toContain('all 4 half-moves');
    expect(text).toContain('Last move: 2... Nc6, knight to c6.');
    expect(text).toContain('Game over: 1-0.');
  });

  it('says what a long game’s animation leaves out', () => {
    const shuffle = Array.from({ length: 40 }, (_, i) => ['Nf3', 'Nf6', 'Ng1', 'Ng8'][i % 4]!);
    const text = describeAnimation(game(shuffle), 11);
    expect(text).toContain('only the last 10 of 40 half-moves; the 30 before them are left out');
  });
});

describe('describeChart', () => {
  it('names the lines, the final clocks and the longest move', () => {
    const text = describeChart({
      white: 'Alice',
      black: 'Bob',
      firstMover: 'white',
      firstMoveNumber: 1,
      initialClockMs: 180_000,
      clocksMs: [178_000, 179_000, 120_000, 170_000],
    });
    expect(text).toContain('Alice (White, near-white line) against Bob (Black, blue line)');
    expect(text).toContain('4 half-moves');
    expect(text).toContain('Final clocks: White 2:00, Black 2:50.');
    expect(text).toContain("Longest move: White's move 2, 0:58.");
  });
});
