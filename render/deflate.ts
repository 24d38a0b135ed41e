// Our own DEFLATE (RFC 1951) writer for board PNGs, because zlib cannot splice streams: a board is
// regions that recur across boards and games (squares, bars, file strip), so each region row is
// Huffman-coded once, kept as bits, and a board's stream is those bits laid end to end at any bit
// offset under one dynamic-Huffman block whose code is fixed per composer. zlib would code every
// byte of every board again (docs/performance.md, "Board PNG deflate of cached rows").
//
// Tokens of one region row: literals, matches at distance 1 (runs) and at distance `stride` (the
// same pixels in the row above, only when that row is in the same region), never crossing the
// row's ends, so a row's bits depend on its region alone.
import { endianness } from 'node:os';

/** Longest code of the literal/length and distance alphabets (RFC 1951 3.2.7). */
export const MAX_CODE_BITS = 15;
/** Longest code of the code-length alphabet. */
const MAX_CODE_LENGTH_BITS = 7;
/** Literals 0-255, end of block 256, length codes 257-285. */
const LITLEN_SYMBOLS = 286;
const END_OF_BLOCK = 256;
const MIN_MATCH = 3;
const MAX_MATCH = 258;
/** Adler-32's modulus. */
export const ADLER_BASE = 65521;
/** The farthest a match may reach back. */
const WINDOW = 32_768;
/** The order code-length code lengths are sent in (RFC 1951 3.2.7). */
const CODE_LENGTH_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

/** Length code base lengths and extra bits, 257-285. */
const LENGTH_BASE = [
  3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195,
  227, 258,
];
const LENGTH_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
/** Distance code base distances and extra bits, 0-29. */
const DISTANCE_BASE = [
  1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
  6145, 8193, 12289, 16385, 24577,
];
const DISTANCE_EXTRA = [
  0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
];

/** Index of the last base not above `value`. */
function codeOf(bases: readonly number[], value: number): number {
  let code = 0;
  while (code + 1 < bases.length && bases[code + 1]! <= value) code++;
  return code;
}

/** The length symbol (257-285) of each match length 0-258 (0 below MIN_MATCH). */
const LENGTH_SYMBOL = Uint16Array.from({ length: MAX_MATCH + 1 }, (_, length) =>
  length < MIN_MATCH ? 0 : 257 + codeOf(LENGTH_BASE, length),
);

/**
 * Huffman code lengths for `counts`, none longer than `maxBits`, forming a complete code (Kraft
 * sum exactly 1; zlib's inflate refuses incomplete ones). Symbols counted 0 get length 0; when
 * only one symbol is counted it gets length 1. Huffman's lengths, then, if some exceed maxBits,
 * clamped and repaired: codes lengthened from the deepest until the sum is at most 1, then
 * shortened from the deepest while it stays at most 1 (each step fits: see fillKraft). The
 * lengths are then given out shortest first to the most frequent symbols.
 */
export function huffmanLengths(counts: ArrayLike<number>, maxBits: number): Uint8Array {
  const lengths = new Uint8Array(counts.length);
  const used: number[] = [];
  for (let symbol = 0; symbol < counts.length; symbol++) if (counts[symbol]! > 0) used.push(symbol);
  if (used.length === 0) return lengths;
  if (used.length === 1) {
    lengths[used[0]!] = 1;
    return lengths;
  }
  if (used.length > 2 ** maxBits) throw new RangeError(`${used.length} symbols do not fit ${maxBits} bits`);
  // Most frequent first (ties by symbol, for a deterministic code).
  used.sort((a, b) => counts[b]! - counts[a]! || a - b);
  const depths = huffmanDepths(used.map((symbol) => counts[symbol]!));
  limitDepths(depths, maxBits);
  depths.sort((a, b) => a - b);
  used.forEach((symbol, i) => (lengths[symbol] = depths[i]!));
  return lengths;
}

/** Depths of the leaves of a Huffman tree over `weights` (two-queue method, weights sorted descending). */
function huffmanDepths(weights: readonly number[]): number[] {
  const n = weights.length;
  // Nodes 0..n-1 are leaves in ascending weight order; n.. are the merged nodes.
  const weight = new Float64Array(2 * n - 1);
  const parent = new Int32Array(2 * n - 1);
  for (let i = 0; i < n; i++) weight[i] = weights[n - 1 - i]!;
  let leaf = 0;
  let merged = n;
  const take = (next: number): number =>
    leaf < n && (merged >= next || weight[leaf]! <= weight[merged]!) ? leaf++ : merged++;
  for (let next = n; next < 2 * n - 1; next++) {
    const a = take(next);
    const b = take(next);
    weight[next] = weight[a]! + weight[b]!;
    parent[a] = parent[b] = next;
  }
  const depth = new Int32Array(2 * n - 1);
  for (let node = 2 * n - 3; node >= 0; node--) depth[node] = depth[parent[node]!]! + 1;
  // Back to the callers' order: descending weight.
  return Array.from({ length: n }, (_, i) => depth[n - 1 - i]!);
}

/** Clamps depths to maxBits and repairs the Kraft sum to exactly 1. */
function limitDepths(depths: number[], maxBits: number): void {
  if (Math.max(...depths) <= maxBits) return;
  const one = 2 ** maxBits;
  let kraft = 0;
  for (let i = 0; i < depths.length; i++) {
    depths[i] = Math.min(depths[i]!, maxBits);
    kraft += 2 ** (maxBits - depths[i]!);
  }
  // Over-full: lengthen the deepest code that can still grow (the smallest decrease each time).
  while (kraft > one) {
    let deepest = -1;
    for (let i = 0; i < depths.length; i++)
      if (depths[i]! < maxBits && (deepest < 0 || depths[i]! > depths[deepest]!)) deepest = i;
    kraft -= 2 ** (maxBits - depths[deepest]! - 1);
    depths[deepest]!++;
  }
  fillKraft(depths, maxBits, kraft);
}

/**
 * Shortens codes until the Kraft sum is exactly 1. Every term is a multiple of the deepest code's
 * weight 2^(maxBits - d), so the shortfall is too, and shortening the deepest code (adding that
 * weight) never overshoots.
 */
function fillKraft(depths: number[], maxBits: number, kraft: number): void {
  const one = 2 ** maxBits;
  while (kraft < one) {
    let deepest = 0;
    for (let i = 1; i < depths.length; i++) if (depths[i]! > depths[deepest]!) deepest = i;
    kraft += 2 ** (maxBits - depths[deepest]!);
    depths[deepest]!--;
  }
}

/** Canonical codes for `lengths`, bit-reversed for deflate's least-significant-bit-first order. */
export function canonicalCodes(lengths: Uint8Array): Uint16Array {
  const perLength = new Uint16Array(MAX_CODE_BITS + 1);
  for (const length of lengths) if (length > 0) perLength[length]!++;
  const next = new Uint16Array(MAX_CODE_BITS + 2);
  for (let bits = 1, code = 0; bits <= MAX_CODE_BITS; bits++) {
    code = (code + perLength[bits - 1]!) << 1;
    next[bits] = code;
  }
  const codes = new Uint16Array(lengths.length);
  lengths.forEach((length, symbol) => {
    if (length === 0) return;
    const code = next[length]!++;
    let reversed = 0;
    for (let bit = 0; bit < length; bit++) reversed |= ((code >> bit) & 1) << (length - 1 - bit);
    codes[symbol] = reversed;
  });
  return codes;
}

// Words are written as bytes through a Uint32Array view: the stream's byte order is the machine's.
if (endianness() !== 'LE') throw new Error('render/deflate.ts writes bits as little-endian words');

/** A growable string of bits, least significant bit first in 32-bit words. */
export class BitWriter {
  words = new Uint32Array(1024);
  /** Bits written. */
  bits = 0;

  /**
   * Appends the low `count` bits of `value` (count <= 31). The word holding the end is kept free
   * of bits past the end, so each write can OR into it and set the next word whole.
   */
  put(value: number, count: number): void {
    const at = this.bits >>> 5;
    const shift = this.bits & 31;
    if (at + 2 > this.words.length) this.grow(at + 2);
    const words = this.words;
    words[at] = words[at]! | (value << shift);
    words[at + 1] = shift === 0 ? 0 : value >>> (32 - shift);
    this.bits += count;
  }

  /** Appends `count` bits kept in `source` from word `start` on (bits past them zero). */
  append(source: Uint32Array, start: number, count: number): void {
    const length = (count + 31) >>> 5;
    let at = this.bits >>> 5;
    const shift = this.bits & 31;
    if (at + length + 1 >= this.words.length) this.grow(at + length + 2);
    const words = this.words;
    if (shift === 0) {
      words.set(source.subarray(start, start + length), at);
      words[at + length] = 0;
    } else {
      const back = 32 - shift;
      for (let i = start; i < start + length; i++, at++) {
        const word = source[i]!;
        words[at] = words[at]! | (word << shift);
        words[at + 1] = word >>> back;
      }
    }
    this.bits += count;
  }

  /** Starts the next write on a word boundary (a cached row starts on one). */
  alignToWord(): void {
    const at = this.bits >>> 5;
    if ((this.bits & 31) !== 0) {
      this.bits = (at + 1) * 32;
      if (at + 2 > this.words.length) this.grow(at + 2);
      this.words[at + 1] = 0;
    }
  }

  /** Starts the next write on a byte boundary (the Adler-32 after the last block). */
  alignToByte(): void {
    this.bits = (this.bits + 7) & ~7;
  }

  /** Makes room for `bits` bits in all. */
  reserve(bits: number): void {
    const words = (bits >>> 5) + 2;
    if (words > this.words.length) this.grow(words);
  }

  reset(): void {
    this.bits = 0;
    this.words[0] = 0;
  }

  /** The bytes written so far, as a view (valid until the next write); whole bytes only. */
  bytes(): Uint8Array {
    return new Uint8Array(this.words.buffer, 0, this.bits >>> 3);
  }

  private grow(minimum: number): void {
    const words = new Uint32Array(Math.max(minimum, this.words.length * 2));
    words.set(this.words);
    this.words = words;
  }
}

/** A block's Huffman codes, fixed per composer, with each token's bits ready to write. */
export interface RowCode {
  /** Bits (value, count) of literal `b` at index b, and of end of block at 256. */
  literalBits: Uint32Array;
  literalCount: Uint8Array;
  /** Bits of a length 0-258's symbol and extra bits (only 3-258 are used). */
  lengthBits: Uint32Array;
  lengthCount: Uint8Array;
  /** The distance code and extra bits of distance 1 [0] and of the stride [1]. */
  distanceBits: [number, number];
  distanceCount: [number, number];
  stride: number;
  /** The block header (BFINAL, BTYPE 2, the code lengths), after the zlib header. */
  header: BitWriter;
}

/** Counts per literal/length symbol of `tokens` (see tokenizeRows), for makeRowCode. */
export function countSymbols(tokens: Int32Array, length: number, counts: Float64Array): void {
  for (let i = 0; i < length; i++) {
    const token = tokens[i]!;
    counts[token < 256 ? token : LENGTH_SYMBOL[token >>> 9]!]!++;
  }
}

/** A fresh array to count literal/length symbols in. */
export function symbolCounts(): Float64Array {
  return new Float64Array(LITLEN_SYMBOLS);
}

/**
 * The code for images of rows `stride` bytes apart, from symbol counts of a sample image. Each
 * literal, the end of block and each length symbol gets one more count, so every image stays
 * encodable whatever the sample was.
 */
export function makeRowCode(counts: Float64Array, stride: number): RowCode {
  const smoothed = counts.map((count) => count + 1);
  const litLengths = huffmanLengths(smoothed, MAX_CODE_BITS);
  const litCodes = canonicalCodes(litLengths);
  const strideCode = codeOf(DISTANCE_BASE, stride);
  if (strideCode === 0 || stride > WINDOW)
    throw new RangeError(`stride ${stride} is not a deflate distance above 1`);
  // Two distances: a complete code of two 1-bit codes.
  const distLengths = new Uint8Array(strideCode + 1);
  distLengths[0] = distLengths[strideCode] = 1;
  const distCodes = canonicalCodes(distLengths);

  const literalBits = new Uint32Array(257);
  const literalCount = new Uint8Array(257);
  for (let symbol = 0; symbol <= END_OF_BLOCK; symbol++) {
    literalBits[symbol] = litCodes[symbol]!;
    literalCount[symbol] = litLengths[symbol]!;
  }
  const lengthBits = new Uint32Array(MAX_MATCH + 1);
  const lengthCount = new Uint8Array(MAX_MATCH + 1);
  for (let length = MIN_MATCH; length <= MAX_MATCH; length++) {
    const symbol = LENGTH_SYMBOL[length]!;
    const bits = litLengths[symbol]!;
    lengthBits[length] = litCodes[symbol]! | ((length - LENGTH_BASE[symbol - 257]!) << bits);
    lengthCount[length] = bits + LENGTH_EXTRA[symbol - 257]!;
  }
  const strideExtra = DISTANCE_EXTRA[strideCode]!;
  return {
    literalBits,
    literalCount,
    lengthBits,
    lengthCount,
    distanceBits: [distCodes[0]!, distCodes[strideCode]! | ((stride - DISTANCE_BASE[strideCode]!) << 1)],
    distanceCount: [1, 1 + strideExtra],
    stride,
    header: blockHeader(litLengths, distLengths),
  };
}

/**
 * BFINAL 1, BTYPE 2 and the two codes' lengths, each sent as itself (code-length symbols 0-15;
 * no repeat codes: the header is written once per composer).
 */
function blockHeader(litLengths: Uint8Array, distLengths: Uint8Array): BitWriter {
  const all = [...litLengths, ...distLengths];
  const clCounts = new Float64Array(19);
  for (const length of all) clCounts[length]!++;
  const clLengths = huffmanLengths(clCounts, MAX_CODE_LENGTH_BITS);
  const clCodes = canonicalCodes(clLengths);
  let hclen = 19;
  while (hclen > 4 && clLengths[CODE_LENGTH_ORDER[hclen - 1]!] === 0) hclen--;
  const out = new BitWriter();
  out.put(1, 1); // BFINAL
  out.put(2, 2); // BTYPE: dynamic Huffman
  out.put(litLengths.length - 257, 5);
  out.put(distLengths.length - 1, 5);
  out.put(hclen - 4, 4);
  for (let i = 0; i < hclen; i++) out.put(clLengths[CODE_LENGTH_ORDER[i]!]!, 3);
  for (const length of all) out.put(clCodes[length]!, clLengths[length]!);
  return out;
}

/**
 * Tokens of `rows` rows of `width` bytes from `data[start]` on, rows `stride` apart, into
 * `tokens` from `at`: a literal is its byte (< 256), a match is length << 9 | far << 8 (far: at
 * distance `stride`, else 1). Greedy: at each byte the longer of the run and the copy of the row
 * above (rows after the first only), if at least 3 long; the run wins ties (its distance costs
 * fewer bits). `rowEnds[r]` gets the token index where row r ends. Returns the index after the
 * last token. `tokens` must hold width * rows more entries from `at`.
 */
export function tokenizeRows(
  data: Uint8Array,
  start: number,
  width: number,
  rows: number,
  stride: number,
  tokens: Int32Array,
  at: number,
  rowEnds: Int32Array,
): number {
  let out = at;
  for (let row = 0; row < rows; row++) {
    const begin = start + row * stride;
    const end = begin + width;
    let i = begin;
    while (i < end) {
      const limit = Math.min(end, i + MAX_MATCH);
      let run = i;
      if (i > begin) {
        const previous = data[i - 1]!;
        while (run < limit && data[run] === previous) run++;
      }
      let copy = i;
      if (row > 0) while (copy < limit && data[copy] === data[copy - stride]) copy++;
      const runLength = run - i;
      const copyLength = copy - i;
      if (runLength >= MIN_MATCH && runLength >= copyLength) {
        tokens[out++] = runLength << 9;
        i = run;
      } else if (copyLength >= MIN_MATCH) {
        tokens[out++] = (copyLength << 9) | 256;
        i = copy;
      } else {
        tokens[out++] = data[i++]!;
      }
    }
    rowEnds[row] = out;
  }
  return out;
}

/** Writes one token with `code`. */
export function putToken(out: BitWriter, code: RowCode, token: number): void {
  if (token < 256) {
    out.put(code.literalBits[token]!, code.literalCount[token]!);
    return;
  }
  const length = token >>> 9;
  out.put(code.lengthBits[length]!, code.lengthCount[length]!);
  const far = (token >>> 8) & 1;
  out.put(code.distanceBits[far]!, code.distanceCount[far]!);
}

/** Writes the end-of-block code. */
export function putEndOfBlock(out: BitWriter, code: RowCode): void {
  out.put(code.literalBits[END_OF_BLOCK]!, code.literalCount[END_OF_BLOCK]!);
}

/** Adler-32 of data[start, end), packed as zlib does (b << 16 | a); sums exact in doubles for rows up to millions of bytes. */
export function adler32(data: Uint8Array, start: number, end: number): number {
  let a = 1;
  let b = 0;
  for (let i = start; i < end; i++) {
    a += data[i]!;
    b += a;
  }
  return ((b % ADLER_BASE) * 65536 + (a % ADLER_BASE)) >>> 0;
}
