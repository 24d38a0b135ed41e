// Board PNGs decoded by a standard decoder (skia through @napi-rs/canvas) and checked pixel by pixel.
import { readFileSync } from 'node:fs';
import { GlobalFonts } from '@napi-rs/canvas';
import { makeSquare } from 'chessops/util';
import { beforeAll, describe, expect, it } from 'vitest';
import { FONT_FAMILY } from '../../render/assets.js';
import { renderPng, type BoardScene } from '../../render/index.js';
import { sceneFromSnapshot } from '../../src/game/scenes.js';
import { computeLayout, type Layout, type Rect } from '../../render/layout.js';
import { themeByName } from '../../render/theme.js';
import { decodeTranscript } from '../../src/game/transcript.js';
import type { GameSnapshot } from '../../src/game/snapshot.js';
import {
  content,
  count,
  decodePng,
  differs,
  expectBoard,
  hex,
  isBlackish,
  isRed,
  paintedFrame,
  pixel,
  pngRows,
  same,
  squareRect,
  type Decoded,
} from './pixels.js';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const brown = themeByName('brown');

function png(scene: BoardScene): Buffer {
  const out = renderPng(scene);
  if (!out.ok) throw new Error(out.error);
  return out.value;
}

const plain: BoardScene = {
  fen: START,
  orientation: 'white',
  white: { name: 'GuestWHITE', rating: '1500', clockMs: 180_000 },
  black: { name: 'GuestBLACK', rating: '1650', clockMs: 175_000 },
};
const single = computeLayout(480, { footer: false, holdings: false });

/** Pixels of a bar part that are not the bar's background. */
function ink(img: Decoded, layout: Layout, bar: Rect, part: 'info' | 'holdings' | 'clock'): number {
  const area = part === 'holdings' ? layout.bar.holdings! : layout.bar[part];
  return count(img, { x: bar.x + area.x, y: bar.y, w: area.w, h: bar.h }, differs(hex(brown.barBg)));
}

describe('board PNG', () => {
  let startImage: Decoded;
  let startBytes: Buffer;
  beforeAll(async () => {
    startBytes = png(plain);
    startImage = await decodePng(startBytes);
  });

  it('is an 8-bit palette PNG of a 480 px board with two 48 px bars and a 27 px file strip', () => {
    expect(startBytes.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(startBytes.readUInt32BE(16)).toBe(480);
    expect(startBytes.readUInt32BE(20)).toBe(603);
    expect(startBytes[24]).toBe(8); // bit depth
    expect(startBytes[25]).toBe(3); // colour type: palette
    expect(startImage.width).toBe(480);
    expect(startImage.height).toBe(603);
  });

  it('shows a white piece on each white-occupied square, a black one on each black, none elsewhere', () => {
    expectBoard(startImage, single.panel.board, START, 'white');
  });

  it('shows the squares in the theme colours, light on h1', () => {
    const board = single.panel.board;
    expect(pixel(startImage, ...topRight(squareRect(board, 'e4', 'white')))).toEqual(hex(brown.light));
    expect(pixel(startImage, ...topRight(squareRect(board, 'd4', 'white')))).toEqual(hex(brown.dark));
    expect(pixel(startImage, ...topRight(squareRect(board, 'h1', 'white')))).toEqual(hex(brown.light));
  });

  it('highlights both squares of the last move and no other', async () => {
    const fen = 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1';
    const img = await decodePng(png({ ...plain, fen, lastMove: 'e2e4' }));
    const board = single.panel.board;
    expect(pixel(img, ...topRight(squareRect(board, 'e2', 'white')))).toEqual(hex(brown.lightLast));
    expect(pixel(img, ...topRight(squareRect(board, 'e4', 'white')))).toEqual(hex(brown.lightLast));
    const lit = [brown.lightLast, brown.darkLast].map(hex);
    let highlighted = 0;
    for (let sq = 0; sq < 64; sq++) {
      const c = pixel(img, ...topRight(squareRect(board, makeSquare(sq), 'white')));
      if (lit.some((l) => same(l)(c))) highlighted++;
    }
    expect(highlighted).toBe(2);
    expectBoard(img, board, fen, 'white');
  });

  it('marks the king in check, and only when in check', async () => {
    const board = single.panel.board;
    // Scholar's mate: the black king on e8 is in check.
    const mate = 'r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4';
    const img = await decodePng(png({ ...plain, fen: mate, lastMove: 'h5f7' }));
    expect(count(img, squareRect(board, 'e8', 'white'), isRed)).toBeGreaterThan(100);
    expect(count(img, squareRect(board, 'e1', 'white'), isRed)).toBe(0);
    expect(count(startImage, squareRect(board, 'e8', 'white'), isRed)).toBe(0);
  });

  it('puts Black at the bottom when flipped', async () => {
    const img = await decodePng(png({ ...plain, orientation: 'black' }));
    const board = single.panel.board;
    expectBoard(img, board, START, 'black');
    // The screen's bottom-left square now holds Black's h8 rook, the top-left White's h1 rook.
    expect(
      content(img, { x: board.x, y: board.y + board.h - board.w / 8, w: board.w / 8, h: board.w / 8 }),
    ).toBe('black');
    expect(content(img, { x: board.x, y: board.y, w: board.w / 8, h: board.w / 8 })).toBe('white');
  });

  it('writes names and clocks in the bars, and nothing where there is nothing to write', async () => {
    const column = single.panel;
    expect(ink(startImage, single, column.topBar, 'info')).toBeGreaterThan(300);
    expect(ink(startImage, single, column.bottomBar, 'info')).toBeGreaterThan(300);
    expect(ink(startImage, single, column.bottomBar, 'clock')).toBeGreaterThan(1000);
    const bare = await decodePng(
      png({ ...plain, white: { name: '' }, black: { name: '' }, result: { result: '1-0', reason: null } }),
    );
    const bareLayout = computeLayout(480, { footer: true, holdings: false });
    expect(ink(bare, bareLayout, bareLayout.panel.bottomBar, 'info')).toBe(0);
    expect(ink(bare, bareLayout, bareLayout.panel.bottomBar, 'clock')).toBe(0);
  });

  it('draws text with the font it registered from the dejavu-fonts-ttf package', () => {
    // Without a registered font @napi-rs/canvas draws no text on a host without system fonts.
    expect(GlobalFonts.has(FONT_FAMILY)).toBe(true);
    expect(
      GlobalFonts.families
        .find((f) => f.family === FONT_FAMILY)
        ?.styles.map((s) => s.weight)
        .sort(),
    ).toEqual([400, 700]);
  });

  it('marks the side to move and a low clock', async () => {
    const column = single.panel;
    const marker = (img: Decoded, bar: Rect) =>
      count(img, { x: bar.x, y: bar.y, w: single.turnMarkerWidth, h: bar.h }, same(hex(brown.turn)));
    // White to move at the start: White's bar (bottom) is marked, Black's is not.
    expect(marker(startImage, column.bottomBar)).toBe(single.turnMarkerWidth * single.barHeight);
    expect(marker(startImage, column.topBar)).toBe(0);
    const low = await decodePng(png({ ...plain, black: { name: 'GuestBLACK', clockMs: 9_500 } }));
    const clock = { x: single.bar.clock.x, y: column.topBar.y, w: single.bar.clock.w, h: single.barHeight };
    expect(count(low, clock, same(hex(brown.clockLowBg)))).toBeGreaterThan(1000);
    expect(count(startImage, clock, same(hex(brown.clockLowBg)))).toBe(0);
  });

  it('writes the result and reason under a finished game', async () => {
    const layout = computeLayout(480, { footer: true, holdings: false });
    const img = await decodePng(png({ ...plain, result: { result: '0-1', reason: 'GuestWHITE resigns' } }));
    expect(img.height).toBe(layout.height);
    expect(img.height).toBeGreaterThan(576);
    const footer = layout.panel.footer!;
    expect(count(img, footer, differs(hex(brown.footerBg)))).toBeGreaterThan(500);
  });

  it('draws each theme in its own colours and scales with the size option', async () => {
    const blue = themeByName('blue');
    const img = await decodePng(png({ ...plain, theme: 'blue', size: 240 }));
    expect(img.width).toBe(240);
    const small = computeLayout(240, { footer: false, holdings: false });
    expect(pixel(img, ...topRight(squareRect(small.panel.board, 'e4', 'white')))).toEqual(hex(blue.light));
    expectBoard(img, small.panel.board, START, 'white');
    const large = await decodePng(png({ ...plain, size: 1024 }));
    expect(large.width).toBe(1024);
  });

  it('reports a bad FEN, last move or theme as an error value', () => {
    expect(renderPng({ ...plain, fen: 'not a fen' })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/invalid FEN/),
    });
    expect(renderPng({ ...plain, lastMove: 'e2' })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/last move/),
    });
    expect(renderPng({ ...plain, theme: 'pink' as never })).toMatchObject({
      ok: false,
      error: 'unknown theme "pink"',
    });
  });

  it('stays under 30 KB for a busy middlegame with clocks and names', () => {
    const fen = 'r1bq1rk1/pp2bppp/2n1pn2/2pp4/2PP4/2N1PN2/PP2BPPP/R1BQ1RK1 w - - 0 8';
    expect(png({ ...plain, fen, lastMove: 'e8g8' }).length).toBeLessThan(30_000);
  });
});

/** A pixel inside a square's top-right corner: clear of pieces and coordinate labels. */
function topRight(rect: Rect): [number, number] {
  return [rect.x + rect.w - 3, rect.y + 2];
}

describe('board PNG from real FICS games', () => {
  const transcript = (path: string): GameSnapshot[] =>
    decodeTranscript(readFileSync(new URL(`../fixtures/fics/${path}`, import.meta.url))).games;

  it('shows crazyhouse holdings with the side that holds them', async () => {
    // lasker, game 3: Black holds nine pawns, two bishops and a queen; White holds nothing.
    const game = transcript('lasker_crazyhouse/obs_multi.raw')[0]!;
    expect(game.holdings).toEqual({ white: '', black: 'PPPPPPPPPBBQ' });
    const scene = sceneFromSnapshot(game);
    const img = await decodePng(png(scene));
    const layout = computeLayout(480, { footer: true, holdings: true });
    const column = layout.panel;
    expectBoard(img, column.board, game.fen, 'white');
    const holdings = (bar: Rect) => ({
      x: bar.x + layout.bar.holdings!.x,
      y: bar.y,
      w: layout.bar.holdings!.w,
      h: bar.h,
    });
    // Black's bar (top) shows three kinds of black pieces; White's bar shows none.
    expect(count(img, holdings(column.topHand!), isBlackish)).toBeGreaterThan(3 * 100);
    expect(count(img, holdings(column.bottomHand!), differs(hex(brown.barBg)))).toBe(0);
    // The mated king on h7 is marked.
    expect(count(img, squareRect(column.board, 'h7', 'white'), isRed)).toBeGreaterThan(100);
  });

  it('draws each bughouse board in a picture of its own, the partner board flipped, with clocks and holdings', async () => {
    // FatICS, one observer on both boards of a bughouse match (games 20 and 21).
    const [main, partner] = transcript('fatics_bughouse/obs_both.raw');
    expect([main!.game, partner!.game]).toEqual([20, 21]);
    const drawn = async (scene: BoardScene) => {
      const img = await decodePng(png(scene));
      const layout = computeLayout(480, { footer: Boolean(scene.result), holdings: true });
      expect([img.width, img.height]).toEqual([480, layout.height]);
      for (const bar of [layout.panel.topBar, layout.panel.bottomBar])
        expect(ink(img, layout, bar, 'clock')).toBeGreaterThan(500);
      for (const hand of [layout.panel.topHand!, layout.panel.bottomHand!])
        expect(ink(img, layout, hand, 'holdings')).toBeGreaterThan(100);
      return { img, layout };
    };
    const left = await drawn(sceneFromSnapshot(main!));
    expectBoard(left.img, left.layout.panel.board, main!.fen, 'white');
    const { img, layout } = await drawn(sceneFromSnapshot(partner!, { orientation: 'black' }));
    expectBoard(img, layout.panel.board, partner!.fen, 'black');
    // Partner board: White (at the top) holds PP, Black (at the bottom) holds PQ.
    const holdings = (bar: Rect) => ({
      x: bar.x + layout.bar.holdings!.x,
      y: bar.y,
      w: layout.bar.holdings!.w,
      h: bar.h,
    });
    expect(count(img, holdings(layout.panel.topHand!), isBlackish)).toBeLessThan(
      count(img, holdings(layout.panel.bottomHand!), isBlackish),
    );
  });
});

describe('board PNG rows', () => {
  it('owe nothing to the boards drawn before them, whatever their size and layout', () => {
    // The render thread reuses one row buffer: a smaller board after a larger one, another stride,
    // a layout with fewer regions must each come out as if drawn into a fresh buffer.
    const scenes: BoardScene[] = [
      { ...plain, size: 1024, result: { result: '1-0', reason: 'Black resigns' } },
      { ...plain, size: 480 },
      { ...plain, size: 240, orientation: 'black', lastMove: 'e2e4' },
      {
        ...plain,
        size: 600,
        fen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Pn] w KQkq - 0 1',
        rules: 'crazyhouse',
        evaluation: { cp: 120, bestMove: 'g1f3' },
      },
      { ...plain, size: 333, theme: 'blue' },
    ];
    for (const scene of [...scenes, ...[...scenes].reverse()])
      expect(pngRows(png(scene)).equals(paintedFrame(scene).rows)).toBe(true);
  });
});
