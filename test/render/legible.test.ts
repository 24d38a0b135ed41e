// The pictures as Discord shows them: scaled to about 400 px wide. Text that is legible there is
// measured in pixels of the scaled picture, as a reader would see it.
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { renderPng } from '../../render/index.js';
import { computeLayout, DEFAULT_SIZE, type Rect } from '../../render/layout.js';
import { themeByName } from '../../render/theme.js';
import { hex, pixel, squareRect, type Decoded, type Rgb } from './pixels.js';

/** Discord's display width of an embed's image. */
const SHOWN_WIDTH = 400;
/** The smallest glyph height (a digit, in pixels) taken as legible. */
const LEGIBLE_PX = 9;

/** The picture scaled to `width` pixels wide, as a browser scales it. */
async function shownAt(png: Buffer, width: number): Promise<{ img: Decoded; scale: number }> {
  const image = await loadImage(png);
  const scale = width / image.width;
  const canvas = createCanvas(width, Math.round(image.height * scale));
  const ctx = canvas.getContext('2d');
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(image, 0, 0, canvas.width, canvas.height);
  return {
    img: {
      width: canvas.width,
      height: canvas.height,
      rgba: ctx.getImageData(0, 0, canvas.width, canvas.height).data,
    },
    scale,
  };
}

/** Height in pixels of what stands out from the rectangle's top-left pixel (its ground). */
function inkHeight(img: Decoded, rect: Rect): number {
  const ground = pixel(img, rect.x + 1, rect.y + rect.h - 2);
  const rows: number[] = [];
  for (let y = rect.y; y < rect.y + rect.h; y++)
    for (let x = rect.x; x < rect.x + rect.w; x++) {
      const c = pixel(img, x, y);
      if (Math.abs(c[0] - ground[0]) + Math.abs(c[1] - ground[1]) + Math.abs(c[2] - ground[2]) > 90) {
        rows.push(y);
        break;
      }
    }
  return rows.length === 0 ? 0 : rows.at(-1)! - rows[0]! + 1;
}

const scaled = (r: Rect, k: number): Rect => ({
  x: Math.round(r.x * k),
  y: Math.round(r.y * k),
  w: Math.round(r.w * k),
  h: Math.round(r.h * k),
});

describe('a board at Discord’s display size', () => {
  it(`has rank numbers at least ${LEGIBLE_PX} px tall at ${SHOWN_WIDTH} px wide`, async () => {
    const png = renderPng({
      fen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
      orientation: 'white',
      white: { name: 'White', clockMs: 60_000 },
      black: { name: 'Black', clockMs: 60_000 },
    });
    if (!png.ok) throw new Error(png.error);
    const { img, scale } = await shownAt(png.value, SHOWN_WIDTH);
    const layout = computeLayout(DEFAULT_SIZE, { partner: false, footer: false, holdings: false });
    // The empty squares of the a-file carry only their rank number, in their top-left corner.
    for (const name of ['a3', 'a4', 'a5', 'a6']) {
      const square = scaled(squareRect(layout.boards[0]!.board, name, 'white'), scale);
      const corner = { ...square, w: Math.round(square.w / 2), h: Math.round(square.h / 2) };
      expect(inkHeight(img, corner), name).toBeGreaterThanOrEqual(LEGIBLE_PX);
    }
  });
});

describe('file letters at Discord’s display size', () => {
  for (const orientation of ['white', 'black'] as const) {
    it(`are each at least ${LEGIBLE_PX} px tall at ${SHOWN_WIDTH} px wide (${orientation} at the bottom)`, async () => {
      // Nothing else near the first rank: the kings are on the far ranks, the bar under the board empty.
      const png = renderPng({
        fen: 'k6K/8/8/8/8/8/8/8 w - - 0 1',
        orientation,
        white: { name: '' },
        black: { name: '' },
      });
      if (!png.ok) throw new Error(png.error);
      const { img, scale } = await shownAt(png.value, SHOWN_WIDTH);
      const layout = computeLayout(DEFAULT_SIZE, { partner: false, footer: false, holdings: false });
      const board = layout.boards[0]!.board;
      const square = board.w / 8;
      for (let col = 0; col < 8; col++) {
        const file = orientation === 'white' ? 'abcdefgh'[col] : 'hgfedcba'[col];
        const x = board.x + col * square;
        // The letter is in the lower half of the first rank's square, or under the board.
        const inSquare = { x, y: board.y + board.h - square / 2, w: square, h: square / 2 };
        const under = { x, y: board.y + board.h, w: square, h: layout.barHeight };
        const height = Math.max(
          inkHeight(img, scaled(inSquare, scale)),
          inkHeight(img, scaled(under, scale)),
        );
        expect(height, file).toBeGreaterThanOrEqual(LEGIBLE_PX);
      }
    });
  }
});

describe('a bughouse pair at Discord’s display size', () => {
  it('shows each board at least 260 px wide when the picture is 400 px wide', async () => {
    const board = (name: string) => ({ name, clockMs: 60_000 });
    const start = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
    const png = renderPng({
      fen: start,
      rules: 'crazyhouse',
      orientation: 'white',
      white: board('A'),
      black: board('B'),
      holdings: { white: 'PN', black: 'Q' },
      partner: {
        fen: start,
        rules: 'crazyhouse',
        orientation: 'black',
        white: board('C'),
        black: board('D'),
        holdings: { white: '', black: 'RR' },
      },
    });
    if (!png.ok) throw new Error(png.error);
    const { img, scale } = await shownAt(png.value, SHOWN_WIDTH);
    const layout = computeLayout(DEFAULT_SIZE, { partner: true, footer: false, holdings: true });
    expect(layout.boards).toHaveLength(2);
    const [light, dark] = [hex(themeByName('brown').light), hex(themeByName('brown').dark)];
    // A square's colour, or a blend of the two (where the scaling mixes neighbouring squares).
    const isSquare = (c: Rgb) => c.every((v, k) => v >= dark[k]! - 12 && v <= light[k]! + 12);
    for (const [i, panel] of layout.boards.entries()) {
      // Measured on the picture: the run of square colours along the empty fifth rank.
      const shown = scaled(panel.board, scale);
      const y = shown.y + Math.round(shown.h * 0.45);
      let x = 0;
      while (x < img.width && !isSquare(pixel(img, x, y))) x++;
      const left = x;
      while (x < img.width && isSquare(pixel(img, x, y))) x++;
      expect(x - left, `board ${i} width`).toBeGreaterThanOrEqual(260);
      expect(inkHeight(img, scaled(panel.topBar, scale)), `board ${i} name`).toBeGreaterThanOrEqual(
        LEGIBLE_PX,
      );
    }
  });
});

describe('pieces in hand at Discord’s display size', () => {
  const scene = {
    fen: 'rnbqkb1r/pppp1ppp/5n2/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[QRBNPp] w KQkq - 1 3',
    rules: 'crazyhouse' as const,
    orientation: 'white' as const,
    white: { name: 'AlekhineFan1927', rating: '2104', clockMs: 60_000 },
    black: { name: 'Capablanca', rating: '2210', clockMs: 60_000 },
  };

  it('leaves the names as much room as a board without them', () => {
    const plain = computeLayout(DEFAULT_SIZE, { partner: false, footer: false, holdings: false });
    const crazy = computeLayout(DEFAULT_SIZE, { partner: false, footer: false, holdings: true });
    expect(crazy.bar.info).toEqual(plain.bar.info);
  });

  it('draws them at least 22 px tall at 400 px wide', async () => {
    const png = renderPng(scene);
    if (!png.ok) throw new Error(png.error);
    const { img, scale } = await shownAt(png.value, SHOWN_WIDTH);
    const layout = computeLayout(DEFAULT_SIZE, { partner: false, footer: false, holdings: true });
    expect(inkHeight(img, scaled(layout.boards[0]!.bottomHand!, scale))).toBeGreaterThanOrEqual(22);
  });
});
