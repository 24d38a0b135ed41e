// Test helpers: decode images with standard decoders (skia for PNG, omggif for GIF) and look at
// the pixels of squares and bars.
import { inflateSync } from 'node:zlib';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { GifReader } from 'omggif';
import { parseFen } from 'chessops/fen';
import { makeSquare, parseSquare } from 'chessops/util';
import { expect } from 'vitest';
import { composeScene, layoutNeeds, readScene } from '../../render/compose.js';
import type { BoardScene } from '../../render/index.js';
import type { Rect } from '../../render/layout.js';
import { parseHex } from '../../render/theme.js';

export interface Decoded {
  width: number;
  height: number;
  rgba: Uint8ClampedArray;
}

export async function decodePng(png: Buffer): Promise<Decoded> {
  const image = await loadImage(png);
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0);
  return {
    width: image.width,
    height: image.height,
    rgba: ctx.getImageData(0, 0, image.width, image.height).data,
  };
}

/**
 * True when a frame's LZW codes are well formed (each code at most the next free one). omggif loops
 * forever on codes that refer to table entries not yet made, so a broken encoder would hang the
 * tests instead of failing them; this walks the codes first, by the decoder's width rules.
 */
function lzwWellFormed(gif: Uint8Array, offset: number): boolean {
  const minCodeSize = gif[offset]!;
  const clear = 1 << minCodeSize;
  const data: number[] = [];
  for (let p = offset + 1; gif[p]! !== 0; p += gif[p]! + 1) {
    data.push(...gif.subarray(p + 1, p + 1 + gif[p]!));
  }
  let bit = 0;
  let codeSize = minCodeSize + 1;
  let next = clear + 2;
  let prev: number | null = null;
  while (bit + codeSize <= data.length * 8) {
    let code = 0;
    for (let i = 0; i < codeSize; i++, bit++) code |= ((data[bit >> 3]! >> (bit & 7)) & 1) << i;
    if (code === clear) {
      codeSize = minCodeSize + 1;
      next = clear + 2;
      prev = null;
    } else if (code === clear + 1) {
      return true;
    } else if (prev === null) {
      if (code >= clear) return false;
      prev = code;
    } else {
      if (code > next) return false;
      if (next < 4096 && ++next === 1 << codeSize && codeSize < 12) codeSize++;
      prev = code;
    }
  }
  return false; // no end code
}

/** Every frame of a GIF composited in turn (as a viewer shows them), plus the frame records. */
export function decodeGif(gif: Buffer): { reader: GifReader; frames: Decoded[] } {
  const reader = new GifReader(gif);
  const rgba = new Uint8ClampedArray(reader.width * reader.height * 4);
  const frames: Decoded[] = [];
  for (let i = 0; i < reader.numFrames(); i++) {
    if (!lzwWellFormed(gif, reader.frameInfo(i).data_offset)) {
      throw new Error(`frame ${i}: malformed LZW codes`);
    }
    reader.decodeAndBlitFrameRGBA(i, rgba);
    frames.push({ width: reader.width, height: reader.height, rgba: rgba.slice() });
  }
  return { reader, frames };
}

export type Rgb = [number, number, number];

export function pixel(img: Decoded, x: number, y: number): Rgb {
  const i = (y * img.width + x) * 4;
  return [img.rgba[i]!, img.rgba[i + 1]!, img.rgba[i + 2]!];
}

export const hex = (colour: string): Rgb => [...parseHex(colour)];

/** Pixels of a rectangle that pass a test. */
export function count(img: Decoded, rect: Rect, test: (c: Rgb) => boolean): number {
  let n = 0;
  for (let y = rect.y; y < rect.y + rect.h; y++) {
    for (let x = rect.x; x < rect.x + rect.w; x++) if (test(pixel(img, x, y))) n++;
  }
  return n;
}

export const isWhitish = ([r, g, b]: Rgb): boolean => r > 235 && g > 235 && b > 235;
export const isBlackish = ([r, g, b]: Rgb): boolean => r < 30 && g < 30 && b < 30;
export const isRed = ([r, g, b]: Rgb): boolean => r > 150 && g < 90 && b < 90;
export const same =
  (want: Rgb) =>
  (c: Rgb): boolean =>
    c[0] === want[0] && c[1] === want[1] && c[2] === want[2];
export const differs =
  (want: Rgb) =>
  (c: Rgb): boolean =>
    !same(want)(c);

/** The screen rectangle of a named square on a board drawn at `board`. */
export function squareRect(board: Rect, name: string, orientation: 'white' | 'black'): Rect {
  const sq = parseSquare(name)!;
  const file = sq % 8;
  const rank = sq >> 3;
  const size = board.w / 8;
  const col = orientation === 'white' ? file : 7 - file;
  const row = orientation === 'white' ? 7 - rank : rank;
  return { x: board.x + col * size, y: board.y + row * size, w: size, h: size };
}

/** The middle of a square, away from coordinate labels and the square's edges. */
export function inner(rect: Rect): Rect {
  const m = Math.round(rect.w * 0.2);
  return { x: rect.x + m, y: rect.y + m, w: rect.w - 2 * m, h: rect.h - 2 * m };
}

export type SquareContent = 'white' | 'black' | 'empty';

/**
 * What a square shows. Both piece colours have black outlines and white details; measured on the
 * cburnett set at 240, 480 and 1024 px, white is 45-65 % of a white piece's ink and at most 25 % of
 * a black piece's.
 */
export function content(img: Decoded, rect: Rect): SquareContent {
  const white = count(img, inner(rect), isWhitish);
  const black = count(img, inner(rect), isBlackish);
  if (white + black < (rect.w * rect.h) / 50) return 'empty';
  return white / (white + black) > 0.35 ? 'white' : 'black';
}

/** Every square's content as the image shows it, against the FEN. */
export function expectBoard(img: Decoded, board: Rect, fen: string, orientation: 'white' | 'black'): void {
  const setup = parseFen(fen);
  if (setup.isErr) throw setup.error;
  for (let sq = 0; sq < 64; sq++) {
    const name = makeSquare(sq);
    const want = setup.value.board.get(sq)?.color ?? 'empty';
    expect(`${name}: ${content(img, squareRect(board, name, orientation))}`).toBe(`${name}: ${want}`);
  }
}

/** The rows a PNG holds (filter bytes and palette indices), from its IDAT chunks. */
export function pngRows(bytes: Buffer): Buffer {
  const idat: Buffer[] = [];
  for (let at = 8; at < bytes.length;) {
    const length = bytes.readUInt32BE(at);
    if (bytes.toString('latin1', at + 4, at + 8) === 'IDAT')
      idat.push(bytes.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  return inflateSync(Buffer.concat(idat));
}

/**
 * A scene's whole frame painted into a fresh zeroed buffer, every region in turn: the rows a PNG
 * must hold (as renderPng painted them before region rows were cached), with its palette.
 */
export function paintedFrame(scene: BoardScene): { rows: Buffer; rgb: Uint8Array; width: number } {
  const read = readScene(scene);
  if (!read.ok) throw new Error(read.error);
  const frame = composeScene(scene, read.value, layoutNeeds(scene, read.value));
  const stride = frame.width + 1;
  const rows = Buffer.alloc(stride * frame.height);
  for (const region of frame.regions) region.paint({ data: rows, stride, base: 1 });
  return { rows, rgb: frame.palette.rgb, width: frame.width };
}
