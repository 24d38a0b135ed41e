// One fixed 256-colour palette per theme, shared by every size, every PNG and every GIF frame.
// Fixing it once is what lets a frame be a copy of pre-quantised sprites instead of a quantise.
import { createRequire } from 'node:module';
import type { Rgb } from './theme.js';

// gifenc (MIT) is CommonJS without types; required directly so node, tsx and vitest all see the
// same exports. Only its pairwise-nearest-neighbour quantiser is used.
const { quantize } = createRequire(import.meta.url)('gifenc') as {
  quantize(rgba: Uint8Array | Uint8ClampedArray, maxColors: number): number[][];
};

/** Never a visible colour: GIF frames use it for "unchanged pixel". */
export const TRANSPARENT = 255;

export class Palette {
  /** 256 entries of r, g, b. */
  readonly rgb = new Uint8Array(256 * 3);
  readonly count: number;
  private readonly nearestMemo = new Map<number, number>();

  constructor(colours: readonly Rgb[]) {
    if (colours.length > TRANSPARENT) throw new RangeError(`palette holds ${TRANSPARENT} colours at most`);
    this.count = colours.length;
    colours.forEach(([r, g, b], i) => this.rgb.set([r, g, b], i * 3));
  }

  /** Index of the nearest colour (weighted RGB distance). */
  nearest(r: number, g: number, b: number): number {
    const key = (r << 16) | (g << 8) | b;
    const known = this.nearestMemo.get(key);
    if (known !== undefined) return known;
    let best = 0;
    let bestDistance = Infinity;
    for (let i = 0; i < this.count; i++) {
      const dr = this.rgb[i * 3]! - r;
      const dg = this.rgb[i * 3 + 1]! - g;
      const db = this.rgb[i * 3 + 2]! - b;
      const distance = 3 * dr * dr + 4 * dg * dg + 2 * db * db;
      if (distance < bestDistance) {
        bestDistance = distance;
        best = i;
      }
    }
    this.nearestMemo.set(key, best);
    return best;
  }

  /** Maps opaque RGBA pixels to palette indices. */
  quantise(rgba: Uint8Array | Uint8ClampedArray): Buffer {
    const out = Buffer.allocUnsafe(rgba.length / 4);
    for (let i = 0; i < out.length; i++) {
      out[i] = this.nearest(rgba[i * 4]!, rgba[i * 4 + 1]!, rgba[i * 4 + 2]!);
    }
    return out;
  }

  /** For text: palette index of `fg` drawn over `bg` at each coverage 0..255. */
  coverageLut(fg: Rgb, bg: Rgb): Uint8Array {
    const lut = new Uint8Array(256);
    for (let a = 0; a < 256; a++) {
      lut[a] = this.nearest(...blend(fg, bg, a / 255));
    }
    return lut;
  }
}

export function blend(fg: Rgb, bg: Rgb, alpha: number): Rgb {
  return [
    Math.round(fg[0] * alpha + bg[0] * (1 - alpha)),
    Math.round(fg[1] * alpha + bg[1] * (1 - alpha)),
    Math.round(fg[2] * alpha + bg[2] * (1 - alpha)),
  ];
}

/**
 * The exact colours first (flat areas must not shift), then the colours that best cover `training`
 * (piece art anti-aliased over each square colour) in the slots left.
 */
export function buildPalette(exact: readonly Rgb[], training: Uint8Array | Uint8ClampedArray): Palette {
  const seen = new Set<number>();
  const colours: Rgb[] = [];
  const add = (c: Rgb): void => {
    const key = (c[0] << 16) | (c[1] << 8) | c[2];
    if (seen.has(key) || colours.length >= TRANSPARENT) return;
    seen.add(key);
    colours.push(c);
  };
  exact.forEach(add);
  const room = TRANSPARENT - colours.length;
  for (const [r = 0, g = 0, b = 0] of quantize(training, room)) add([r, g, b]);
  return new Palette(colours);
}
