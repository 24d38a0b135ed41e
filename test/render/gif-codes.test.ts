// The GIF encoder's contract: the codes it writes are exactly those of the plain LZW dictionary walk
// (GIFCOMPR.C's), whatever shortcuts it takes through runs. Each image block of real game GIFs is
// decoded by a reference decoder and encoded again by the plain walk kept here as the oracle; the
// two must be equal byte for byte.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HEAVY_TEST_MS } from '../support/bounds.js';
import { renderGif, type BoardScene } from '../../render/index.js';
import { DEFAULT_SIZE } from '../../render/layout.js';
import { GifWriter } from '../../render/gif.js';
import { ficsFixtureScenes, fixtureScenes, withClocks } from './game-scenes.js';
import { Dice } from '../load/random.js';

const CLEAR = 256;
const END = 257;
const MAX_CODE = 4095;

/** Each image block of a GIF: its size and its LZW data (the code size byte, the sub-blocks, the 0). */
function imageBlocks(gif: Uint8Array): { width: number; height: number; data: Uint8Array }[] {
  const blocks: { width: number; height: number; data: Uint8Array }[] = [];
  const flags = gif[10]!;
  let p = 13 + (flags & 0x80 ? 3 << ((flags & 7) + 1) : 0);
  const skipSubBlocks = (): void => {
    while (gif[p]! !== 0) p += gif[p]! + 1;
    p++;
  };
  for (;;) {
    const introducer = gif[p]!;
    if (introducer === 0x3b) return blocks;
    if (introducer === 0x21) {
      p += 2;
      skipSubBlocks();
    } else if (introducer === 0x2c) {
      const width = gif[p + 5]! | (gif[p + 6]! << 8);
      const height = gif[p + 7]! | (gif[p + 8]! << 8);
      const local = gif[p + 9]!;
      p += 10 + (local & 0x80 ? 3 << ((local & 7) + 1) : 0);
      const start = p;
      p++;
      skipSubBlocks();
      blocks.push({ width, height, data: gif.subarray(start, p) });
    } else {
      throw new Error(`unexpected byte ${introducer} at ${p}`);
    }
  }
}

/** A textbook GIF LZW decoder (8-bit pixels): the indices an image block holds. */
function decodeLzw(data: Uint8Array, pixelCount: number): Uint8Array {
  if (data[0] !== 8) throw new Error(`code size ${data[0]}`);
  const bytes: number[] = [];
  for (let p = 1; data[p]! !== 0; p += data[p]! + 1) bytes.push(...data.subarray(p + 1, p + 1 + data[p]!));
  // Entry c is entry prefixOf[c] followed by suffixOf[c]: lengthOf[c] pixels, the first firstOf[c].
  const prefixOf = new Int32Array(MAX_CODE + 1);
  const suffixOf = new Uint8Array(MAX_CODE + 1);
  const lengthOf = new Int32Array(MAX_CODE + 1);
  const firstOf = new Uint8Array(MAX_CODE + 1);
  for (let c = 0; c < 256; c++) [suffixOf[c], lengthOf[c], firstOf[c]] = [c, 1, c];
  const out = new Uint8Array(pixelCount);
  let length = 0;
  const put = (code: number): void => {
    const n = lengthOf[code]!;
    if (length + n > pixelCount) throw new Error('more pixels than the image holds');
    for (let c = code, at = length + n - 1; at >= length; c = prefixOf[c]!, at--) out[at] = suffixOf[c]!;
    length += n;
  };
  let bit = 0;
  let size = 9;
  let next = END + 1;
  let previous = -1;
  while (bit + size <= bytes.length * 8) {
    let code = 0;
    for (let i = 0; i < size; i++, bit++) code |= ((bytes[bit >> 3]! >> (bit & 7)) & 1) << i;
    if (code === CLEAR) {
      [size, next, previous] = [9, END + 1, -1];
      continue;
    }
    if (code === END) break;
    if (code > next || (previous === -1 && code > 255)) throw new Error(`code ${code} before its entry`);
    if (previous !== -1 && next <= MAX_CODE) {
      // The new entry: the previous string and the first pixel of this one (itself when it is new).
      const first = code < next ? firstOf[code]! : firstOf[previous]!;
      [prefixOf[next], suffixOf[next], lengthOf[next]] = [previous, first, lengthOf[previous]! + 1];
      firstOf[next] = firstOf[previous]!;
      if (++next === 1 << size && size < 12) size++;
    }
    put(code);
    previous = code;
  }
  if (length !== pixelCount) throw new Error(`${length} pixels for ${pixelCount}`);
  return out;
}

/**
 * The plain walk, as GIFCOMPR.C writes it: the longest string in the dictionary, then its code;
 * widths grow after writing a code once the next free code passes the width; a clear when all
 * 4096 codes are used. Sub-blocks of 255 bytes.
 */
function plainLzw(pixels: Uint8Array): Uint8Array {
  const dict = new Int32Array((MAX_CODE + 1) * 256);
  const bytes: number[] = [];
  let [accumulator, bits, size, maxCode, next] = [0, 0, 9, 511, END + 1];
  let clearing = false;
  const output = (code: number): void => {
    accumulator |= code << bits;
    for (bits += size; bits >= 8; bits -= 8, accumulator >>>= 8) bytes.push(accumulator & 0xff);
    if (clearing) [size, maxCode, clearing] = [9, 511, false];
    else if (next > maxCode)
      [size, maxCode] = size === 11 ? [12, MAX_CODE + 1] : [size + 1, (1 << (size + 1)) - 1];
  };
  output(CLEAR);
  let prefix = pixels[0]!;
  for (let i = 1; i < pixels.length; i++) {
    const pixel = pixels[i]!;
    const known = dict[prefix * 256 + pixel]!;
    if (known !== 0) {
      prefix = known;
      continue;
    }
    output(prefix);
    if (next <= MAX_CODE) {
      dict[prefix * 256 + pixel] = next++;
    } else {
      dict.fill(0);
      next = END + 1;
      clearing = true;
      output(CLEAR);
    }
    prefix = pixel;
  }
  output(prefix);
  output(END);
  if (bits > 0) bytes.push(accumulator & 0xff);
  const data = [8];
  for (let p = 0; p < bytes.length; p += 255) {
    const block = bytes.slice(p, p + 255);
    data.push(block.length, ...block);
  }
  data.push(0);
  return Uint8Array.from(data);
}

/** The first image block whose codes are not the plain walk's over its own pixels; -1 when none. */
function firstNotPlain(gif: Buffer): number {
  return imageBlocks(gif).findIndex(({ width, height, data }) => {
    const pixels = decodeLzw(data, width * height);
    return !Buffer.from(plainLzw(pixels)).equals(Buffer.from(data));
  });
}

function gif(scenes: BoardScene[]): Buffer {
  const out = renderGif(scenes);
  if (!out.ok) throw new Error(out.error);
  return out.value;
}

describe('GIF codes', () => {
  it('of the bench game, 100 plies with clocks, are the plain walk’s', { timeout: HEAVY_TEST_MS }, () => {
    const scenes = withClocks(fixtureScenes('korchnoi-karpov-1974.pgn'))
      .slice(0, 101)
      .map((scene) => ({ ...scene, size: DEFAULT_SIZE }));
    const bytes = gif(scenes);
    expect(imageBlocks(bytes)).toHaveLength(101);
    expect(firstNotPlain(bytes)).toBe(-1);
  });

  it('of every FICS fixture game, with clocks, are the plain walk’s', { timeout: HEAVY_TEST_MS }, () => {
    const games = ficsFixtureScenes();
    expect(games.map(({ id }) => id)).toHaveLength(8);
    const wrong = games.filter(({ scenes }) => firstNotPlain(gif(withClocks(scenes))) !== -1);
    expect(wrong.map(({ id }) => id)).toEqual([]);
  });

  it('of any frame of runs of any indices are the plain walk’s, across widths and clears', () => {
    // Runs of several indices, from one pixel to several rows long, some runs of mixed pixels: the
    // encoder skips through runs of one index, and keeps its run codes across frames and clears.
    const frame = fc.record({
      width: fc.integer({ min: 1, max: 300 }),
      height: fc.integer({ min: 1, max: 120 }),
      seed: fc.integer(),
      colours: fc.integer({ min: 1, max: 256 }),
      longest: fc.integer({ min: 1, max: 5_000 }),
      mixed: fc.double({ min: 0, max: 1, noNaN: true }),
    });
    const palette = new Uint8Array(768);
    fc.assert(
      fc.property(fc.array(frame, { minLength: 1, maxLength: 3 }), (frames) => {
        const writer = new GifWriter(300, 120, palette);
        const all = frames.map(({ width, height, seed, colours, longest, mixed }) => {
          const pixels = new Uint8Array(width * height);
          const dice = new Dice(seed);
          for (let i = 0; i < pixels.length;) {
            const run = 1 + dice.int(longest);
            if (dice.chance(mixed)) {
              for (let j = i; j < Math.min(pixels.length, i + run); j++) pixels[j] = dice.int(colours);
            } else {
              pixels.fill(dice.int(colours), i, i + run);
            }
            i += run;
          }
          writer.frame({ x: 0, y: 0, width, height, pixels, delayMs: 100, transparentIndex: null });
          return pixels;
        });
        const blocks = imageBlocks(writer.finish());
        expect(blocks).toHaveLength(all.length);
        for (const [i, pixels] of all.entries()) {
          expect(Buffer.from(blocks[i]!.data).equals(Buffer.from(plainLzw(pixels)))).toBe(true);
        }
      }),
      { numRuns: 100 },
    );
  });
});
