// The chart of a whole game, decoded by a standard PNG decoder and checked pixel by pixel: both
// clock lines in their own colours, as wide as the game is long, the evaluation when given.
import { afterAll, describe, expect, it } from 'vitest';
import { chartColours, chartLayout, renderChart, type ChartScene } from '../../render/chart.js';
import type { Rect } from '../../render/layout.js';
import { RenderPool } from '../../render/worker-pool.js';
import { recordChartScene, snapshotChartScene } from '../../src/game/chart-scene.js';
import { parsePgn } from '../../src/game/pgn.js';
import { decodeTranscript } from '../../src/game/transcript.js';
import { transcript } from '../support/fixtures.js';
import { count, decodePng, hex, pixel, same, type Decoded } from './pixels.js';
import { THEME_NAMES } from '../../render/theme.js';

const colours = chartColours();

async function draw(scene: ChartScene): Promise<Decoded> {
  const png = renderChart(scene);
  if (!png.ok) throw new Error(png.error);
  return decodePng(png.value);
}

/** Columns of the plot holding at least one pixel of `colour`, and each one's topmost such row. */
function columns(img: Decoded, plot: Rect, colour: string): Map<number, number> {
  const want = same(hex(colour));
  const found = new Map<number, number>();
  // The line's brush reaches a little past the plot on each side.
  for (let x = plot.x - 4; x < plot.x + plot.w + 4; x++) {
    for (let y = plot.y - 4; y < plot.y + plot.h + 4; y++) {
      if (want(pixel(img, x, y))) {
        found.set(x, y);
        break;
      }
    }
  }
  return found;
}

/** Where ply `ply` of `plies` lies across the plot. */
const columnOf = (plot: Rect, ply: number, plies: number): number => plot.x + (ply / plies) * (plot.w - 1);

function realGame(plies: number) {
  const { games } = decodeTranscript(transcript('fatics_special', 'obs_start.raw'));
  const game = games.find((g) => g.san.length === plies);
  if (game === undefined) throw new Error(`no game of ${plies} plies`);
  return game;
}

describe('clock chart', () => {
  it('draws both clocks of a real game in two colours, from its start to its last ply', async () => {
    const game = realGame(139);
    const scene = snapshotChartScene(game)!;
    const layout = chartLayout(scene);
    const img = await draw(scene);
    expect([img.width, img.height]).toEqual([800, 400]);
    expect(colours.white).not.toBe(colours.black);
    const white = columns(img, layout.plot, colours.white);
    const black = columns(img, layout.plot, colours.black);
    // Each line runs across the whole plot: from the time control at ply 0 to its side's last ply.
    expect(white.size).toBeGreaterThan(layout.plot.w * 0.9);
    expect(black.size).toBeGreaterThan(layout.plot.w * 0.9);
    const n = game.clocksMs.length;
    const near = (x: number, want: number): void => expect(Math.abs(x - want)).toBeLessThanOrEqual(3);
    // 139 plies: White made the last one, Black the one before.
    near(Math.max(...white.keys()), columnOf(layout.plot, n, n));
    near(Math.max(...black.keys()), columnOf(layout.plot, n - 1, n));
    near(Math.min(...white.keys()), layout.plot.x);
    near(Math.min(...black.keys()), layout.plot.x);
  });

  it('puts a ply where its number says across the plot: the axis is as long as the game', async () => {
    // White thinks 50 s over ply 21, Black never: 40 plies of a 1-minute game.
    const clocksMs = Array.from({ length: 40 }, (_, i) => (i % 2 === 0 && i >= 20 ? 10_000 : 60_000));
    for (const plies of [40, 24]) {
      const scene: ChartScene = {
        white: 'Slow',
        black: 'Fast',
        firstMover: 'white',
        firstMoveNumber: 1,
        clocksMs: clocksMs.slice(0, plies),
        initialClockMs: 60_000,
      };
      const { plot } = chartLayout(scene);
      const white = columns(await draw(scene), plot, colours.white);
      // 60 s is the top of the axis (a round step), 10 s a sixth of the way up.
      const top = plot.y;
      const low = plot.y + plot.h - 1 - (plot.h - 1) / 6;
      const before = Math.round(columnOf(plot, 19, plies));
      // Ply 22 is Black's: White's line is flat there, between its plies 21 and 23.
      const after = Math.round(columnOf(plot, 22, plies));
      expect(white.get(before)).toBeLessThanOrEqual(top + 2);
      expect(white.get(after)).toBeGreaterThan(low - 4);
      // Past the drop the line stays low, to the last white ply.
      expect(white.get(Math.round(columnOf(plot, plies - 1, plies)))).toBeGreaterThan(low - 4);
    }
  });

  it('labels the clocks m:ss and the moves by number, in the board’s text colours', async () => {
    const scene = snapshotChartScene(realGame(97))!;
    const layout = chartLayout(scene);
    const img = await draw(scene);
    const dim = same(hex(colours.dim));
    // Clock labels left of the plot, move numbers under it, names above it.
    expect(
      count(img, { x: 0, y: layout.plot.y - 10, w: layout.plot.x, h: layout.plot.h + 20 }, dim),
    ).toBeGreaterThan(200);
    const below = {
      x: layout.plot.x,
      y: layout.plot.y + layout.plot.h + 2,
      w: layout.plot.w,
      h: img.height - layout.plot.y - layout.plot.h - 2,
    };
    expect(count(img, below, dim)).toBeGreaterThan(150);
    expect(
      count(img, { x: 0, y: 0, w: img.width, h: layout.plot.y }, same(hex(colours.text))),
    ).toBeGreaterThan(300);
  });

  it('draws an evaluation line on its own scale only when the scene has one', async () => {
    const game = realGame(97);
    const plain = snapshotChartScene(game)!;
    const withEval: ChartScene = {
      ...plain,
      // White better by a pawn, then a mate (off the scale: drawn at the edge), some unknown.
      evaluations: game.clocksMs.map((_, i) => (i < 50 ? 1 : i < 60 ? null : 99)),
    };
    const layout = chartLayout(withEval);
    const evaluation = columns(await draw(withEval), layout.plot, colours.evaluation);
    expect(evaluation.size).toBeGreaterThan(layout.plot.w * 0.7);
    // +1 of ±5 pawns is 40% from the top; the mate sits at the top edge.
    const at = (ply: number): number | undefined =>
      evaluation.get(Math.round(columnOf(layout.plot, ply, 97)));
    expect(at(20)).toBeCloseTo(layout.plot.y + 0.4 * (layout.plot.h - 1) - layout.lineWidth / 2, -1);
    expect(at(80)).toBeLessThanOrEqual(layout.plot.y + 2);
    expect(columns(await draw(plain), chartLayout(plain).plot, colours.evaluation).size).toBe(0);
  });

  it('says why it cannot draw a game', () => {
    const scene: ChartScene = {
      white: 'a',
      black: 'b',
      firstMover: 'white',
      firstMoveNumber: 1,
      clocksMs: [],
    };
    expect(renderChart(scene)).toEqual({ ok: false, error: 'no moves to chart' });
    expect(renderChart({ ...scene, clocksMs: [null, null] })).toEqual({
      ok: false,
      error: 'no clocks or evaluations to chart',
    });
    expect(renderChart({ ...scene, clocksMs: new Array<number>(100_001).fill(1000) })).toEqual({
      ok: false,
      error: '100001 plies: a chart takes 100000 at most',
    });
    // The longest game KIBITZ_MAX_PLIES allows is drawn.
    expect(renderChart({ ...scene, clocksMs: new Array<number>(100_000).fill(1000) }).ok).toBe(true);
    // Values no game has are drawn around, not looped on: an infinite clock is unknown, a move
    // number past a million counts from 1, a size that is not a number is the default.
    const odd = renderChart({
      ...scene,
      clocksMs: [Infinity, 30_000, -5_000, Number.NaN, 20_000],
      evaluations: [-Infinity, Infinity, Number.NaN],
      firstMoveNumber: 1e300,
      white: 'W'.repeat(100_000),
      width: Number.NaN,
    });
    if (!odd.ok) throw new Error(odd.error);
    expect(odd.value.readUInt32BE(16)).toBe(800);
    // A game without any clock has no chart at all.
    expect(snapshotChartScene({ ...realGame(97), clocksMs: [null, null] })).toBeNull();
  });

  it("draws each chart in its own theme's colours, whichever themes came before it", async () => {
    const game = realGame(139);
    const scene = { ...snapshotChartScene(game)!, evaluations: game.clocksMs.map((_, i) => (i % 20) - 10) };
    const { plot } = chartLayout(scene);
    // Each theme's colours are made once and kept: a chart must not take an earlier theme's.
    for (const theme of [...THEME_NAMES, ...[...THEME_NAMES].reverse()]) {
      const img = await draw({ ...scene, theme });
      expect(columns(img, plot, chartColours(theme).evaluation).size).toBeGreaterThan(plot.w * 0.7);
    }
  });

  it('charts a game read back from its PGN, clocks from its comments, Black first from a set-up', () => {
    const pgn = parsePgn(
      '[White "A"]\n[Black "B"]\n[SetUp "1"]\n[FEN "4k3/8/8/8/8/8/8/4K2R b K - 0 30"]\n\n' +
        '30... Kd7 {[%clk 0:01:00]} 31. Rh7+ {[%clk 0:00:50]} Ke6 {[%clk 0:00:40]} *',
    );
    if (!pgn.ok) throw new Error(pgn.error);
    expect(recordChartScene(pgn.value[0]!)).toMatchObject({
      firstMover: 'black',
      firstMoveNumber: 30,
      clocksMs: [60_000, 50_000, 40_000],
    });
  });
});

describe('clock chart in the render pool', () => {
  const pool = new RenderPool({ workers: 1 });
  afterAll(() => pool.close());

  it('renders the same bytes as the main thread', async () => {
    const scene = snapshotChartScene(realGame(139))!;
    const inline = renderChart(scene);
    const pooled = await pool.chart(scene);
    if (!inline.ok || !pooled.ok) throw new Error('not rendered');
    expect(pooled.value.equals(inline.value)).toBe(true);
  });
});

describe('a chart read at a glance', () => {
  /** Relative luminance, 0 (black) to 1 (white). */
  const luminance = (colour: string): number => {
    const [r, g, b] = hex(colour).map((c) => {
      const v = c / 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };

  it('draws the two players in lines that differ in lightness as well as colour', () => {
    const { white, black } = chartColours();
    // A contrast ratio of 3 between them: apart in grey too.
    expect((luminance(white) + 0.05) / (luminance(black) + 0.05)).toBeGreaterThan(3);
    const [r, g, b] = hex(black);
    expect(Math.max(r, g, b) - Math.min(r, g, b)).toBeGreaterThan(80);
  });

  it('draws the time each move took as a bar, the longest reaching highest', async () => {
    // White thinks 50 s on its 3rd move (ply 5), Black 20 s on its 2nd (ply 4); the rest 1 s.
    const scene: ChartScene = {
      white: 'A',
      black: 'B',
      firstMover: 'white',
      firstMoveNumber: 1,
      initialClockMs: 180_000,
      clocksMs: [179_000, 179_000, 178_000, 159_000, 128_000, 158_000, 127_000, 157_000],
    };
    const layout = chartLayout(scene);
    const img = await draw(scene);
    const { plot } = layout;
    const height = (ply: number, colour: string): number => {
      const x = Math.round(columnOf(plot, ply, layout.plies));
      // From just above the plot's bottom edge (the zero line's row).
      let top = plot.y + plot.h - 2;
      while (top > plot.y && same(hex(colour))(pixel(img, x, top - 1))) top--;
      return plot.y + plot.h - top;
    };
    const whiteLong = height(5, colours.white);
    const blackLong = height(4, colours.black);
    expect(whiteLong).toBeGreaterThan(plot.h * 0.25);
    expect(blackLong).toBeGreaterThan(whiteLong * 0.3);
    expect(blackLong).toBeLessThan(whiteLong * 0.5);
    expect(height(1, colours.white)).toBeLessThan(whiteLong * 0.1);
  });
});
