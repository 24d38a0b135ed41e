// A whole game at a glance: both clocks over the moves (and an engine's evaluation, when there is
// one) as a line chart, drawn with the board's fonts and theme colours, sized for a phone.
import type { Color } from 'chessops/types';
import { formatClock } from './format.js';
import { drawText, lineHeight, textWidth, type FontSpec } from './glyphs.js';
import type { Rect } from './layout.js';
import { blend, Palette } from './palette.js';
import { encodeIndexedPng } from './png.js';
import type { RenderResult } from './scene.js';
import { fillRect, type Surface } from './surface.js';
import { DEFAULT_THEME, isThemeName, parseHex, themeByName, type Rgb, type ThemeName } from './theme.js';

export interface ChartScene {
  white: string;
  black: string;
  /** The side that made the first ply of the series. */
  firstMover: Color;
  /** Move number of the first ply (1 from the start position). */
  firstMoveNumber: number;
  /** The mover's remaining clock after each ply, ms; null where unknown. */
  clocksMs: (number | null)[];
  /** Both clocks before the first ply, where known: the lines start there. */
  initialClockMs?: number | null;
  /**
   * White's advantage after each ply, in pawns, where known; drawn on its own scale of
   * ±EVAL_RANGE pawns, past which (a mate included) it stays at the edge.
   */
  evaluations?: (number | null)[];
  theme?: ThemeName;
  /** Pixels, clamped to CHART_WIDTH_RANGE / CHART_HEIGHT_RANGE. */
  width?: number;
  height?: number;
}

export const DEFAULT_CHART_WIDTH = 800;
export const DEFAULT_CHART_HEIGHT = 400;
export const CHART_WIDTH_RANGE = [400, 1600] as const;
export const CHART_HEIGHT_RANGE = [200, 800] as const;
/** Pawns at the top (White better) and bottom edge of the evaluation scale. */
export const EVAL_RANGE = 5;
/** Plies a chart takes: the most a game may have (KIBITZ_MAX_PLIES goes up to 100,000). */
export const MAX_CHART_PLIES = 100_000;

const WHITE_LINE = '#f4f4f4';
const BLACK_LINE = '#3f8fe0';

/** The colours of a chart in a theme: text after the board's bars; the lines the same in every theme. */
export function chartColours(theme: ThemeName = DEFAULT_THEME): {
  background: string;
  grid: string;
  text: string;
  dim: string;
  white: string;
  black: string;
  evaluation: string;
} {
  const t = themeByName(theme);
  return {
    background: t.barBg,
    grid: t.clockBg,
    text: t.barText,
    dim: t.barDim,
    // The two players' lines differ in lightness as well as colour (near white against a mid
    // blue), so that they stay apart in grey, for colour-blind readers and at Discord's size.
    white: WHITE_LINE,
    black: BLACK_LINE,
    evaluation: t.lightLast,
  };
}

export interface ChartLayout {
  width: number;
  height: number;
  /** Where the lines are drawn: ply 0 at its left edge, the last ply at its right. */
  plot: Rect;
  /** Plies on the time axis. */
  plies: number;
  fontPx: { title: number; label: number };
  lineWidth: number;
}

/** `v` rounded into the range; the default for anything that is not a finite number. */
const clamp = (v: number | undefined, [lo, hi]: readonly [number, number], fallback: number): number =>
  v !== undefined && Number.isFinite(v) ? Math.min(hi, Math.max(lo, Math.round(v))) : fallback;

export function chartLayout(scene: ChartScene): ChartLayout {
  const width = clamp(scene.width, CHART_WIDTH_RANGE, DEFAULT_CHART_WIDTH);
  const height = clamp(scene.height, CHART_HEIGHT_RANGE, DEFAULT_CHART_HEIGHT);
  // Readable once Discord shrinks the image to a phone's width (about 360 px for 800).
  const unit = Math.min(width / 800, height / 400);
  const label = Math.max(12, Math.round(20 * unit));
  const title = Math.max(13, Math.round(22 * unit));
  // Room for the widest clock label left of the plot (the axis may round 45 minutes up to 1:00:00).
  const longest = longestClock(scene);
  const left = textWidth(longest > 2_700_000 ? '0:00:00' : '00:00', { px: label, bold: false }) + 16;
  const right = scene.evaluations === undefined ? Math.round(label * 1.2) : Math.round(label * 2.4);
  const top = Math.round(title * 2.4);
  const bottom = Math.round(label * 2);
  return {
    width,
    height,
    plot: { x: left, y: top, w: width - left - right, h: height - top - bottom },
    plies: Math.max(1, scene.clocksMs.length, scene.evaluations?.length ?? 0),
    fontPx: { title, label },
    lineWidth: Math.max(2, Math.round(3 * unit)),
  };
}

/** A clock the chart can place: finite (a negative one is drawn at 0). */
const isClock = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v);
/** An evaluation it can place: any number (±Infinity for a mate stays at the edge), not NaN. */
const isEvaluation = (v: number | null | undefined): v is number => typeof v === 'number' && !Number.isNaN(v);
/** The longest known clock, 0 without any (a loop: a spread of 100,000 plies overflows the stack). */
function longestClock(scene: ChartScene): number {
  let longest = isClock(scene.initialClockMs) ? scene.initialClockMs : 0;
  for (const ms of scene.clocksMs) if (isClock(ms) && ms > longest) longest = ms;
  return longest;
}

/** The share of the plot's height the time-per-move bars may reach. */
const TIME_BARS_SHARE = 0.3;

/**
 * The time each ply took, as the fall of its mover's clock (an increment makes it read short);
 * null where a clock before or after is unknown, or rose.
 */
export function moveTimes(scene: Pick<ChartScene, 'clocksMs' | 'initialClockMs'>): (number | null)[] {
  const before: [number | null, number | null] = [scene.initialClockMs ?? null, scene.initialClockMs ?? null];
  return scene.clocksMs.map((ms, i) => {
    const previous = before[i % 2]!;
    before[i % 2] = isClock(ms) ? ms : null;
    return previous !== null && isClock(ms) && ms <= previous ? previous - ms : null;
  });
}

/** Move numbers past this are not a real game's: the axis then counts from 1. */
const MAX_MOVE_NUMBER = 1_000_000;

/** A round step giving at most `most` steps over `span`. */
function niceStep(span: number, most: number, steps: readonly number[]): number {
  return steps.find((s) => span / s <= most) ?? steps.at(-1)! * Math.ceil(span / most / steps.at(-1)!);
}

const MOVE_STEPS = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000] as const;
const CLOCK_STEPS_MS = [10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600].map((s) => s * 1000);

type ChartColours = ReturnType<typeof chartColours>;

/** m:ss (h:mm:ss past an hour): the axis steps are whole seconds, so never tenths. */
function axisClock(ms: number): string {
  return ms === 0 ? '0:00' : formatClock(ms);
}

/** A theme's chart palette, its colours' indices and a text ramp per colour. */
interface ChartInks {
  colours: ChartColours;
  palette: Palette;
  index: Record<keyof ChartColours, number>;
  luts: Map<string, Uint8Array>;
}

/**
 * Made once per theme: the ramps' nearest colours were some 160,000 distance sums, several ms a
 * chart, and a chart goes with every finished game.
 */
const inks = new Map<ThemeName, ChartInks>();

function chartInks(theme: ThemeName): ChartInks {
  const known = inks.get(theme);
  if (known !== undefined) return known;
  const colours = chartColours(theme);
  // The flat colours, then text over the background at each coverage step for smooth glyphs.
  const flat = Object.values(colours).map(parseHex);
  const ramps: Rgb[] = [];
  const background = parseHex(colours.background);
  for (const fg of [colours.text, colours.dim, colours.white, colours.black, colours.evaluation]) {
    for (let step = 1; step < 16; step++) ramps.push(blend(parseHex(fg), background, step / 16));
  }
  const palette = new Palette([...flat, ...ramps]);
  const index = Object.fromEntries(
    Object.entries(colours).map(([name, hex]) => [name, palette.nearest(...parseHex(hex))]),
  ) as ChartInks['index'];
  const luts = new Map<string, Uint8Array>();
  for (const hex of Object.values(colours)) luts.set(hex, palette.coverageLut(parseHex(hex), background));
  const made = { colours, palette, index, luts };
  inks.set(theme, made);
  return made;
}

interface Pen {
  surface: Surface;
  width: number;
  index: Record<keyof ChartColours, number>;
  luts: Map<string, Uint8Array>;
}

/** A thick polyline through the points, broken where a point is null. */
function drawSeries(
  pen: Pen,
  points: ({ x: number; y: number } | null)[],
  colour: number,
  width: number,
): void {
  const dot = (x: number, y: number): void =>
    fillRect(pen.surface, Math.round(x - width / 2), Math.round(y - width / 2), width, width, colour);
  let last: { x: number; y: number } | null = null;
  for (const point of points) {
    if (point === null) {
      last = null;
      continue;
    }
    if (last === null) dot(point.x, point.y);
    else {
      const steps = Math.max(1, Math.ceil(Math.max(Math.abs(point.x - last.x), Math.abs(point.y - last.y))));
      for (let s = 1; s <= steps; s++) {
        dot(last.x + ((point.x - last.x) * s) / steps, last.y + ((point.y - last.y) * s) / steps);
      }
    }
    last = point;
  }
}

function text(pen: Pen, s: string, font: FontSpec, x: number, top: number, colour: string): number {
  return drawText(pen.surface, s, font, x, top, pen.luts.get(colour)!, pen.width);
}

/** Cuts a name to `width` pixels with an ellipsis. */
function fitText(s: string, font: FontSpec, width: number): string {
  if (textWidth(s, font) <= width) return s;
  // More characters than a chart's width could hold are not measured one by one.
  const chars = [...s].slice(0, 200);
  while (chars.length > 0 && textWidth(`${chars.join('')}…`, font) > width) chars.pop();
  return `${chars.join('')}…`;
}

export function renderChart(scene: ChartScene): RenderResult<Buffer> {
  const plies = Math.max(scene.clocksMs.length, scene.evaluations?.length ?? 0);
  if (plies === 0) return { ok: false, error: 'no moves to chart' };
  if (plies > MAX_CHART_PLIES)
    return { ok: false, error: `${plies} plies: a chart takes ${MAX_CHART_PLIES} at most` };
  const clocks = [...scene.clocksMs, scene.initialClockMs].filter(isClock);
  const evaluations = scene.evaluations?.filter(isEvaluation) ?? [];
  if (clocks.length === 0 && evaluations.length === 0)
    return { ok: false, error: 'no clocks or evaluations to chart' };
  const theme = scene.theme !== undefined && isThemeName(scene.theme) ? scene.theme : DEFAULT_THEME;
  const layout = chartLayout(scene);
  const { width, height, plot } = layout;
  const { colours, palette, index, luts } = chartInks(theme);
  const stride = width + 1;
  const rows = Buffer.alloc(stride * height);
  const pen: Pen = { surface: { data: rows, stride, base: 1 }, width, index, luts };
  fillRect(pen.surface, 0, 0, width, height, index.background);

  const labelFont: FontSpec = { px: layout.fontPx.label, bold: false };
  const titleFont: FontSpec = { px: layout.fontPx.title, bold: true };
  const labelHeight = lineHeight(labelFont);
  const xOf = (ply: number): number => plot.x + (ply / layout.plies) * (plot.w - 1);

  // Clock axis: 0 at the bottom, a round top above the longest clock, m:ss labels.
  const topMs = Math.max(1000, longestClock(scene));
  const clockStep = niceStep(topMs, 5, CLOCK_STEPS_MS);
  const clockMax = Math.ceil(topMs / clockStep) * clockStep;
  const yOfClock = (ms: number): number => plot.y + plot.h - 1 - (Math.max(0, ms) / clockMax) * (plot.h - 1);
  for (let ms = 0; ms <= clockMax; ms += clockStep) {
    const y = Math.round(yOfClock(ms));
    fillRect(pen.surface, plot.x, y, plot.w, 1, index.grid);
    if (clocks.length === 0) continue;
    const label = axisClock(ms);
    const top = Math.min(height - labelHeight, Math.max(0, y - Math.floor(labelHeight / 2)));
    text(pen, label, labelFont, plot.x - 8 - textWidth(label, labelFont), top, colours.dim);
  }

  // Time axis in move numbers: a tick where White's move of that number was made.
  const firstPly = scene.firstMover === 'white' ? 0 : 1;
  const firstMove =
    Number.isSafeInteger(scene.firstMoveNumber) &&
    scene.firstMoveNumber >= 1 &&
    scene.firstMoveNumber <= MAX_MOVE_NUMBER
      ? scene.firstMoveNumber
      : 1;
  const lastMove = firstMove + Math.floor((firstPly + layout.plies - 1) / 2);
  const moveStep = niceStep(lastMove - firstMove + 1, Math.max(2, Math.floor(plot.w / 90)), MOVE_STEPS);
  for (let move = Math.ceil(firstMove / moveStep) * moveStep; move <= lastMove; move += moveStep) {
    const ply = (move - firstMove) * 2 - firstPly + 1;
    if (ply < 0 || ply > layout.plies) continue;
    const x = Math.round(xOf(ply));
    fillRect(pen.surface, x, plot.y, 1, plot.h, index.grid);
    const label = String(move);
    text(
      pen,
      label,
      labelFont,
      x - Math.round(textWidth(label, labelFont) / 2),
      plot.y + plot.h + 4,
      colours.dim,
    );
  }

  // Evaluation: its own scale, White's advantage up, with its zero line.
  if (scene.evaluations !== undefined) {
    const yOfEval = (pawns: number): number =>
      plot.y +
      ((EVAL_RANGE - Math.max(-EVAL_RANGE, Math.min(EVAL_RANGE, pawns))) / (2 * EVAL_RANGE)) * (plot.h - 1);
    for (const [pawns, label] of [
      [EVAL_RANGE, `+${EVAL_RANGE}`],
      [0, '0'],
      [-EVAL_RANGE, `−${EVAL_RANGE}`],
    ] as const) {
      const y = Math.round(yOfEval(pawns));
      const top = Math.min(height - labelHeight, Math.max(0, y - Math.floor(labelHeight / 2)));
      text(pen, label, labelFont, plot.x + plot.w + 6, top, colours.evaluation);
    }
    const points = scene.evaluations.map((v, i) =>
      isEvaluation(v) ? { x: xOf(i + 1), y: yOfEval(v) } : null,
    );
    drawSeries(pen, points, index.evaluation, Math.max(2, layout.lineWidth - 1));
  }

  // The time each move took (the fall of the mover's clock) as bars along the bottom, on their own
  // scale, in the mover's colour.
  const took = moveTimes(scene);
  const longestMove = took.reduce<number>((a, b) => Math.max(a, b ?? 0), 0);
  if (longestMove > 0) {
    const barsHeight = Math.round(plot.h * TIME_BARS_SHARE);
    const barWidth = Math.max(1, Math.floor(plot.w / layout.plies) - 1);
    took.forEach((ms, i) => {
      if (ms === null || ms <= 0) return;
      const h = Math.max(1, Math.round((ms / longestMove) * barsHeight));
      const mover = (i % 2 === 0) === (scene.firstMover === 'white') ? 'white' : 'black';
      // The time was spent before the move: the bar ends where the move is drawn.
      const x = Math.round(xOf(i + 1)) - barWidth + 1;
      fillRect(pen.surface, x, plot.y + plot.h - h, barWidth, h, index[mover]);
    });
  }

  // The clocks: each player's line through the plies they made. White's is drawn wider, under
  // Black's, so that where the clocks agree both colours still show.
  for (const side of ['white', 'black'] as const) {
    const moverParity = (side === scene.firstMover ? 0 : 1) as number;
    const start = scene.initialClockMs;
    const points: ({ x: number; y: number } | null)[] = isClock(start)
      ? [{ x: xOf(0), y: yOfClock(start) }]
      : [];
    scene.clocksMs.forEach((ms, i) => {
      if (i % 2 !== moverParity) return;
      points.push(isClock(ms) ? { x: xOf(i + 1), y: yOfClock(ms) } : null);
    });
    drawSeries(pen, points, index[side], side === 'white' ? layout.lineWidth + 2 : layout.lineWidth);
  }

  // Legend: a swatch and each player's name; the evaluation's when it is drawn.
  const entries: { label: string; colour: keyof ChartColours }[] = [
    { label: scene.white, colour: 'white' },
    { label: scene.black, colour: 'black' },
  ];
  if (scene.evaluations !== undefined) entries.push({ label: 'Evaluation', colour: 'evaluation' });
  // The time axis's unit, under the clock labels (the title names the clock axis).
  if (clocks.length > 0) text(pen, 'move', labelFont, 4, plot.y + plot.h + 4, colours.dim);
  const titleHeight = lineHeight(titleFont);
  const titleTop = Math.round((plot.y - titleHeight) / 2);
  let x = plot.x;
  const title =
    clocks.length === 0 ? 'Evaluation' : longestMove > 0 ? 'Time left · bars: time per move' : 'Time left';
  x = text(pen, title, titleFont, x, titleTop, colours.text) + 24;
  const room = Math.floor((width - x - 8) / entries.length);
  const swatch = Math.round(titleHeight * 0.8);
  for (const entry of entries) {
    const y = titleTop + Math.round((titleHeight - layout.lineWidth) / 2);
    fillRect(pen.surface, x, y, swatch, layout.lineWidth, index[entry.colour]);
    const label = fitText(entry.label, labelFont, room - swatch - 20);
    const labelTop = titleTop + Math.round((titleHeight - labelHeight) / 2);
    text(pen, label, labelFont, x + swatch + 8, labelTop, colours.text);
    x += room;
  }

  return { ok: true, value: encodeIndexedPng(width, height, palette.rgb, rows) };
}
