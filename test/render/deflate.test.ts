// Our deflate writer (render/deflate.ts): length-limited Huffman codes that inflaters accept, and
// rows tokenized, coded and read back by zlib's inflate.
import { inflateRawSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BitWriter,
  canonicalCodes,
  countSymbols,
  huffmanLengths,
  makeRowCode,
  MAX_CODE_BITS,
  putEndOfBlock,
  putToken,
  symbolCounts,
  tokenizeRows,
} from '../../render/deflate.js';
import { HEAVY_TEST_MS } from '../support/bounds.js';

/** Sum of 2^(maxBits - length) over the coded symbols: 2^maxBits for a complete code. */
function kraft(lengths: Uint8Array, maxBits: number): number {
  let sum = 0;
  for (const length of lengths) if (length > 0) sum += 2 ** (maxBits - length);
  return sum;
}

function cost(counts: readonly number[], lengths: Uint8Array): number {
  return counts.reduce((sum, count, symbol) => sum + count * lengths[symbol]!, 0);
}

function fibonacci(n: number): number[] {
  const out = [1, 1];
  while (out.length < n) out.push(out.at(-1)! + out.at(-2)!);
  return out;
}

describe('huffmanLengths', () => {
  it('limits Fibonacci counts (a 39-deep Huffman tree) to 15 bits with a complete code', () => {
    const counts = fibonacci(40);
    expect(Math.max(...huffmanLengths(counts, 64))).toBe(39);
    const lengths = huffmanLengths(counts, MAX_CODE_BITS);
    expect(Math.max(...lengths)).toBe(MAX_CODE_BITS);
    expect(Math.min(...lengths)).toBeGreaterThan(0);
    expect(kraft(lengths, MAX_CODE_BITS)).toBe(2 ** MAX_CODE_BITS);
    // A more frequent symbol never has a longer code.
    for (let i = 1; i < counts.length; i++) expect(lengths[i]!).toBeLessThanOrEqual(lengths[i - 1]!);
  });

  it('limits 286 symbols of Fibonacci counts (the literal/length alphabet) and 19 to 7 bits', () => {
    for (const [n, maxBits] of [
      [286, 15],
      [19, 7],
    ] as const) {
      // Doubles hold Fibonacci numbers far past 2^53 only approximately: still a skewed input.
      const lengths = huffmanLengths(fibonacci(n), maxBits);
      expect(Math.max(...lengths)).toBe(maxBits);
      expect(kraft(lengths, maxBits)).toBe(2 ** maxBits);
    }
  });

  it('gives complete codes within the bound, Huffman-optimal when the bound does not bind', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 1_000_000 })), {
          minLength: 2,
          maxLength: 286,
        }),
        fc.integer({ min: 9, max: 15 }),
        (counts, maxBits) => {
          const used = counts.filter((count) => count > 0).length;
          const lengths = huffmanLengths(counts, maxBits);
          counts.forEach((count, symbol) => expect(lengths[symbol]! > 0).toBe(count > 0));
          if (used === 0) return;
          if (used === 1) {
            expect(Math.max(...lengths)).toBe(1);
            return;
          }
          expect(Math.max(...lengths)).toBeLessThanOrEqual(maxBits);
          expect(kraft(lengths, maxBits)).toBe(2 ** maxBits);
          const free = huffmanLengths(counts, 64);
          if (Math.max(...free) <= maxBits) expect(cost(counts, lengths)).toBe(cost(counts, free));
          else expect(cost(counts, lengths)).toBeGreaterThanOrEqual(cost(counts, free));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('gives canonical codes no one of which is the start of another', () => {
    const lengths = huffmanLengths(fibonacci(30), MAX_CODE_BITS);
    const codes = canonicalCodes(lengths);
    // Back to most-significant-bit-first strings.
    const strings = [...lengths].map((length, symbol) =>
      [...Array(length).keys()].map((bit) => (codes[symbol]! >> bit) & 1).join(''),
    );
    for (const a of strings) for (const b of strings) if (a !== b) expect(b.startsWith(a)).toBe(false);
    expect(new Set(strings).size).toBe(strings.length);
  });
});

/** One raw deflate block of `rows` x `width` bytes, coded with a code made from `sample`'s tokens. */
function deflateRows(data: Uint8Array, width: number, rows: number, sample: Uint8Array): Uint8Array {
  const tokenize = (bytes: Uint8Array): { tokens: Int32Array; length: number } => {
    const tokens = new Int32Array(width * rows);
    const length = tokenizeRows(bytes, 0, width, rows, width, tokens, 0, new Int32Array(rows));
    return { tokens, length };
  };
  const counts = symbolCounts();
  const fromSample = tokenize(sample);
  countSymbols(fromSample.tokens, fromSample.length, counts);
  const code = makeRowCode(counts, width);
  const out = new BitWriter();
  out.append(code.header.words, 0, code.header.bits);
  const { tokens, length } = tokenize(data);
  for (let i = 0; i < length; i++) putToken(out, code, tokens[i]!);
  putEndOfBlock(out, code);
  out.alignToByte();
  return out.bytes().slice();
}

describe('rows as one deflate block', () => {
  const rowsOf = (width: number, height: number, pick: (x: number, y: number) => number): Uint8Array =>
    Uint8Array.from({ length: width * height }, (_, i) => pick(i % width, Math.floor(i / width)));

  it('reads back through zlib: runs, rows like the one above, long rows, any byte', () => {
    const width = 700;
    const height = 40;
    const image = rowsOf(width, height, (x, y) =>
      y % 5 === 4 ? (x * 7 + y) & 255 : y % 3 === 0 ? Math.floor(x / 300) : (x * 13) % 256 === 0 ? 9 : 3,
    );
    const sample = rowsOf(width, height, () => 0);
    const bytes = deflateRows(image, width, height, sample);
    expect(Buffer.from(inflateRawSync(bytes)).equals(Buffer.from(image))).toBe(true);
    expect(bytes.length).toBeLessThan(image.length / 4);
  });

  it(
    'reads back through zlib for random rows of few colours, whatever the sample was',
    () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 2, max: 300 }),
          fc.integer({ min: 1, max: 12 }),
          fc.integer({ min: 1, max: 256 }),
          fc.integer(),
          (width, height, colours, seed) => {
            let state = seed >>> 0 || 1;
            const random = (): number => {
              state ^= state << 13;
              state ^= state >>> 17;
              state ^= state << 5;
              return (state >>> 0) / 2 ** 32;
            };
            const rows: number[] = [];
            for (let i = 0; i < width * height; i++) {
              const roll = random();
              // Runs, copies of the row above, and new bytes.
              rows.push(
                roll < 0.5 && i % width > 0
                  ? rows[i - 1]!
                  : roll < 0.8 && i >= width
                    ? rows[i - width]!
                    : Math.floor(random() * colours),
              );
            }
            const image = Uint8Array.from(rows);
            const sample = Uint8Array.from(rows, (_, i) => (i * 31) % colours);
            const bytes = deflateRows(image, width, height, sample);
            expect(Buffer.from(inflateRawSync(bytes)).equals(Buffer.from(image))).toBe(true);
          },
        ),
        { numRuns: 200 },
      );
    },
    HEAVY_TEST_MS,
  );
});
