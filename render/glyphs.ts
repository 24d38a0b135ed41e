// Text as cached glyph coverage bitmaps. Each character is drawn by @napi-rs/canvas once per font
// size; after that a string is blits through a coverage-to-palette table, with no canvas call, so
// clocks that change every frame cost nothing to draw.
import { createCanvas, type SKRSContext2D } from '@napi-rs/canvas';
import { FONT_FAMILY, registerFonts } from './assets.js';
import type { Surface } from './surface.js';

export interface FontSpec {
  px: number;
  bold: boolean;
}

interface Glyph {
  advance: number;
  /** Bitmap left edge relative to the pen position. */
  left: number;
  width: number;
  /** Alpha coverage, `width` x lineHeight. */
  coverage: Uint8Array;
}

class GlyphSet {
  readonly lineHeight: number;
  private readonly ascent: number;
  private readonly pad: number;
  private readonly glyphs = new Map<string, Glyph>();
  private readonly ctx: SKRSContext2D;

  constructor(font: FontSpec) {
    registerFonts();
    this.pad = Math.ceil(font.px / 4);
    const canvas = createCanvas(font.px * 3 + this.pad * 2, Math.ceil(font.px * 1.5));
    this.ctx = canvas.getContext('2d');
    this.ctx.font = `${font.bold ? 'bold ' : ''}${font.px}px "${FONT_FAMILY}"`;
    const metrics = this.ctx.measureText('Hg');
    this.ascent = Math.ceil(metrics.fontBoundingBoxAscent);
    this.lineHeight = this.ascent + Math.ceil(metrics.fontBoundingBoxDescent);
    this.ctx.fillStyle = '#fff';
  }

  get(ch: string): Glyph {
    const known = this.glyphs.get(ch);
    if (known) return known;
    const { ctx, pad, lineHeight } = this;
    const advance = ctx.measureText(ch).width;
    const boxWidth = Math.min(ctx.canvas.width, Math.ceil(advance) + 2 * pad);
    ctx.clearRect(0, 0, ctx.canvas.width, ctx.canvas.height);
    ctx.fillText(ch, pad, this.ascent);
    const alpha = ctx.getImageData(0, 0, boxWidth, lineHeight).data;
    // Crop to the inked columns so blits skip the padding.
    let first = boxWidth;
    let last = -1;
    for (let x = 0; x < boxWidth; x++) {
      for (let y = 0; y < lineHeight; y++) {
        if (alpha[(y * boxWidth + x) * 4 + 3]! > 0) {
          first = Math.min(first, x);
          last = x;
          break;
        }
      }
    }
    const width = Math.max(0, last - first + 1);
    const coverage = new Uint8Array(width * lineHeight);
    for (let y = 0; y < lineHeight; y++) {
      for (let x = 0; x < width; x++) coverage[y * width + x] = alpha[(y * boxWidth + first + x) * 4 + 3]!;
    }
    const glyph = { advance, left: first - pad, width, coverage };
    this.glyphs.set(ch, glyph);
    return glyph;
  }
}

const glyphSets = new Map<string, GlyphSet>();

function glyphSet(font: FontSpec): GlyphSet {
  const key = `${font.bold ? 'b' : 'r'}${font.px}`;
  let set = glyphSets.get(key);
  if (!set) {
    set = new GlyphSet(font);
    glyphSets.set(key, set);
  }
  return set;
}

export function lineHeight(font: FontSpec): number {
  return glyphSet(font).lineHeight;
}

export function textWidth(text: string, font: FontSpec): number {
  const set = glyphSet(font);
  let width = 0;
  for (const ch of text) width += set.get(ch).advance;
  return Math.round(width);
}

/**
 * Draws `text` with its line box's top-left at (x, top), mapping coverage through `lut` (see
 * Palette.coverageLut). Pixels at or right of `clipRight` are left alone. Returns the pen's end x.
 */
export function drawText(
  s: Surface,
  text: string,
  font: FontSpec,
  x: number,
  top: number,
  lut: Uint8Array,
  clipRight: number,
): number {
  const set = glyphSet(font);
  const height = set.lineHeight;
  let pen = x;
  for (const ch of text) {
    const glyph = set.get(ch);
    const left = Math.round(pen) + glyph.left;
    const columns = Math.min(glyph.width, clipRight - left);
    for (let y = 0; y < height; y++) {
      const row = s.base + (top + y) * s.stride + left;
      const src = y * glyph.width;
      for (let gx = Math.max(0, -left); gx < columns; gx++) {
        const a = glyph.coverage[src + gx]!;
        if (a !== 0) s.data[row + gx] = lut[a]!;
      }
    }
    pen += glyph.advance;
    if (pen >= clipRight) break;
  }
  return Math.round(pen);
}
