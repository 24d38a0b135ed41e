// What a live post's picture shows, square by square (decoded with the renderer tests' helpers).
import { expect } from 'vitest';
import { DEFAULT_SIZE, computeLayout } from '../../render/layout.js';
import { decodePng, expectBoard, type Decoded } from '../render/pixels.js';

export const START_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

/** Decodes a live post's PNG and checks every square against `fen`, seen from `orientation`. */
export async function expectImageShows(
  png: Buffer,
  fen: string,
  orientation: 'white' | 'black' = 'white',
  ended = false,
): Promise<Decoded> {
  const img = await decodePng(png);
  const layout = computeLayout(DEFAULT_SIZE, { footer: ended, holdings: false });
  expect([img.width, img.height]).toEqual([layout.width, layout.height]);
  expectBoard(img, layout.panel.board, fen, orientation);
  return img;
}
