// The evaluation bar and the best-move arrow, decoded from the PNG with a standard decoder.
import { describe, expect, it } from 'vitest';
import { renderPng, type BoardScene } from '../../render/index.js';
import { computeLayout, DEFAULT_SIZE } from '../../render/layout.js';
import { parseHex, themeByName } from '../../render/theme.js';
import { decodePng, type Decoded } from './pixels.js';

const base: BoardScene = {
  fen: 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3',
  orientation: 'white',
  white: { name: 'Alice', clockMs: 170_000 },
  black: { name: 'Bob', clockMs: 165_000 },
};

async function draw(scene: BoardScene): Promise<Decoded> {
  const png = renderPng(scene);
  if (!png.ok) throw new Error(png.error);
  return decodePng(png.value);
}

function rgbAt(image: Decoded, x: number, y: number): [number, number, number] {
  const i = (y * image.width + x) * 4;
  return [image.rgba[i]!, image.rgba[i + 1]!, image.rgba[i + 2]!];
}

const theme = themeByName('brown');
const WHITE_PART = parseHex(theme.clockActiveBg);
const BLACK_PART = parseHex(theme.footerBg);
const ARROW = parseHex(theme.arrow);

/** The board picture's layout with an evaluation bar (no partner board, footer or hands). */
const LAYOUT = computeLayout(DEFAULT_SIZE, {
  footer: false,
  holdings: false,
  evaluation: true,
});

/** Rows of the bar's middle column that are White's colour, over the board's height. */
function whiteRows(image: Decoded): number {
  const bar = LAYOUT.evaluationBar!;
  const board = LAYOUT.panel.board;
  let rows = 0;
  for (let y = board.y; y < board.y + board.h; y++) {
    if (rgbAt(image, Math.floor(bar.w / 2), y).join() === WHITE_PART.join()) rows++;
  }
  return rows;
}

describe('evaluation bar', () => {
  it('leaves the picture as it was without an evaluation', async () => {
    const plain = await draw(base);
    const none = await draw({ ...base, evaluation: null });
    expect([plain.width, plain.height]).toEqual([DEFAULT_SIZE, 603]);
    expect(Buffer.from(none.rgba).equals(Buffer.from(plain.rgba))).toBe(true);
  });

  it('adds a bar left of the board, the board unchanged and moved right', async () => {
    const plain = await draw(base);
    const shown = await draw({ ...base, evaluation: { cp: 0 } });
    const shift = LAYOUT.evaluationBar!.w;
    expect(shift).toBeGreaterThan(0);
    expect(shown.width).toBe(plain.width + shift);
    expect(shown.height).toBe(plain.height);
    for (const [x, y] of [
      [10, 100],
      [250, 300],
      [470, 500],
    ] as const)
      expect(rgbAt(shown, x + shift, y)).toEqual(rgbAt(plain, x, y));
    // Level: half the bar each.
    expect(Math.abs(whiteRows(shown) - 240)).toBeLessThanOrEqual(1);
  });

  it("fills with White's colour as White's chances grow; a mate fills it one way", async () => {
    const ahead = whiteRows(await draw({ ...base, evaluation: { cp: 300 } }));
    const behind = whiteRows(await draw({ ...base, evaluation: { cp: -300 } }));
    expect(ahead).toBeGreaterThan(300);
    expect(behind).toBeLessThan(180);
    expect(whiteRows(await draw({ ...base, evaluation: { mate: 2 } }))).toBe(480);
    const blackMates = await draw({ ...base, evaluation: { mate: -1 } });
    expect(whiteRows(blackMates)).toBe(0);
    expect(rgbAt(blackMates, 5, 300)).toEqual([...BLACK_PART]);
  });

  it("puts White's part at the bottom for White, at the top when Black is at the bottom", async () => {
    const board = LAYOUT.panel.board;
    const asWhite = await draw({ ...base, evaluation: { cp: 300 } });
    const asBlack = await draw({ ...base, orientation: 'black', evaluation: { cp: 300 } });
    expect(rgbAt(asWhite, 5, board.y + board.h - 2)).toEqual([...WHITE_PART]);
    expect(rgbAt(asBlack, 5, board.y + 2)).toEqual([...WHITE_PART]);
  });
});

describe('best-move arrow', () => {
  const board = LAYOUT.panel.board;
  const square = LAYOUT.square;
  /** Pixel centre of a square seen from White. */
  const centre = (file: number, rank: number) => ({
    x: board.x + Math.round((file + 0.5) * square),
    y: board.y + Math.round((7 - rank + 0.5) * square),
  });

  it('runs from the move’s square to its target', async () => {
    const image = await draw({ ...base, evaluation: { cp: 30, bestMove: 'f1b5' } });
    // Between f1 and b5 the line crosses e2, d3 and c4 at their centres.
    for (const [file, rank] of [
      [4, 1],
      [3, 2],
      [2, 3],
    ] as const) {
      const { x, y } = centre(file, rank);
      expect(rgbAt(image, x, y)).toEqual([...ARROW]);
    }
    // No arrow elsewhere, and none without a best move.
    const away = centre(6, 5);
    expect(rgbAt(image, away.x, away.y)).not.toEqual([...ARROW]);
    const plain = await draw({ ...base, evaluation: { cp: 30 } });
    const { x, y } = centre(3, 2);
    expect(rgbAt(plain, x, y)).not.toEqual([...ARROW]);
  });

  it('draws no arrow for a drop or a malformed move', async () => {
    for (const bestMove of ['P@e4', 'zz99']) {
      const image = await draw({ ...base, evaluation: { cp: 0, bestMove } });
      const plain = await draw({ ...base, evaluation: { cp: 0 } });
      expect(Buffer.from(image.rgba).equals(Buffer.from(plain.rgba))).toBe(true);
    }
  });
});
