// No name or result text can stall a render: fitting costs O(log n) measurements (a binary search
// on the cut), counted here on every call the renderer makes to measure text.
import { afterEach, beforeAll, describe, expect, it, vi, type Mock } from 'vitest';
import type * as Glyphs from '../../render/glyphs.js';
import type * as Compose from '../../render/compose.js';
import type * as Render from '../../render/index.js';
import type * as Layout from '../../render/layout.js';

// The renderer is loaded afresh with textWidth counted: the unit project shares its module cache
// between files (isolate: false, vitest.config.ts), where a hoisted vi.mock would come too late.
let measured: Mock<typeof Glyphs.textWidth>;
let textWidth: typeof Glyphs.textWidth;
let fitResult: typeof Compose.fitResult;
let renderPng: typeof Render.renderPng;
let computeLayout: typeof Layout.computeLayout;
beforeAll(async () => {
  vi.resetModules();
  vi.doMock('../../render/glyphs.js', async (original) => {
    const actual = await original<typeof Glyphs>();
    return { ...actual, textWidth: vi.fn(actual.textWidth) };
  });
  ({ textWidth } = await import('../../render/glyphs.js'));
  measured = vi.mocked(textWidth);
  ({ fitResult } = await import('../../render/compose.js'));
  ({ renderPng } = await import('../../render/index.js'));
  ({ computeLayout } = await import('../../render/layout.js'));
});

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const LONG = 40_000;
/** Generous: two bars of log2(40,000) ≈ 16 steps each, plus the clocks and the footer. */
const MAX_MEASUREMENTS = 120;

afterEach(() => measured.mockClear());

describe('a very long name', () => {
  it(`of ${LONG.toLocaleString('en')} characters renders with a bounded number of measurements`, () => {
    const scene: Render.BoardScene = {
      fen: START,
      orientation: 'white',
      white: { name: 'W'.repeat(LONG), rating: '1500', clockMs: 60_000 },
      black: { name: 'b'.repeat(LONG), rating: '1600', clockMs: 60_000 },
    };
    const out = renderPng(scene);
    expect(out.ok).toBe(true);
    expect(measured.mock.calls.length).toBeGreaterThan(0);
    expect(measured.mock.calls.length).toBeLessThan(MAX_MEASUREMENTS);
  });

  it('is cut to the longest prefix that fits with its ellipsis', () => {
    const layout = computeLayout(480, { footer: true, holdings: false });
    const box = layout.panel.footer!;
    const fit = fitResult('x'.repeat(LONG), layout.fontPx.footer, box);
    expect(measured.mock.calls.length).toBeLessThan(MAX_MEASUREMENTS);
    const last = fit.lines.at(-1)!;
    const width = box.w - 2 * Math.max(2, Math.round(box.h * 0.25));
    expect(textWidth(last, fit.font)).toBeLessThanOrEqual(width);
    expect(textWidth(`x${last}`, fit.font)).toBeGreaterThan(width);
  });

  it('of many words fits the result strip with a bounded number of measurements', () => {
    const layout = computeLayout(480, { footer: true, holdings: false });
    const fit = fitResult('word '.repeat(LONG / 5).trim(), layout.fontPx.footer, layout.panel.footer!);
    expect(fit.lines).toHaveLength(2);
    expect(fit.lines[1]!.endsWith('…')).toBe(true);
    expect(measured.mock.calls.length).toBeLessThan(MAX_MEASUREMENTS * 4);
  });
});
