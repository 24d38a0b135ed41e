// Every board theme, drawn and sampled: its light and dark squares (and last-move squares) carry
// the theme's own colours, and no two themes share a board.
import { describe, expect, it } from 'vitest';
import { renderPng, type BoardScene } from '../../render/index.js';
import { computeLayout } from '../../render/layout.js';
import { THEME_NAMES, themeByName } from '../../render/theme.js';
import { decodePng, hex, pixel, squareRect, type Rgb } from './pixels.js';

// After 1. Nf3: g1 (dark) and f3 (light) are last-move squares; a3 is dark, b3 light, both empty.
const AFTER_NF3 = 'rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1';
const layout = computeLayout(480, { footer: false, holdings: false });

async function squareColours(theme: string): Promise<Record<string, Rgb>> {
  const scene = {
    fen: AFTER_NF3,
    orientation: 'white',
    lastMove: 'g1f3',
    white: { name: 'GuestWHITE', rating: '1500', clockMs: 180_000 },
    black: { name: 'GuestBLACK', rating: '1650', clockMs: 175_000 },
    theme,
  } as BoardScene;
  const png = renderPng(scene);
  if (!png.ok) throw new Error(png.error);
  const img = await decodePng(png.value);
  // Near a square's top right corner: clear of pieces and of the coordinate labels.
  const at = (name: string): Rgb => {
    const r = squareRect(layout.panel.board, name, 'white');
    return pixel(img, r.x + r.w - 6, r.y + 4);
  };
  return { light: at('b3'), dark: at('a3'), lightLast: at('f3'), darkLast: at('g1') };
}

describe('board themes', () => {
  it.each(THEME_NAMES)('%s: squares sampled in its colours', async (name) => {
    const theme = themeByName(name);
    const got = await squareColours(name);
    for (const key of ['light', 'dark', 'lightLast', 'darkLast'] as const) {
      expect(got[key], `${name} ${key}`).toEqual(hex(theme[key]));
    }
  });

  it('includes lichess-like grey, and no two themes draw the same board', async () => {
    expect(THEME_NAMES).toContain('grey');
    const boards = await Promise.all(
      THEME_NAMES.map(async (name) => JSON.stringify(await squareColours(name))),
    );
    expect(new Set(boards).size).toBe(THEME_NAMES.length);
  });
});
