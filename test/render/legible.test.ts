// The pictures as Discord shows them: scaled to about 400 px wide. Text that is legible there is
// measured in pixels of the scaled picture, as a reader would see it.
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { renderPng } from '../../render/index.js';
import { computeLayout, DEFAULT_SIZE, type Rect } from '../../render/layout.js';
import { pixel, squareRect, type Decoded } from './pixels.js';

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
      const square = scaled(squareRect(layout.columns[0]!.board, name, 'white'), scale);
      const corner = { ...square, w: Math.round(square.w / 2), h: Math.round(square.h / 2) };
      expect(inkHeight(img, corner), name).toBeGreaterThanOrEqual(LEGIBLE_PX);
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
    expect(inkHeight(img, scaled(layout.columns[0]!.bottomHand!, scale))).toBeGreaterThanOrEqual(22);
  });
});
