// The cache of coded region rows (render/region-deflate.ts) on frames made up here: what is kept,
// what is painted again, what is evicted, and that the stream is always the frame's rows.
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { Frame, Region } from '../../render/compose.js';
import { Palette } from '../../render/palette.js';
import { deflateFrame, frameCoder, RegionCache, type FrameCoder } from '../../render/region-deflate.js';
import { fillRect } from '../../render/surface.js';

const palette = new Palette([
  [0, 0, 0],
  [255, 255, 255],
]);

/** What each region painted, by key, so a test can tell a cached region from a painted one. */
let painted: (string | number)[] = [];

/** A region whose pixels are a pattern made from `look` (which is its key): bands, runs, noise. */
function region(x: number, y: number, w: number, h: number, look: number): Region {
  return {
    x,
    y,
    w,
    h,
    key: look,
    paint: (s) => {
      painted.push(look);
      fillRect(s, x, y, w, h, look & 255);
      for (let row = 0; row < h; row++)
        for (let col = 0; col < w; col += 1 + (look % 5))
          if ((row * 7 + col * look) % 11 < 3)
            s.data[s.base + (y + row) * s.stride + x + col] = (col * look + row) & 255;
    },
  };
}

/** A 3 x 2 grid of regions (the middle column wider), their looks given. */
function frame(looks: readonly number[], width = 90, height = 50): Frame {
  const xs = [0, 20, 70, width];
  const ys = [0, 30, height];
  const regions: Region[] = [];
  for (let r = 0; r < 2; r++)
    for (let c = 0; c < 3; c++)
      regions.push(region(xs[c]!, ys[r]!, xs[c + 1]! - xs[c]!, ys[r + 1]! - ys[r]!, looks[r * 3 + c]!));
  return { width, height, palette, regions };
}

/** The rows as the whole image painted at once: every region, filter bytes 0. */
function reference(f: Frame): Buffer {
  const stride = f.width + 1;
  const rows = new Uint8Array(stride * f.height);
  const before = painted;
  painted = [];
  for (const r of f.regions) r.paint({ data: rows, stride, base: 1 });
  painted = before;
  return Buffer.from(rows);
}

function scratch(f: Frame): Uint8Array {
  return new Uint8Array((f.width + 1) * f.height);
}

/** deflateFrame's stream inflated by zlib (which checks the Adler-32), and what was painted for it. */
function draw(
  coder: FrameCoder,
  f: Frame,
  cache: RegionCache,
): { rows: Buffer; painted: (string | number)[] } {
  painted = [];
  const stream = deflateFrame(coder, f, cache, scratch(f));
  return { rows: inflateSync(stream), painted };
}

function coderFor(sample: Frame): FrameCoder {
  const coder = frameCoder(sample, scratch(sample));
  painted = [];
  return coder;
}

describe('deflate of cached region rows', () => {
  it('paints only the regions whose key changed, and keeps both looks', () => {
    const cache = new RegionCache(1 << 20);
    const first = frame([1, 2, 3, 4, 5, 6]);
    const coder = coderFor(first);
    const one = draw(coder, first, cache);
    expect(one.rows.equals(reference(first))).toBe(true);
    expect(one.painted).toEqual([1, 2, 3, 4, 5, 6]);
    const second = frame([1, 2, 3, 4, 7, 6]);
    const two = draw(coder, second, cache);
    expect(two.rows.equals(reference(second))).toBe(true);
    expect(two.painted).toEqual([7]);
    const again = draw(coder, first, cache);
    expect(again.rows.equals(reference(first))).toBe(true);
    expect(again.painted).toEqual([]);
  });

  it('keys an entry by its rectangle too: the same look elsewhere is painted there', () => {
    const cache = new RegionCache(1 << 20);
    const first = frame([1, 2, 3, 4, 5, 6]);
    const coder = coderFor(first);
    draw(coder, first, cache);
    const swapped = frame([2, 1, 3, 4, 5, 6]);
    const out = draw(coder, swapped, cache);
    expect(out.rows.equals(reference(swapped))).toBe(true);
    expect(out.painted).toEqual([2, 1]);
  });

  it('stays within its bound, least recently used out first, and the rows stay right', () => {
    const looks = (i: number): number[] => [1, 2, 3, 4, 5, 10 + i];
    const probe = new RegionCache(1 << 30);
    const sample = frame(looks(0));
    const coder = coderFor(sample);
    draw(coder, sample, probe);
    // Room for twice one frame's regions: some tens of frames' new regions fill it.
    const bound = 2 * probe.bytes;
    const cache = new RegionCache(bound);
    const small = coderFor(sample);
    for (let i = 0; i < 30; i++) {
      const f = frame(looks(i));
      const out = draw(small, f, cache);
      expect(out.rows.equals(reference(f))).toBe(true);
      expect(cache.bytes).toBeLessThanOrEqual(bound);
      // The five regions seen every frame stay; only the new one is painted.
      if (i > 0) expect(out.painted).toEqual([10 + i]);
    }
    // The newest are kept, the oldest went (which proves the cache was full).
    expect(draw(small, frame(looks(29)), cache).painted).toEqual([]);
    expect(draw(small, frame(looks(0)), cache).painted).toEqual([10]);
  });

  it('never shares entries between two coders (two themes), even for the same keys and rectangles', () => {
    const cache = new RegionCache(1 << 20);
    const f = frame([1, 2, 3, 4, 5, 6]);
    // The other theme: the same keys drawn in other pixels.
    const other: Frame = {
      ...f,
      regions: f.regions
        .map((r) => region(r.x, r.y, r.w, r.h, Number(r.key) + 100))
        .map((r, i) => ({
          ...r,
          key: f.regions[i]!.key,
        })),
    };
    const mine = coderFor(f);
    const theirs = coderFor(other);
    expect(draw(mine, f, cache).rows.equals(reference(f))).toBe(true);
    const out = draw(theirs, other, cache);
    expect(out.rows.equals(reference(other))).toBe(true);
    expect(out.painted).toEqual([101, 102, 103, 104, 105, 106]);
    expect(draw(mine, f, cache).painted).toEqual([]);
  });

  it('draws a frame whose rectangles differ from the coder’s earlier frames', () => {
    const cache = new RegionCache(1 << 20);
    const f = frame([1, 2, 3, 4, 5, 6]);
    const coder = coderFor(f);
    draw(coder, f, cache);
    const moved: Frame = {
      ...f,
      regions: [
        region(0, 0, 90, 10, 1),
        ...frame([1, 2, 3, 4, 5, 6], 90, 40).regions.map((r) =>
          region(r.x, r.y + 10, r.w, r.h, Number(r.key)),
        ),
      ],
    };
    const out = draw(coder, moved, cache);
    expect(out.rows.equals(reference(moved))).toBe(true);
    expect(out.painted).toHaveLength(7);
  });

  it('refuses regions that do not tile the frame', () => {
    const f = frame([1, 2, 3, 4, 5, 6]);
    const gap: Frame = { ...f, regions: f.regions.filter((_, i) => i !== 4) };
    expect(() => deflateFrame(coderFor(f), gap, new RegionCache(1 << 20), scratch(f))).toThrow(/do not tile/);
  });
});
