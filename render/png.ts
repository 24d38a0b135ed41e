// A minimal writer for 8-bit palette PNGs. Our own because @napi-rs/canvas only encodes RGBA,
// which takes about 10 ms for a 480x603 board; palette indices are a quarter of the bytes, already
// laid out by the frame composer. The board's compressed rows come from our own deflate of cached
// region rows (region-deflate.ts); the clock chart's from node:zlib (encodeIndexedPng).
import { constants, crc32, deflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** A chunk's length, type and CRC around its data. */
const CHUNK_FRAME = 12;

/** Writes chunk `type` of `data` at `at` in `out`; returns where the next one starts. */
function writeChunk(out: Buffer, at: number, type: string, data: Uint8Array): number {
  out.writeUInt32BE(data.length, at);
  out.write(type, at + 4, 'latin1');
  out.set(data, at + 8);
  const end = at + 8 + data.length;
  // zlib's CRC-32 (node >= 20.15): a tenth of the time of a table walk in JavaScript.
  out.writeUInt32BE(crc32(out.subarray(at + 4, end)), end);
  return end + 4;
}

/**
 * The clock chart's deflate. zlib's run-length strategy: matches at distance 1 only, no hash
 * chains. Measured for the board PNG, before it had its own deflate, on the 1,107
 * positions of 13 games (docs/performance.md, "Board PNG band cache, ninth round"): deflate a
 * quarter faster than level 3 (0.65-0.75 ms against 0.9-1.0) for a fifth more bytes (median 23.3 KB
 * against 19.0, largest 28.6 against 24.3). At 1,000 games CPU is the bound, not upload.
 */
const PNG_DEFLATE = { strategy: constants.Z_RLE } as const;

/**
 * `rows` holds `height` rows of 1 filter byte (0: none) + `width` palette indices.
 * `palette` holds r, g, b per entry.
 */
export function encodeIndexedPng(
  width: number,
  height: number,
  palette: Uint8Array,
  rows: Uint8Array,
): Buffer {
  return indexedPng(width, height, palette, deflateSync(rows, PNG_DEFLATE));
}

/** The PNG of rows already compressed: `idat` is their zlib stream. */
export function indexedPng(width: number, height: number, palette: Uint8Array, idat: Uint8Array): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 3; // colour type: palette
  // One buffer, each chunk written in place: the compressed data is copied once.
  const chunks: [string, Uint8Array][] = [
    ['IHDR', header],
    ['PLTE', palette],
    ['IDAT', idat],
    ['IEND', new Uint8Array(0)],
  ];
  const out = Buffer.allocUnsafe(
    SIGNATURE.length + chunks.reduce((sum, [, data]) => sum + CHUNK_FRAME + data.length, 0),
  );
  SIGNATURE.copy(out, 0);
  let at = SIGNATURE.length;
  for (const [type, data] of chunks) at = writeChunk(out, at, type, data);
  return out;
}
