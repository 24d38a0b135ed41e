// A minimal GIF89a writer with a fixed global palette and frames placed anywhere on the screen.
// Our own because gifenc's writeFrame always puts a frame at (0, 0), and the whole point of our
// animations is frames that hold only the rectangle that changed.

const MAX_CODE = 4095;
const CLEAR = 256;
const END = 257;
const FIRST_FREE = 258;
const MIN_CODE_SIZE = 8;

class ByteSink {
  bytes = Buffer.allocUnsafe(1 << 16);
  length = 0;

  reserve(n: number): void {
    if (this.length + n <= this.bytes.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.length + n));
    this.bytes.copy(grown, 0, 0, this.length);
    this.bytes = grown;
  }

  byte(b: number): void {
    this.reserve(1);
    this.bytes[this.length++] = b;
  }

  u16(n: number): void {
    this.byte(n & 0xff);
    this.byte(n >> 8);
  }

  write(data: Uint8Array | string): void {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'latin1') : data;
    this.reserve(bytes.length);
    this.bytes.set(bytes, this.length);
    this.length += bytes.length;
  }
}

/**
 * Where the run of `word`'s byte starting at `from` ends, at most `end`: four pixels a compare where
 * `words` (the same pixels as 32-bit words) allows.
 */
function runEnd(
  pixels: Uint8Array,
  words: Int32Array | null,
  from: number,
  end: number,
  word: number,
): number {
  const value = word & 0xff;
  let j = from;
  if (words !== null) {
    while (j < end && (j & 3) !== 0 && pixels[j] === value) j++;
    if ((j & 3) === 0) {
      let w = j >> 2;
      const wordsEnd = end >> 2;
      // Sixteen pixels a step where the run is long, then four.
      while (
        w + 4 <= wordsEnd &&
        ((words[w]! ^ word) | (words[w + 1]! ^ word) | (words[w + 2]! ^ word) | (words[w + 3]! ^ word)) === 0
      )
        w += 4;
      while (w < wordsEnd && words[w] === word) w++;
      j = w << 2;
    }
  }
  while (j < end && pixels[j] === value) j++;
  return j;
}

/**
 * The encoder's tables, made once per thread and left clean after each frame: a render thread
 * makes a few GIFs a second, and a fresh zeroed 2 MB dictionary a GIF was page faults and garbage.
 * Only the pages of slots in use are ever touched.
 */
interface LzwTables {
  /** Code of (prefix code, pixel) at pixel << 12 | prefix; 0 for none. */
  dict: Uint16Array;
  /** The slots of `dict` in use, to clear only those. */
  used: Uint32Array;
  /** runCodes[v << 12 | k]: the code of index v repeated k times, for 1 <= k <= runLengths[v]. */
  runCodes: Uint16Array;
  runLengths: Uint16Array;
}

let tables: LzwTables | null = null;

function lzwTables(): LzwTables {
  if (tables === null) {
    const runCodes = new Uint16Array(256 << 12);
    for (let v = 0; v < 256; v++) runCodes[(v << 12) | 1] = v;
    tables = {
      dict: new Uint16Array(256 << 12),
      used: new Uint32Array(MAX_CODE + 1),
      runCodes,
      runLengths: new Uint16Array(256).fill(1),
    };
  }
  return tables;
}

/** Codes packed into bytes, least significant bit first, in data sub-blocks of up to 255 bytes. */
class CodeWriter {
  private readonly block = Buffer.allocUnsafe(255);
  private blockLength = 0;
  private accumulator = 0;
  private bits = 0;
  private codeSize = MIN_CODE_SIZE + 1;
  private maxCode = (1 << (MIN_CODE_SIZE + 1)) - 1;

  constructor(private readonly out: ByteSink) {}

  /** Writes `code`; the width grows once `nextCode`, the next free code, no longer fits it. */
  put(code: number, nextCode: number): void {
    this.accumulator |= code << this.bits;
    this.bits += this.codeSize;
    while (this.bits >= 8) {
      this.block[this.blockLength++] = this.accumulator & 0xff;
      this.accumulator >>>= 8;
      this.bits -= 8;
      if (this.blockLength === 255) this.flushBlock();
    }
    if (nextCode > this.maxCode && this.codeSize < 12) {
      this.codeSize++;
      this.maxCode = this.codeSize === 12 ? MAX_CODE + 1 : (1 << this.codeSize) - 1;
    }
  }

  /** Writes a clear code; the codes after it start at the least width again. */
  clear(): void {
    this.put(CLEAR, FIRST_FREE);
    this.codeSize = MIN_CODE_SIZE + 1;
    this.maxCode = (1 << this.codeSize) - 1;
  }

  /** The last bits, the last sub-block and the terminator. */
  finish(): void {
    if (this.bits > 0) {
      this.block[this.blockLength++] = this.accumulator & 0xff;
      if (this.blockLength === 255) this.flushBlock();
    }
    this.flushBlock();
    this.out.byte(0);
  }

  private flushBlock(): void {
    if (this.blockLength === 0) return;
    this.out.byte(this.blockLength);
    this.out.reserve(this.blockLength);
    this.block.copy(this.out.bytes, this.out.length, 0, this.blockLength);
    this.out.length += this.blockLength;
    this.blockLength = 0;
  }
}

/** Empties the dictionary's slots in use and forgets the runs. */
function clearTables({ dict, used, runLengths }: LzwTables, usedCount: number): void {
  for (let k = 0; k < usedCount; k++) dict[used[k]!] = 0;
  runLengths.fill(1);
}

/**
 * LZW for GIF with 8-bit pixels. The dictionary is a dense table indexed by (pixel << 12 | prefix
 * code) instead of a hash: one load per pixel. Code widths follow GIFCOMPR.C (grow after writing
 * the code that makes the next free code exceed the current width; clear when all 4096 codes are
 * used).
 *
 * Runs of one index (transparent pixels, square colours, bar backgrounds: most of a frame) skip the
 * dictionary walk: for each index v the codes of v repeated 1, 2, ... k times are kept in
 * `runCodes` as the walk makes them (only ever one longer than the longest so far), so a string
 * starting a run jumps to the longest such code its run allows after one scan of the pixels. The
 * codes written are the same as the walk's, byte for byte.
 */
function encodeLzw(pixels: Uint8Array, out: ByteSink): void {
  out.byte(MIN_CODE_SIZE);
  const writer = new CodeWriter(out);
  const tables = lzwTables();
  const { dict, used, runCodes, runLengths } = tables;
  let nextCode = FIRST_FREE;
  let usedCount = 0;
  const words =
    pixels.byteOffset % 4 === 0 ? new Int32Array(pixels.buffer, pixels.byteOffset, pixels.length >> 2) : null;
  writer.clear();
  let prefix = pixels[0]!;
  // The tables are the thread's: left clean whatever happens, or every later GIF would be wrong.
  try {
    for (let i = 1; i < pixels.length; i++) {
      const pixel = pixels[i]!;
      const slot = (pixel << 12) | prefix;
      const code = dict[slot]!;
      if (code !== 0) {
        prefix = code;
        continue;
      }
      writer.put(prefix, nextCode);
      const runs = pixel << 12;
      if (nextCode <= MAX_CODE) {
        // The walk only ever makes the run one longer than the longest it knows.
        const longest = runLengths[pixel]!;
        if (prefix === runCodes[runs | longest])
          runCodes[runs | (runLengths[pixel] = longest + 1)] = nextCode;
        dict[slot] = nextCode++;
        used[usedCount++] = slot;
      } else {
        clearTables(tables, usedCount);
        usedCount = 0;
        nextCode = FIRST_FREE;
        writer.clear();
      }
      prefix = pixel;
      const longest = runLengths[pixel]!;
      if (longest > 1) {
        // The walk would follow runCodes up to the run's end or `longest`, whichever comes first.
        const j = runEnd(
          pixels,
          words,
          i + 1,
          Math.min(pixels.length, i + longest),
          (pixel * 0x01010101) | 0,
        );
        prefix = runCodes[runs | (j - i)]!;
        i = j - 1;
      }
    }
    writer.put(prefix, nextCode);
    writer.put(END, nextCode);
  } finally {
    clearTables(tables, usedCount);
  }
  writer.finish();
}

export interface GifFrame {
  x: number;
  y: number;
  width: number;
  height: number;
  /** width x height palette indices. */
  pixels: Uint8Array;
  delayMs: number;
  /** Palette index that leaves the pixel below unchanged, if any. */
  transparentIndex: number | null;
}

/**
 * The thread's sink, between GIFs: kept at its size, as each GIF grew a fresh one from 64 KB to
 * 512 KB (1 MB of garbage a GIF). A writer takes it when free; finish gives it back.
 */
let spareSink: ByteSink | null = null;

export class GifWriter {
  private readonly out: ByteSink;

  /** `palette`: 256 entries of r, g, b. Loops forever. */
  constructor(width: number, height: number, palette: Uint8Array) {
    const out = spareSink ?? new ByteSink();
    spareSink = null;
    out.length = 0;
    this.out = out;
    out.write('GIF89a');
    out.u16(width);
    out.u16(height);
    out.byte(0xf7); // global colour table of 256 entries, 8 bits per primary
    out.byte(0); // background colour index
    out.byte(0); // pixel aspect ratio
    out.write(palette.subarray(0, 768));
    out.write(Buffer.from([0x21, 0xff, 11]));
    out.write('NETSCAPE2.0');
    out.write(Buffer.from([3, 1, 0, 0, 0])); // loop count 0: forever
  }

  frame(f: GifFrame): void {
    const { out } = this;
    out.write(Buffer.from([0x21, 0xf9, 4]));
    // Disposal 1 (keep this frame under the next one), transparency flag.
    out.byte((1 << 2) | (f.transparentIndex === null ? 0 : 1));
    out.u16(Math.round(f.delayMs / 10));
    out.byte(f.transparentIndex ?? 0);
    out.byte(0);
    out.byte(0x2c);
    out.u16(f.x);
    out.u16(f.y);
    out.u16(f.width);
    out.u16(f.height);
    out.byte(0); // no local colour table, not interlaced
    encodeLzw(f.pixels, out);
  }

  /** Bytes written so far. */
  get size(): number {
    return this.out.length;
  }

  /** The GIF's bytes (a copy: the sink serves the next writer); the writer is done. */
  finish(): Buffer {
    this.out.byte(0x3b);
    const gif = Buffer.from(this.out.bytes.subarray(0, this.out.length));
    spareSink = this.out;
    return gif;
  }
}
