// The result line under a finished game is always whole: long end texts and handles go on two
// lines, in a smaller font, inside the strip's margins.
import { describe, expect, it } from 'vitest';
import { fitResult } from '../../render/compose.js';
import { lineHeight, textWidth } from '../../render/glyphs.js';
import { renderPng, resultText, type BoardScene } from '../../render/index.js';
import { computeLayout, type Rect } from '../../render/layout.js';
import { themeByName } from '../../render/theme.js';
import { count, decodePng, differs, hex, type Decoded } from './pixels.js';

const brown = themeByName('brown');
const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const scene = (reason: string): BoardScene => ({
  fen: START,
  orientation: 'white',
  white: { name: 'GuestWHITEWHITEWHI', clockMs: 1_000 },
  black: { name: 'GuestBLACKBLACKBLA', clockMs: 2_000 },
  result: { result: '1/2-1/2', reason },
});

// The longest end texts a user meets: Kibitz's own, and FICS's with two 17-letter handles.
const LONG = [
  'The game ended while Kibitz was disconnected from FICS; the result is unknown',
  'Game drawn because GuestWHITEWHITEWHI ran out of time and GuestBLACKBLACKBLA has no material to mate',
  'GuestWHITEWHITEWHI forfeits by disconnection',
];

/** First and last rows of the strip with ink. */
function inkSpan(img: Decoded, box: Rect): number {
  const rows: number[] = [];
  for (let y = box.y; y < box.y + box.h; y++) {
    if (count(img, { x: box.x, y, w: box.w, h: 1 }, differs(hex(brown.footerBg))) > 0) rows.push(y);
  }
  return rows.length === 0 ? 0 : rows.at(-1)! - rows[0]! + 1;
}

describe('the result line', () => {
  for (const size of [240, 480, 1024]) {
    it(`is whole at ${size} px: long texts wrap on two lines inside the margins`, async () => {
      const layout = computeLayout(size, { footer: true, holdings: false });
      const box = layout.panel.footer!;
      for (const reason of LONG) {
        const text = resultText({ result: '1/2-1/2', reason });
        const { lines, font } = fitResult(text, layout.fontPx.footer, box);
        // Every word is there, none cut.
        expect(lines.join(' ')).toBe(text);
        for (const line of lines) expect(textWidth(line, font)).toBeLessThan(box.w - 4);
        const out = renderPng({ ...scene(reason), size });
        if (!out.ok) throw new Error(out.error);
        const img = await decodePng(out.value);
        expect(img.height).toBe(layout.height);
        // Nothing drawn against either edge: the text is not cut off there.
        const edge = Math.max(2, Math.round(box.h * 0.25)) - 1;
        for (const x of [box.x, box.x + box.w - edge]) {
          expect(count(img, { x, y: box.y, w: edge, h: box.h }, differs(hex(brown.footerBg)))).toBe(0);
        }
        // Two lines of ink where the text wraps (taller than one line), one otherwise.
        if (lines.length === 2) expect(inkSpan(img, box)).toBeGreaterThan(lineHeight(font));
        else expect(inkSpan(img, box)).toBeLessThanOrEqual(lineHeight(font));
      }
    });
  }

  it('keeps a short result on one line at the full size', () => {
    const layout = computeLayout(480, { footer: true, holdings: false });
    const fit = fitResult('0-1 · GuestWHITE resigns', layout.fontPx.footer, layout.panel.footer!);
    expect(fit).toEqual({
      lines: ['0-1 · GuestWHITE resigns'],
      font: { px: layout.fontPx.footer, bold: true },
    });
  });

  it('cuts only a text too long for two lines at the smallest size, with an ellipsis', () => {
    const layout = computeLayout(240, { footer: true, holdings: false });
    const box = layout.panel.footer!;
    const fit = fitResult('word '.repeat(200).trim(), layout.fontPx.footer, box);
    expect(fit.lines).toHaveLength(2);
    expect(fit.lines[1]!.endsWith('…')).toBe(true);
    for (const line of fit.lines) expect(textWidth(line, fit.font)).toBeLessThan(box.w);
  });
});
