// A frame's zlib stream from its regions' rows, each region's rows Huffman-coded once and kept in
// a per-thread cache (render/deflate.ts says why). Only regions missing from the cache are painted
// and coded; the stream is the zlib header, the composer's block header, then for each image row
// the filter byte and the cached bits of the regions crossing it, left to right, and the Adler-32
// combined from the rows' own.
import type { Frame, Region } from './compose.js';
import {
  ADLER_BASE,
  adler32,
  BitWriter,
  countSymbols,
  makeRowCode,
  putEndOfBlock,
  putToken,
  symbolCounts,
  tokenizeRows,
  type RowCode,
} from './deflate.js';
import type { Surface } from './surface.js';

/** The cache's bound, per render thread (docs/limits.md). */
export const REGION_CACHE_BYTES = 24 * 1024 * 1024;
/** What an entry costs besides its arrays' contents: the object, the map entry, two typed arrays. */
const ENTRY_OVERHEAD = 400;
/** zlib header: deflate, 32 KB window, no dictionary (CMF, FLG: a multiple of 31). */
const ZLIB_HEADER = [0x78, 0x01];

/** One region's rows as bits. */
interface CodedRegion {
  words: Uint32Array;
  /**
   * Three numbers a row: the word of `words` its bits start at, their length, and the Adler-32
   * of the row's bytes (the region's pixels only).
   */
  rows: Uint32Array;
  /** Bits of `words` used, the padding after each row included. */
  bits: number;
  /** What the entry holds, for the cache's bound. */
  bytes: number;
  /** The cache's frame count when the entry was last used. */
  used: number;
}

/**
 * What a composer (one theme, size and layout) keeps: its code (see frameCoder) and its coded
 * regions, by the region's place in its frames (the same rectangle in every frame of one
 * composer) and then by the region's key.
 */
export interface FrameCoder {
  readonly code: RowCode;
  /** x, y, w, h of each region of the frames coded so far. */
  rects: Int32Array;
  bands: Band[];
  slots: Map<string | number, CodedRegion>[];
}

/** Regions crossing rows [top, bottom), left to right. */
interface Band {
  top: number;
  bottom: number;
  regions: number[];
}

/**
 * Coded regions of every composer of this thread, within `maxBytes`: when over, the least recently
 * used go until a quarter of the bound is free (one sort, not a list kept in order on every hit).
 */
export class RegionCache {
  private readonly coders = new Set<FrameCoder>();
  private size = 0;
  private frames = 0;

  constructor(readonly maxBytes: number) {}

  get bytes(): number {
    return this.size;
  }

  get(coder: FrameCoder, index: number, key: string | number): CodedRegion | undefined {
    const entry = coder.slots[index]!.get(key);
    if (entry !== undefined) entry.used = this.frames;
    return entry;
  }

  set(coder: FrameCoder, index: number, key: string | number, entry: CodedRegion): void {
    entry.used = this.frames;
    coder.slots[index]!.set(key, entry);
    this.coders.add(coder);
    this.size += entry.bytes;
  }

  /** Forgets all of a coder's regions. */
  drop(coder: FrameCoder): void {
    for (const slot of coder.slots) {
      for (const entry of slot.values()) this.size -= entry.bytes;
      slot.clear();
    }
    this.coders.delete(coder);
  }

  /** Ends a frame: its entries are now the most recently used; evicts when over the bound. */
  endFrame(): void {
    this.frames++;
    if (this.size <= this.maxBytes) return;
    const all: { slot: Map<string | number, CodedRegion>; key: string | number; entry: CodedRegion }[] = [];
    for (const coder of this.coders)
      for (const slot of coder.slots) for (const [key, entry] of slot) all.push({ slot, key, entry });
    all.sort((a, b) => a.entry.used - b.entry.used);
    for (const { slot, key, entry } of all) {
      if (this.size <= this.maxBytes * 0.75) break;
      slot.delete(key);
      this.size -= entry.bytes;
    }
    for (const coder of this.coders) if (coder.slots.every((slot) => slot.size === 0)) this.drop(coder);
  }
}

/** Scratch shared by every frame of the thread. */
const tokens = { data: new Int32Array(0) };
const rowEnds = { data: new Int32Array(0) };
const regionBits = new BitWriter();
const stream = new BitWriter();

function scratch(holder: { data: Int32Array }, length: number): Int32Array {
  if (holder.data.length < length) holder.data = new Int32Array(length);
  return holder.data;
}

/** The frame's rows cut where regions start or end; throws when the regions do not tile the image. */
function bands(frame: Frame): Band[] {
  const edges = [...new Set(frame.regions.flatMap((r) => [r.y, r.y + r.h]))].sort((a, b) => a - b);
  if (edges[0] !== 0 || edges.at(-1) !== frame.height) throw new Error('regions do not tile the frame');
  const out: Band[] = [];
  for (let i = 0; i + 1 < edges.length; i++) {
    const [top, bottom] = [edges[i]!, edges[i + 1]!];
    const regions = frame.regions
      .flatMap((region, index) => (region.y <= top && region.y + region.h >= bottom ? [index] : []))
      .sort((a, b) => frame.regions[a]!.x - frame.regions[b]!.x);
    let x = 0;
    for (const index of regions) {
      if (frame.regions[index]!.x !== x) break;
      x += frame.regions[index]!.w;
    }
    if (x !== frame.width) throw new Error(`regions do not tile rows ${top}-${bottom} of the frame`);
    out.push({ top, bottom, regions });
  }
  return out;
}

/** Whether the frame's regions have the rectangles the coder's slots were made for. */
function sameRects(coder: FrameCoder, regions: readonly Region[]): boolean {
  const { rects } = coder;
  if (rects.length !== regions.length * 4) return false;
  for (let i = 0; i < regions.length; i++) {
    const r = regions[i]!;
    if (
      rects[4 * i] !== r.x ||
      rects[4 * i + 1] !== r.y ||
      rects[4 * i + 2] !== r.w ||
      rects[4 * i + 3] !== r.h
    )
      return false;
  }
  return true;
}

/**
 * The frame's zlib stream (a view, valid until the next frame). `rows` is scratch of at least
 * height * (width + 1) bytes that missing regions are painted into, rows a PNG stride apart.
 */
export function deflateFrame(
  coder: FrameCoder,
  frame: Frame,
  cache: RegionCache,
  rows: Uint8Array,
): Uint8Array {
  const { regions } = frame;
  if (!sameRects(coder, regions)) {
    cache.drop(coder);
    coder.slots = regions.map(() => new Map());
    coder.bands = bands(frame);
    coder.rects = Int32Array.from(regions.flatMap((r) => [r.x, r.y, r.w, r.h]));
  }
  const coded: (CodedRegion | undefined)[] = [];
  let missingPixels = 0;
  for (let i = 0; i < regions.length; i++) {
    const region = regions[i]!;
    const entry = cache.get(coder, i, region.key);
    coded.push(entry);
    if (entry === undefined) missingPixels += region.w * region.h;
  }
  if (missingPixels > 0) {
    for (const index of codeMissing(coder, frame, coded, rows, missingPixels))
      cache.set(coder, index, regions[index]!.key, coded[index]!);
  }
  cache.endFrame();
  return joinRows(coder, frame, coded as CodedRegion[]);
}

/** The zlib stream of the frame's coded regions' rows. */
function joinRows(coder: FrameCoder, frame: Frame, coded: readonly CodedRegion[]): Uint8Array {
  // The regions' rectangles from the coder's numbers: the regions are of several shapes.
  const { code, rects } = coder;
  const filterBits = code.literalBits[0]!;
  const filterCount = code.literalCount[0]!;
  stream.reset();
  for (const byte of ZLIB_HEADER) stream.put(byte, 8);
  stream.append(code.header.words, 0, code.header.bits);
  // Room for everything, so the loop below writes without checks: the rows, their filter bytes,
  // the end of block and the Adler-32, with a spare word after each row's bits.
  let room = stream.bits + frame.height * (filterCount + 32) + 64;
  for (const entry of coded) room += entry.bits + 32 * (entry.rows.length / 3);
  stream.reserve(room);
  const out = stream.words;
  let bit = stream.bits;
  let a = 1;
  let b = 0;
  for (const { top, bottom, regions: crossing } of coder.bands) {
    for (let y = top; y < bottom; y++) {
      // The filter byte: a 0 literal; Adler-32's a stays, b adds a.
      let at = bit >>> 5;
      let shift = bit & 31;
      out[at] = out[at]! | (filterBits << shift);
      out[at + 1] = shift === 0 ? 0 : filterBits >>> (32 - shift);
      bit += filterCount;
      b += a;
      for (const index of crossing) {
        const entry = coded[index]!;
        const row = y - rects[4 * index + 1]!;
        const info = entry.rows;
        const from = info[3 * row]!;
        const bits = info[3 * row + 1]!;
        const to = from + ((bits + 31) >>> 5);
        const source = entry.words;
        at = bit >>> 5;
        shift = bit & 31;
        if (shift === 0) {
          for (let i = from; i < to; i++) out[at++] = source[i]!;
          out[at] = 0;
        } else {
          const back = 32 - shift;
          for (let i = from; i < to; i++) {
            const word = source[i]!;
            out[at] = out[at]! | (word << shift);
            out[++at] = word >>> back;
          }
        }
        bit += bits;
        // Adler-32 of this row so far and the region's row after it: zlib's adler32_combine.
        const adler = info[3 * row + 2]!;
        b += (adler >>> 16) + rects[4 * index + 2]! * (a - 1);
        a += (adler & 0xffff) - 1;
      }
      // Reduced once a row: with k regions in a row of w pixels a stays under 65,521 (k + 1) and
      // b under k (65,521 + w a), far inside doubles' exact integers for any frame we draw.
      a %= ADLER_BASE;
      b %= ADLER_BASE;
    }
  }
  stream.bits = bit;
  putEndOfBlock(stream, code);
  stream.alignToByte();
  const adler = b * 65536 + a;
  for (const shift of [24, 16, 8, 0]) stream.put((adler >>> shift) & 0xff, 8);
  return stream.bytes();
}

/** Where each painted region's tokens start and its rows' ends are kept (see paintTokens). */
interface Painted {
  index: number;
  from: number;
  ends: number;
}

/**
 * Paints the regions `wanted` says and tokenizes their rows into the tokens scratch (rows' ends in
 * the rowEnds scratch). Returns the regions' places there and the number of tokens.
 */
function paintTokens(
  frame: Frame,
  rows: Uint8Array,
  pixels: number,
  wanted: (index: number) => boolean,
): { painted: Painted[]; length: number } {
  const stride = frame.width + 1;
  const surface: Surface = { data: rows, stride, base: 1 };
  const tokenData = scratch(tokens, pixels);
  const endData = scratch(
    rowEnds,
    frame.regions.reduce((sum, r) => sum + r.h, 0),
  );
  const painted: Painted[] = [];
  let length = 0;
  let ended = 0;
  frame.regions.forEach((region, index) => {
    if (!wanted(index)) return;
    region.paint(surface);
    const start = 1 + region.y * stride + region.x;
    const from = length;
    length = tokenizeRows(rows, start, region.w, region.h, stride, tokenData, from, endData.subarray(ended));
    painted.push({ index, from, ends: ended });
    ended += region.h;
  });
  return { painted, length };
}

/**
 * A composer's coder, its code made from the tokens of `sample`, a frame of that composer showing
 * all it can show: the same code whatever the thread drew before, so the same bytes for a scene.
 * `rows` as for deflateFrame.
 */
export function frameCoder(sample: Frame, rows: Uint8Array): FrameCoder {
  const { length } = paintTokens(sample, rows, sample.width * sample.height, () => true);
  const counts = symbolCounts();
  countSymbols(tokens.data, length, counts);
  counts[0]! += sample.height; // the rows' filter bytes
  return { code: makeRowCode(counts, sample.width + 1), rects: new Int32Array(0), bands: [], slots: [] };
}

/** Paints and codes the regions missing from `coded` (in place); returns their indices. */
function codeMissing(
  coder: FrameCoder,
  frame: Frame,
  coded: (CodedRegion | undefined)[],
  rows: Uint8Array,
  missingPixels: number,
): number[] {
  const stride = frame.width + 1;
  const { painted } = paintTokens(frame, rows, missingPixels, (index) => coded[index] === undefined);
  const tokenData = tokens.data;
  const endData = rowEnds.data;
  const { code } = coder;
  for (const { index, from, ends } of painted) {
    const region = frame.regions[index]!;
    const info = new Uint32Array(3 * region.h);
    regionBits.reset();
    let token = from;
    for (let row = 0; row < region.h; row++) {
      regionBits.alignToWord();
      const begin = regionBits.bits;
      info[3 * row] = begin >>> 5;
      for (const end = endData[ends + row]!; token < end; token++)
        putToken(regionBits, code, tokenData[token]!);
      info[3 * row + 1] = regionBits.bits - begin;
      const start = 1 + (region.y + row) * stride + region.x;
      info[3 * row + 2] = adler32(rows, start, start + region.w);
    }
    const words = regionBits.words.slice(0, (regionBits.bits + 31) >>> 5);
    coded[index] = {
      words,
      rows: info,
      bits: regionBits.bits,
      bytes: words.byteLength + info.byteLength + ENTRY_OVERHEAD,
      used: 0,
    };
  }
  return painted.map(({ index }) => index);
}
