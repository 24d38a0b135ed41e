// Board PNGs made of cached region rows (render/region-deflate.ts) hold exactly the rows the whole
// frame paints: every position of the fixture games, every theme, two sizes, with and without the
// evaluation bar and arrow, flipped, with a result strip, crazyhouse holdings. zlib's inflate reads
// each IDAT (and checks its Adler-32); a sample is also decoded by skia against the palette.
import { describe, expect, it } from 'vitest';
import { renderPng, THEME_NAMES, type BoardScene } from '../../render/index.js';
import { HEAVY_TEST_MS } from '../support/bounds.js';
import { ficsFixtureScenes, fixtureScenes, withClocks } from './game-scenes.js';
import { decodePng, paintedFrame, pngRows } from './pixels.js';

function png(scene: BoardScene): Buffer {
  const out = renderPng(scene);
  if (!out.ok) throw new Error(out.error);
  return out.value;
}

const SIZES = [480, 300];
/** Every theme x size x (evaluation and arrow, flipped, result strip): 80 looks. */
const LOOKS = THEME_NAMES.flatMap((theme) =>
  SIZES.flatMap((size) =>
    [0, 1, 2, 3, 4, 5, 6, 7].map((flags) => ({
      theme,
      size,
      evaluation: (flags & 1) !== 0,
      flipped: (flags & 2) !== 0,
      result: (flags & 4) !== 0,
    })),
  ),
);

/** Every position of the fixture games (the crazyhouse ones with holdings), each in two looks. */
function allScenes(): BoardScene[] {
  const games = [
    withClocks(fixtureScenes('korchnoi-karpov-1974.pgn')),
    withClocks(fixtureScenes('crazyhouse-random-105.pgn')),
    ...ficsFixtureScenes().map((game) => game.scenes),
  ];
  let n = 0;
  return games.flatMap((scenes) =>
    scenes.flatMap((scene, ply) =>
      [0, LOOKS.length / 2 + 1].map((shift) => {
        const look = LOOKS[(n++ + shift) % LOOKS.length]!;
        // The arrow: the game's next move, as an engine would suggest it.
        const next = scenes[ply + 1]?.lastMove ?? null;
        return {
          ...scene,
          theme: look.theme,
          size: look.size,
          orientation: look.flipped ? 'black' : 'white',
          evaluation: look.evaluation ? { cp: ((ply * 37) % 900) - 450, bestMove: next } : null,
          result: look.result
            ? { result: '1/2-1/2', reason: `Game drawn by repetition after ${ply} plies` }
            : null,
        } satisfies BoardScene;
      }),
    ),
  );
}

describe('board PNG from cached region rows', () => {
  const scenes = allScenes();

  it(
    'inflates to the rows the whole frame paints, for every position in every look',
    () => {
      expect(scenes.length).toBeGreaterThan(1_500);
      let wrong = 0;
      for (const scene of scenes) {
        if (!pngRows(png(scene)).equals(paintedFrame(scene).rows)) wrong++;
      }
      expect(wrong).toBe(0);
    },
    HEAVY_TEST_MS,
  );

  it('keeps apart squares that look alike but hold different parts of an arrow on a turned board', () => {
    // h8 (top right, White below) and a1 (top right, Black below) are both empty dark squares: the
    // same look, where the arrow a1-h8 has its head in one and its tail in the other.
    const scene: BoardScene = {
      fen: '4k3/8/8/8/8/8/8/4K3 w - - 0 1',
      orientation: 'white',
      white: { name: 'A' },
      black: { name: 'B' },
      evaluation: { cp: 20, bestMove: 'a1h8' },
    };
    for (const orientation of ['white', 'black'] as const) {
      const turned = { ...scene, orientation };
      expect(pngRows(png(turned)).equals(paintedFrame(turned).rows)).toBe(true);
    }
  });

  it(
    'gives the same bytes for a scene whether its regions were cached or not',
    () => {
      const scene = scenes[200]!;
      const first = png(scene);
      for (const other of scenes.slice(0, 400)) png(other);
      expect(png(scene).equals(first)).toBe(true);
    },
    HEAVY_TEST_MS,
  );

  it(
    'decodes in skia to the palette colours of the painted rows',
    async () => {
      for (const scene of scenes.filter((_, i) => i % 97 === 0)) {
        const image = await decodePng(png(scene));
        const { rows, rgb, width } = paintedFrame(scene);
        expect(image.width).toBe(width);
        let wrong = 0;
        for (let y = 0; y < image.height; y++) {
          for (let x = 0; x < width; x++) {
            const index = rows[y * (width + 1) + 1 + x]!;
            const at = (y * width + x) * 4;
            for (let c = 0; c < 3; c++) if (image.rgba[at + c] !== rgb[index * 3 + c]) wrong++;
          }
        }
        expect(wrong).toBe(0);
      }
    },
    HEAVY_TEST_MS,
  );
});
