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
    const layout = computeLayout(DEFAULT_SIZE, { footer: false, holdings: false });
    // The empty squares of the a-file carry only their rank number, in their top-left corner.
    for (const name of ['a3', 'a4', 'a5', 'a6']) {
      const square = scaled(squareRect(layout.panel.board, name, 'white'), scale);
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
      const layout = computeLayout(DEFAULT_SIZE, { footer: false, holdings: false });
      const board = layout.panel.board;
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

/**
 * How Discord's clients fit an embed's image, by third-party measurements (not Discord's docs):
 * desktop into about 400 px wide and 300 px tall (leovoel/embed-visualizer#30: 420x600 shown
 * 300 tall; opengraphplus.com: "up to ~400px wide on desktop, ~300px max height"); the rule the
 * pictures were first fitted to, 400 px wide whatever the height.
 */
const DISPLAY_RULES = {
  '400x300': { width: 400, height: 300 },
  '400 wide': { width: 400, height: Infinity },
} as const;

/** A picture fitted into a client's box: never enlarged, its shape kept. */
async function fittedInto(
  png: Buffer,
  box: { width: number; height: number },
): Promise<{ img: Decoded; scale: number }> {
  const image = await loadImage(png);
  const scale = Math.min(1, box.width / image.width, box.height / image.height);
  return shownAt(png, Math.round(image.width * scale));
}

/**
 * Two board pictures joined into one: one below the other (the stacked pair Kibitz posted before
 * the two embeds, with the same gap) or side by side.
 */
async function joined(pictures: Buffer[], across: boolean, gap: number): Promise<Buffer> {
  const images = await Promise.all(pictures.map((p) => loadImage(p)));
  const w = across ? images.reduce((n, i) => n + i.width, gap) : Math.max(...images.map((i) => i.width));
  const h = across ? Math.max(...images.map((i) => i.height)) : images.reduce((n, i) => n + i.height, gap);
  const canvas = createCanvas(w, h);
  const ctx = canvas.getContext('2d');
  let at = 0;
  for (const image of images) {
    ctx.drawImage(image, across ? at : 0, across ? 0 : at);
    at += (across ? image.width : image.height) + gap;
  }
  return canvas.toBuffer('image/png');
}

describe('a bughouse pair at Discord’s display size', () => {
  const player = (name: string) => ({ name, clockMs: 60_000 });
  const start = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
  const game = {
    fen: start,
    rules: 'crazyhouse' as const,
    orientation: 'white' as const,
    white: player('A'),
    black: player('B'),
    holdings: { white: 'PN', black: 'Q' },
  };
  const partner = {
    ...game,
    orientation: 'black' as const,
    white: player('C'),
    black: player('D'),
    holdings: { white: '', black: 'RR' },
  };
  const drawn = (scene: Parameters<typeof renderPng>[0]): Buffer => {
    const png = renderPng(scene);
    if (!png.ok) throw new Error(png.error);
    return png.value;
  };
  // The space between the boards of the stacked pair Kibitz posted before.
  const gap = Math.round(computeLayout(DEFAULT_SIZE, { footer: false, holdings: true }).square / 2);
  const [light, dark] = [hex(themeByName('brown').light), hex(themeByName('brown').dark)];
  // A square's colour, or a blend of the two (where the scaling mixes neighbouring squares).
  const isSquare = (c: Rgb) => c.every((v, k) => v >= dark[k]! - 12 && v <= light[k]! + 12);

  /** The width of a board as shown, measured along its empty fifth rank: the run of square colours. */
  function shownWidth(img: Decoded, board: Rect, scale: number): number {
    const shown = scaled(board, scale);
    const y = shown.y + Math.round(shown.h * 0.45);
    let x = Math.max(0, shown.x - 2);
    while (x < img.width && !isSquare(pixel(img, x, y))) x++;
    const left = x;
    while (x < img.width && isSquare(pixel(img, x, y))) x++;
    return x - left;
  }

  it('shows each board as large as a single game’s, in two pictures, under either display rule', async () => {
    const single = computeLayout(DEFAULT_SIZE, { footer: false, holdings: true });
    const pictures = [drawn(game), drawn(partner)];
    const { width, height } = single;
    const ways = {
      'two pictures': pictures.map((png) => ({ png, boards: [single.panel.board] })),
      // What Kibitz posted before: one picture, the partner board below.
      stacked: [
        {
          png: await joined(pictures, false, gap),
          boards: [single.panel.board, { ...single.panel.board, y: single.panel.board.y + height + gap }],
        },
      ],
      // The same two pictures side by side, about as wide as the picture before last round's (990 px).
      'side by side': [
        {
          png: await joined(pictures, true, gap),
          boards: [single.panel.board, { ...single.panel.board, x: width + gap }],
        },
      ],
    };
    const figures: Record<string, Record<string, number[]>> = {};
    for (const [rule, box] of Object.entries(DISPLAY_RULES)) {
      figures[rule] = {};
      for (const [way, shown] of Object.entries(ways)) {
        const widths: number[] = [];
        for (const { png, boards } of shown) {
          const { img, scale } = await fittedInto(png, box);
          for (const board of boards) widths.push(shownWidth(img, board, scale));
        }
        figures[rule][way] = widths;
      }
    }
    // The figures of docs/watching.md, per board in displayed pixels.
    console.info(`bughouse boards as shown (${width}x${height} per picture):`, JSON.stringify(figures));
    const fit = figures['400x300']!;
    const wide = figures['400 wide']!;
    // Each board as a single game's board: ~209 px in 400x300, the whole 400 px at 400 wide.
    const singleShown = Math.floor(Math.min(400 / width, 300 / height) * single.panel.board.w);
    for (const w of fit['two pictures']!) expect(w).toBeGreaterThanOrEqual(singleShown - 2);
    for (const w of wide['two pictures']!) expect(w).toBeGreaterThanOrEqual(396);
    // Either joined picture shows each board smaller under the 400x300 rule.
    for (const way of ['stacked', 'side by side'])
      for (const w of fit[way]!) expect(w, way).toBeLessThan(Math.min(...fit['two pictures']!) - 10);
  });

  it('shows the names about twice as tall in two pictures as in the stacked one, at 400x300', async () => {
    const single = computeLayout(DEFAULT_SIZE, { footer: false, holdings: true });
    const nameHeight = async (png: Buffer, bar: Rect): Promise<number> => {
      const { img, scale } = await fittedInto(png, DISPLAY_RULES['400x300']);
      return inkHeight(img, scaled({ ...bar, w: single.bar.info.w }, scale));
    };
    // Black's bar, away from the side to move's clock (White moves on both boards): at the top of
    // the game's board, at the bottom of the partner's (turned).
    const { topBar, bottomBar } = single.panel;
    const apart = [await nameHeight(drawn(game), topBar), await nameHeight(drawn(partner), bottomBar)];
    const stackedPng = await joined([drawn(game), drawn(partner)], false, gap);
    const stacked = [
      await nameHeight(stackedPng, topBar),
      await nameHeight(stackedPng, { ...bottomBar, y: bottomBar.y + single.height + gap }),
    ];
    console.info('name glyph height at 400x300, px:', JSON.stringify({ 'two pictures': apart, stacked }));
    for (const [i, h] of apart.entries()) expect(h).toBeGreaterThanOrEqual(1.5 * stacked[i]!);
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
    const plain = computeLayout(DEFAULT_SIZE, { footer: false, holdings: false });
    const crazy = computeLayout(DEFAULT_SIZE, { footer: false, holdings: true });
    expect(crazy.bar.info).toEqual(plain.bar.info);
  });

  it('draws them at least 22 px tall at 400 px wide', async () => {
    const png = renderPng(scene);
    if (!png.ok) throw new Error(png.error);
    const { img, scale } = await shownAt(png.value, SHOWN_WIDTH);
    const layout = computeLayout(DEFAULT_SIZE, { footer: false, holdings: true });
    expect(inkHeight(img, scaled(layout.panel.bottomHand!, scale))).toBeGreaterThanOrEqual(22);
  });
});
