// Whole-game GIFs decoded by omggif: frame count, timing, frames that hold only what changed, every
// frame as shown equal to its scene drawn whole, and the last frame equal to the PNG of the final
// position.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HEAVY_TEST_MS } from '../support/bounds.js';
import { renderGif, renderPng, type BoardScene } from '../../render/index.js';
import { MAX_GIF_BYTES, MAX_GIF_FRAMES, gifScenes } from '../../render/game-gif.js';
import { GifWriter } from '../../render/gif.js';
import { computeLayout } from '../../render/layout.js';
import { composeScene, readScene } from '../../render/compose.js';
import { TRANSPARENT } from '../../render/palette.js';
import { fixtureScenes, withClocks } from './game-scenes.js';
import { decodeGif, decodePng, expectBoard, type Decoded } from './pixels.js';
import { Dice } from '../load/random.js';

function unwrap(out: { ok: true; value: Buffer } | { ok: false; error: string }): Buffer {
  if (!out.ok) throw new Error(out.error);
  return out.value;
}

async function expectSameImage(frame: Decoded, png: Buffer): Promise<void> {
  const image = await decodePng(png);
  expect([image.width, image.height]).toEqual([frame.width, frame.height]);
  expect(Buffer.from(frame.rgba).equals(Buffer.from(image.rgba))).toBe(true);
}

describe('whole-game GIF', () => {
  const scenes = fixtureScenes('korchnoi-karpov-1974.pgn');
  const bytes = unwrap(renderGif(scenes));
  const { reader, frames } = decodeGif(bytes);

  it('has one frame per position, the last held longer', () => {
    expect(scenes).toHaveLength(158); // the start and 157 plies
    expect(reader.numFrames()).toBe(158);
    expect(reader.frameInfo(1).delay).toBe(80);
    expect(reader.frameInfo(156).delay).toBe(80);
    expect(reader.frameInfo(157).delay).toBe(400);
    expect(reader.loopCount()).toBe(0);
  });

  it('ends on the final position, pixel for pixel the PNG of it', async () => {
    expect(scenes.at(-1)!.fen).toBe('8/8/8/5q2/8/6p1/1R1K1k2/7Q b - - 40 79');
    await expectSameImage(frames.at(-1)!, unwrap(renderPng(scenes.at(-1)!)));
  });

  it('shows each position in its frame', () => {
    const board = computeLayout(480, { footer: true, holdings: false }).panel.board;
    for (const ply of [0, 1, 2, 15, 40, 99, 130]) expectBoard(frames[ply]!, board, scenes[ply]!.fen, 'white');
  });

  it('carries only the changed squares after the first frame', () => {
    const first = reader.frameInfo(0);
    expect([first.x, first.y, first.width, first.height]).toEqual([0, 0, reader.width, reader.height]);
    // 1. d4: d2 and d4 change, with d3 between them: one column of three squares.
    const d4 = reader.frameInfo(1);
    expect([d4.x, d4.y, d4.width, d4.height]).toEqual([3 * 60, 48 + 4 * 60, 60, 3 * 60]);
    expect(d4.transparent_index).toBe(255);
    expect(d4.disposal).toBe(1);
  });
});

/**
 * The scene drawn whole as the GIF draws it (the first scene's look, the layout for all of them,
 * no turn marker): each pixel's RGBA as one little-endian 32-bit word, as decoded frames hold it.
 */
function wholeFrame(scene: BoardScene, first: BoardScene, footer: boolean): Uint32Array {
  const read = readScene(scene);
  if (!read.ok) throw new Error(read.error);
  const needs = { footer, holdings: read.value.holdings !== null };
  const frame = composeScene({ ...scene, theme: first.theme, size: first.size }, read.value, needs, false);
  const indices = new Uint8Array(frame.width * frame.height);
  for (const region of frame.regions) region.paint({ data: indices, stride: frame.width, base: 0 });
  const rgb = frame.palette.rgb;
  const colours = Uint32Array.from(
    { length: 256 },
    (_, i) => ((255 << 24) | (rgb[i * 3 + 2]! << 16) | (rgb[i * 3 + 1]! << 8) | rgb[i * 3]!) >>> 0,
  );
  const words = new Uint32Array(indices.length);
  for (let p = 0; p < indices.length; p++) words[p] = colours[indices[p]!]!;
  return words;
}

/** The first frame whose pixels differ from its scene drawn whole; -1 when none does. */
function firstWrongFrame(scenes: BoardScene[], frames: Decoded[]): number {
  const footer = scenes.some((s) => s.result);
  return scenes.findIndex((scene, i) => {
    const { rgba } = frames[i]!;
    const want = wholeFrame(scene, scenes[0]!, footer);
    return !Buffer.from(rgba.buffer, rgba.byteOffset, rgba.byteLength).equals(Buffer.from(want.buffer));
  });
}

describe('GIF frames as shown', () => {
  it(
    'show after every ply the scene drawn whole: no changed block missing or misplaced',
    { timeout: HEAVY_TEST_MS },
    () => {
      // Clocks that change every ply, as in a live game: the blocks of a ply reach from a bar to the board.
      const scenes = withClocks(fixtureScenes('korchnoi-karpov-1974.pgn'));
      const { frames } = decodeGif(unwrap(renderGif(scenes)));
      expect(frames).toHaveLength(scenes.length);
      expect(firstWrongFrame(scenes, frames)).toBe(-1);
    },
  );

  it('show every ply of a crazyhouse game, pieces in hand included', { timeout: HEAVY_TEST_MS }, () => {
    const scenes = withClocks(fixtureScenes('crazyhouse-random-105.pgn'));
    const { frames } = decodeGif(unwrap(renderGif(scenes)));
    expect(firstWrongFrame(scenes, frames)).toBe(-1);
  });
});

describe('crazyhouse GIF', () => {
  it('ends on the final position with its holdings', { timeout: HEAVY_TEST_MS }, async () => {
    const scenes = fixtureScenes('crazyhouse-random-105.pgn');
    const { reader, frames } = decodeGif(unwrap(renderGif(scenes)));
    expect(reader.numFrames()).toBe(106);
    expect(scenes.at(-1)!.fen).toBe(
      'r1b5/p3n1Qk/2p1N1p1/r7/2P3p1/4rNr1/4n~1BN/n~4K2[pppppppppbbq] b - - 3 53',
    );
    await expectSameImage(frames.at(-1)!, unwrap(renderPng(scenes.at(-1)!)));
  });
});

describe('GIF writer', () => {
  it('reports an empty game as an error value', () => {
    expect(renderGif([])).toEqual({ ok: false, error: 'no positions to animate' });
  });

  it('writes any indices, at any offset, so that a standard decoder reads them back', () => {
    // Sizes and colour counts that cross the 9..12-bit code widths and the 4096-code clear.
    const frame = fc.record({
      width: fc.integer({ min: 1, max: 300 }),
      height: fc.integer({ min: 1, max: 120 }),
      colours: fc.integer({ min: 1, max: 256 }),
      seed: fc.integer(),
      run: fc.integer({ min: 1, max: 64 }),
    });
    // Palette entry i has red = i, so a decoded pixel's red is its index.
    const palette = new Uint8Array(768).map((_, i) => (i % 3 === 0 ? i / 3 : 0));
    fc.assert(
      fc.property(frame, ({ width, height, colours, seed, run }) => {
        const pixels = new Uint8Array(width * height);
        let state = seed >>> 0 || 1;
        for (let i = 0; i < pixels.length; i++) {
          if (i % run === 0) state = (Math.imul(state, 1103515245) + 12345) >>> 0;
          pixels[i] = (state >>> 16) % colours;
        }
        const screen = { width: width + 3, height: height + 2 };
        const writer = new GifWriter(screen.width, screen.height, palette);
        const background = new Uint8Array(screen.width * screen.height);
        writer.frame({ x: 0, y: 0, ...screen, pixels: background, delayMs: 100, transparentIndex: null });
        writer.frame({ x: 3, y: 2, width, height, pixels, delayMs: 100, transparentIndex: null });
        const { rgba } = decodeGif(writer.finish()).frames[1]!;
        const decoded = new Uint8Array(width * height);
        for (let y = 0; y < height; y++) {
          for (let x = 0; x < width; x++) {
            decoded[y * width + x] = rgba[((y + 2) * screen.width + x + 3) * 4]!;
          }
        }
        expect(Buffer.from(decoded).equals(Buffer.from(pixels))).toBe(true);
      }),
      { numRuns: 60 },
    );
  });
});

describe('GIF writer runs', () => {
  it('writes long runs of the transparent index, in any mix with other indices, as a standard decoder reads them', () => {
    // Runs of the transparent index up to several rows long, between runs of other indices: the
    // encoder skips through such runs, across its 9..12-bit code widths and its 4096-code clear.
    const frame = fc.record({
      width: fc.integer({ min: 1, max: 300 }),
      height: fc.integer({ min: 1, max: 120 }),
      seed: fc.integer(),
      longest: fc.integer({ min: 1, max: 5_000 }),
      share: fc.double({ min: 0, max: 1, noNaN: true }),
    });
    // Palette entry i has red = i, so a decoded pixel's red is its index.
    const palette = new Uint8Array(768).map((_, i) => (i % 3 === 0 ? i / 3 : 0));
    fc.assert(
      fc.property(frame, ({ width, height, seed, longest, share }) => {
        const pixels = new Uint8Array(width * height);
        const dice = new Dice(seed);
        for (let i = 0; i < pixels.length;) {
          const transparent = dice.chance(share);
          const run = 1 + dice.int(transparent ? longest : 8);
          pixels.fill(transparent ? TRANSPARENT : dice.int(4), i, i + run);
          i += run;
        }
        // Under the frame, a first one all of the transparent index (drawn, being opaque there).
        const writer = new GifWriter(width, height, palette);
        writer.frame({
          x: 0,
          y: 0,
          width,
          height,
          pixels: new Uint8Array(width * height).fill(TRANSPARENT),
          delayMs: 100,
          transparentIndex: null,
        });
        writer.frame({ x: 0, y: 0, width, height, pixels, delayMs: 100, transparentIndex: TRANSPARENT });
        const { rgba } = decodeGif(writer.finish()).frames[1]!;
        const decoded = pixels.map((_, i) => rgba[i * 4]!);
        expect(Buffer.from(decoded).equals(Buffer.from(pixels))).toBe(true);
      }),
      { numRuns: 80 },
    );
  });
});

describe('GIF bounds', () => {
  const game = fixtureScenes('korchnoi-karpov-1974.pgn');
  // A game of about 2,000 plies: the same 157 played over and over.
  const long = Array.from({ length: 13 }, () => game).flat();

  it(
    'keeps a long game to MAX_GIF_FRAMES frames: the start, then its last moves, ending on the final one',
    { timeout: HEAVY_TEST_MS },
    async () => {
      expect(long.length).toBeGreaterThan(MAX_GIF_FRAMES);
      const bytes = unwrap(renderGif(long));
      const { reader, frames } = decodeGif(bytes);
      expect(reader.numFrames()).toBe(MAX_GIF_FRAMES);
      expect(bytes.length).toBeLessThan(MAX_GIF_BYTES);
      await expectSameImage(frames.at(-1)!, unwrap(renderPng(long.at(-1)!)));
      expect(gifScenes(long)).toEqual([long[0], ...long.slice(long.length - MAX_GIF_FRAMES + 1)]);
    },
  );

  it('gives a GIF up once it passes its byte bound', () => {
    const out = renderGif(game, { maxBytes: 100_000 });
    expect(out).toEqual({
      ok: false,
      error: expect.stringMatching(/^the GIF passed 100000 bytes at frame \d+ of 158$/),
    });
  });
});

describe('GIF timing and cuts', () => {
  const game = fixtureScenes('korchnoi-karpov-1974.pgn');

  it('shows each position for a quarter of the time its next move took, within 0.3-3 s', () => {
    // Move times 2 s, 40 s, 0.1 s, unknown: 0.5 s, 3 s (the most), 0.3 s (the least), 0.8 s.
    const times = [2_000, 40_000, 100, null];
    const scenes = game
      .slice(0, 6)
      .map((s, i) => (i >= 1 && i <= 4 ? { ...s, moveTimeMs: times[i - 1] } : s));
    const { reader } = decodeGif(unwrap(renderGif(scenes)));
    expect([0, 1, 2, 3, 4].map((i) => reader.frameInfo(i).delay)).toEqual([50, 300, 30, 80, 80]);
  });

  it('says on its first frame what a long game’s GIF leaves out', async () => {
    const layout = computeLayout(480, { footer: true, holdings: false });
    const footer = layout.panel.footer!;
    const inked = (frame: Decoded): number => {
      let n = 0;
      for (let y = footer.y; y < footer.y + footer.h; y++)
        for (let x = footer.x; x < footer.x + footer.w; x++)
          if (frame.rgba[(y * frame.width + x) * 4]! > 200) n++;
      return n;
    };
    const whole = decodeGif(unwrap(renderGif(game))).frames[0]!;
    const cut = decodeGif(unwrap(renderGif(game, { maxFrames: 20 })));
    expect(inked(whole)).toBe(0);
    expect(inked(cut.frames[0]!)).toBeGreaterThan(200);
    expect(cut.reader.frameInfo(0).delay).toBe(300);
  });
});
