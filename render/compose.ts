// A scene as a list of regions that tile the image. Each region has a key that changes exactly when
// its pixels do, so a GIF frame can carry only the regions that changed since the last one.
import type { Color } from 'chessops/types';
import { drawText, lineHeight, textWidth, type FontSpec } from './glyphs.js';
import {
  computeLayout,
  DEFAULT_SIZE,
  type BoardPanel,
  type Layout,
  type LayoutNeeds,
  type Rect,
} from './layout.js';
import type { Palette } from './palette.js';
import { HOLDING_ROLES, readPosition, type ScenePosition } from './position.js';
import { formatClock, resultText } from './format.js';
import type { BoardScene, RenderResult, SceneEvaluation } from './scene.js';
import { spriteKit, squareLook, type KeyedLook, type SpriteKit, type TextStyle } from './sprites.js';
import { blit, fillRect, type Surface } from './surface.js';
import { DEFAULT_THEME, isThemeName, themeByName } from './theme.js';

/** Clocks below this are drawn in the warning colour. */
export const LOW_CLOCK_MS = 20_000;

export interface Region extends Rect {
  /** Squares' keys are their looks' numbers (squareLook), the other regions' strings. */
  key: string | number;
  paint(s: Surface): void;
}

export interface Frame {
  width: number;
  height: number;
  palette: Palette;
  regions: Region[];
}

/**
 * A region on `rect`: its fields written out, not spread from the rectangle, which is several times
 * slower and a frame makes a dozen such regions.
 */
function regionAt(rect: Rect, { key, paint }: Pick<Region, 'key' | 'paint'>): Region {
  return { x: rect.x, y: rect.y, w: rect.w, h: rect.h, key, paint };
}

interface Painter {
  layout: Layout;
  sprites: SpriteKit;
  markTurn: boolean;
}

function boardRegions(
  p: Painter,
  column: BoardPanel,
  scene: BoardScene,
  pos: ScenePosition,
  regions: Region[],
): void {
  const { square } = p.layout;
  for (let row = 0; row < 8; row++) {
    for (let col = 0; col < 8; col++) {
      const file = scene.orientation === 'white' ? col : 7 - col;
      const rank = scene.orientation === 'white' ? 7 - row : row;
      const sq = rank * 8 + file;
      const mark = pos.check === sq ? 'check' : pos.highlighted.includes(sq) ? 'last' : 'none';
      const look = squareLook((file + rank) % 2 === 1, mark, pos.board.get(sq), col === 0 ? rank : null);
      const x = column.board.x + col * square;
      const y = column.board.y + row * square;
      regions.push(new SquareRegion(x, y, square, p.sprites, look));
    }
  }
}

/** A board square, its sprite found when painted: an object, not a closure, as a frame has 64. */
class SquareRegion implements Region {
  readonly key: number;
  readonly w: number;
  readonly h: number;

  constructor(
    readonly x: number,
    readonly y: number,
    size: number,
    private readonly sprites: SpriteKit,
    private readonly look: KeyedLook,
  ) {
    this.key = look.key;
    this.w = this.h = size;
  }

  paint(s: Surface): void {
    blit(s, this.sprites.square(this.look), this.x, this.y);
  }
}

/** The file letters under the board, each centred under its file. */
function filesRegion(p: Painter, strip: Rect, orientation: Color): Region {
  const { layout, sprites } = p;
  const font: FontSpec = { px: layout.fontPx.files, bold: true };
  const files = orientation === 'white' ? 'abcdefgh' : 'hgfedcba';
  return regionAt(strip, {
    key: `files:${orientation}`,
    paint: (s) => {
      fillRect(s, strip.x, strip.y, strip.w, strip.h, sprites.kit.index.barBg);
      const top = centredTop(strip, font);
      [...files].forEach((letter, col) => {
        const x = strip.x + Math.round((col + 0.5) * layout.square - textWidth(letter, font) / 2);
        drawText(s, letter, font, x, top, sprites.kit.text.dim, strip.x + strip.w);
      });
    },
  });
}

function centredTop(rect: Rect, font: FontSpec): number {
  return rect.y + Math.floor((rect.h - lineHeight(font)) / 2);
}

/** ` (1500)`; nothing for FICS's placeholders (`----` unrated, `++++` guest). */
function ratingLabel(rating: string | null | undefined): string {
  return rating && /\d/.test(rating) ? ` (${rating})` : '';
}

/**
 * The longest prefix of `chars` (at least one character) for which `fits` holds, `fits` being
 * monotonic (true up to some length, false beyond): a binary search, so O(log n) measurements
 * whatever the input's length.
 */
function longestPrefix(chars: readonly string[], fits: (prefix: string) => boolean): string {
  let [low, high] = [1, chars.length];
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (fits(chars.slice(0, mid).join(''))) low = mid;
    else high = mid - 1;
  }
  return chars.slice(0, low).join('');
}

/** `text` cut to fit `width` with an ellipsis. */
function ellipsized(text: string, font: FontSpec, width: number): string {
  return `${longestPrefix([...text], (prefix) => textWidth(`${prefix}…`, font) <= width)}…`;
}

/** Name and rating as they fit: the rating goes first, then the name loses its end to `…`. */
function fitName(
  name: string,
  rating: string,
  nameFont: FontSpec,
  ratingFont: FontSpec,
  width: number,
): { name: string; rating: string } {
  const nameWidth = textWidth(name, nameFont);
  if (nameWidth + textWidth(rating, ratingFont) <= width) return { name, rating };
  if (nameWidth <= width) return { name, rating: '' };
  return { name: ellipsized(name, nameFont, width), rating: '' };
}

/** One player's pieces in hand, on the strip beside their bar: an icon and a count per kind. */
function handRegion(p: Painter, rect: Rect, color: Color, pos: ScenePosition): Region {
  const { layout, sprites } = p;
  const { kit } = sprites;
  const counts = pos.holdings?.[color];
  const shown = HOLDING_ROLES.flatMap((role) => {
    const n = counts?.get(role) ?? 0;
    return n > 0 ? [{ role, n }] : [];
  });
  const countFont: FontSpec = { px: layout.fontPx.count, bold: true };
  return regionAt(rect, {
    // The colour too: a strip shows White's pieces or Black's as the board is turned.
    key: `hold:${color}:${shown.map(({ role, n }) => `${role}${n}`).join()}`,
    paint: (s) => {
      fillRect(s, rect.x, rect.y, rect.w, rect.h, kit.index.barBg);
      const iconTop = rect.y + Math.floor((rect.h - layout.holdingIcon) / 2);
      const left = rect.x + Math.round(layout.barHeight * 0.3);
      shown.forEach(({ role, n }, i) => {
        const x = left + i * layout.holdingSlot;
        blit(s, sprites.icon(`${color}-${role}`), x, iconTop);
        const count = String(n);
        const countTop = iconTop + layout.holdingIcon - lineHeight(countFont);
        drawText(s, count, countFont, x + layout.holdingIcon + 1, countTop, kit.text.name, rect.x + rect.w);
      });
    },
  });
}

function barRegions(
  p: Painter,
  bar: Rect,
  color: Color,
  scene: BoardScene,
  pos: ScenePosition,
  regions: Region[],
): void {
  const { layout, sprites } = p;
  const { kit } = sprites;
  const player = scene[color];
  const toMove = p.markTurn && !scene.result && pos.turn === color;

  const info: Rect = { x: bar.x + layout.bar.info.x, y: bar.y, w: layout.bar.info.w, h: bar.h };
  const nameFont: FontSpec = { px: layout.fontPx.name, bold: true };
  const ratingFont: FontSpec = { px: layout.fontPx.name, bold: false };
  const textX = info.x + Math.round(layout.barHeight * 0.3);
  const textRight = info.x + info.w - Math.round(layout.barHeight * 0.15);
  const { name, rating } = fitName(
    player.name,
    ratingLabel(player.rating),
    nameFont,
    ratingFont,
    textRight - textX,
  );
  regions.push(
    regionAt(info, {
      key: `info:${toMove}:${name}:${rating}`,
      paint: (s) => {
        fillRect(s, info.x, info.y, info.w, info.h, kit.index.barBg);
        if (toMove) fillRect(s, info.x, info.y, layout.turnMarkerWidth, info.h, kit.index.turn);
        const top = centredTop(info, nameFont);
        const end = drawText(s, name, nameFont, textX, top, kit.text.name, textRight);
        if (rating) drawText(s, rating, ratingFont, end, top, kit.text.dim, textRight);
      },
    }),
  );

  const clockRect: Rect = { x: bar.x + layout.bar.clock.x, y: bar.y, w: layout.bar.clock.w, h: bar.h };
  const clockMs = player.clockMs;
  const clockText = clockMs === null || clockMs === undefined ? null : formatClock(clockMs);
  const style: TextStyle =
    clockMs !== null && clockMs !== undefined && clockMs < LOW_CLOCK_MS
      ? 'clockLow'
      : toMove
        ? 'clockActive'
        : 'clock';
  const clockFont: FontSpec = { px: layout.fontPx.clock, bold: true };
  regions.push(
    regionAt(clockRect, {
      key: `clock:${style}:${clockText}`,
      paint: (s) => {
        fillRect(s, clockRect.x, clockRect.y, clockRect.w, clockRect.h, kit.index.barBg);
        if (clockText === null) return;
        const inset = Math.round(layout.barHeight * 0.14);
        const box: Rect = {
          x: clockRect.x,
          y: clockRect.y + inset,
          w: clockRect.w - inset,
          h: clockRect.h - 2 * inset,
        };
        const bg =
          style === 'clockLow'
            ? kit.index.clockLowBg
            : style === 'clockActive'
              ? kit.index.clockActiveBg
              : kit.index.clockBg;
        fillRect(s, box.x, box.y, box.w, box.h, bg);
        const x = box.x + Math.round((box.w - textWidth(clockText, clockFont)) / 2);
        drawText(s, clockText, clockFont, x, centredTop(box, clockFont), kit.text[style], box.x + box.w);
      },
    }),
  );
}

/** The smallest result text, as a share of the strip's own size. */
const MIN_FOOTER_SHARE = 0.5;

/**
 * The best split of words into two lines no wider than `width`, or null when none fits. The first
 * line widens and the second narrows as the split moves right, so the best split is where they
 * cross: found by binary search, O(log n) measurements.
 */
function twoLines(words: readonly string[], font: FontSpec, width: number): string[] | null {
  if (words.length < 2) return null;
  const split = (i: number): string[] => [words.slice(0, i).join(' '), words.slice(i).join(' ')];
  const widths = (lines: readonly string[]): number[] => lines.map((line) => textWidth(line, font));
  // The first split whose first line is at least as wide as its second (words.length - 1 if none).
  let [low, high] = [1, words.length - 1];
  while (low < high) {
    const mid = Math.floor((low + high) / 2);
    const [first, second] = widths(split(mid));
    if (first! >= second!) high = mid;
    else low = mid + 1;
  }
  let best: string[] | null = null;
  let bestWidest = Infinity;
  for (const i of low > 1 ? [low - 1, low] : [low]) {
    const lines = split(i);
    const widest = Math.max(...widths(lines));
    if (widest <= width && widest < bestWidest) [best, bestWidest] = [lines, widest];
  }
  return best;
}

/**
 * The result line as it fits the strip, always whole: one line at the full size, else two lines
 * (split between words), the font shrinking until they fit. Only a text too long for two lines at
 * the smallest size is cut, with an ellipsis.
 */
export function fitResult(text: string, full: number, box: Rect): { lines: string[]; font: FontSpec } {
  const margin = Math.max(2, Math.round(box.h * 0.25));
  const width = box.w - 2 * margin;
  const words = text.split(' ').filter((word) => word !== '');
  const smallest = Math.max(6, Math.round(full * MIN_FOOTER_SHARE));
  for (let px = full; px >= smallest; px--) {
    const font: FontSpec = { px, bold: true };
    if (textWidth(text, font) <= width) return { lines: [text], font };
    if (2 * lineHeight(font) > box.h) continue;
    const lines = twoLines(words, font, width);
    if (lines !== null) return { lines, font };
  }
  const font: FontSpec = { px: smallest, bold: true };
  // As many whole words on the first line as fit (none when even one does not), the rest cut.
  let [low, high] = [0, words.length - 1];
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (textWidth(words.slice(0, mid).join(' '), font) <= width) low = mid;
    else high = mid - 1;
  }
  const first = words.slice(0, low).join(' ');
  const rest = ellipsized(words.slice(low).join(' '), font, width);
  return { lines: [first, rest].filter((line) => line !== ''), font };
}

function footerRegion(p: Painter, footer: Rect, scene: BoardScene): Region {
  const { kit } = p.sprites;
  const text = scene.result ? resultText(scene.result) : '';
  const { lines, font } = fitResult(text, p.layout.fontPx.footer, footer);
  return regionAt(footer, {
    key: `footer:${text}`,
    paint: (s) => {
      fillRect(s, footer.x, footer.y, footer.w, footer.h, kit.index.footerBg);
      const height = lineHeight(font);
      const top = footer.y + Math.floor((footer.h - lines.length * height) / 2);
      lines.forEach((line, i) => {
        const x = footer.x + Math.max(0, Math.round((footer.w - textWidth(line, font)) / 2));
        drawText(s, line, font, x, top + i * height, kit.text.footer, footer.x + footer.w);
      });
    },
  });
}

function panelRegions(p: Painter, column: BoardPanel, scene: BoardScene, pos: ScenePosition): Region[] {
  const top: Color = scene.orientation === 'white' ? 'black' : 'white';
  // Pushed into one list, not spread: spreading the parts' lists cost as much as making them.
  const regions: Region[] = [];
  barRegions(p, column.topBar, top, scene, pos, regions);
  if (column.topHand) regions.push(handRegion(p, column.topHand, top, pos));
  boardRegions(p, column, scene, pos, regions);
  regions.push(filesRegion(p, column.files, scene.orientation));
  if (column.bottomHand) regions.push(handRegion(p, column.bottomHand, scene.orientation, pos));
  barRegions(p, column.bottomBar, scene.orientation, scene, pos, regions);
  if (column.footer) regions.push(footerRegion(p, column.footer, scene));
  return regions;
}

/** White's share of the evaluation bar: lichess's winning chances from centipawns, whole for a mate. */
export function whiteShare(evaluation: SceneEvaluation): number {
  if ('mate' in evaluation) return evaluation.mate > 0 ? 1 : 0;
  return 1 / (1 + Math.exp(-0.00368208 * evaluation.cp));
}

function evaluationRegion(p: Painter, bar: Rect, board: Rect, scene: BoardScene): Region {
  const { kit } = p.sprites;
  const evaluation = scene.evaluation!;
  const white = Math.round(board.h * whiteShare(evaluation));
  const whiteAtBottom = scene.orientation === 'white';
  return regionAt(bar, {
    key: `evaluation:${white}:${whiteAtBottom}`,
    paint: (s) => {
      fillRect(s, bar.x, bar.y, bar.w, bar.h, kit.index.barBg);
      fillRect(s, bar.x, board.y, bar.w, board.h, kit.index.footerBg);
      const top = whiteAtBottom ? board.y + board.h - white : board.y;
      fillRect(s, bar.x, top, bar.w, white, kit.index.clockActiveBg);
    },
  });
}

interface Arrow {
  from: number;
  to: number;
}

/** The squares of a UCI move (`e2e4`, `e7e8q`); drops and anything else have no arrow. */
function arrowOf(uci: string): Arrow | null {
  const match = /^([a-h])([1-8])([a-h])([1-8])[nbrq]?$/.exec(uci);
  if (match === null) return null;
  const square = (file: string, rank: string): number => (Number(rank) - 1) * 8 + file.charCodeAt(0) - 97;
  return { from: square(match[1]!, match[2]!), to: square(match[3]!, match[4]!) };
}

/**
 * Draws the arrow into the squares it crosses: each such square region paints its square, then
 * the arrow's pixels inside it (regions tile the image, so nothing is painted twice).
 */
function drawArrow(
  p: Painter,
  column: BoardPanel,
  orientation: Color,
  arrow: Arrow,
  regions: Region[],
): void {
  const { square } = p.layout;
  const centre = (sq: number): { x: number; y: number } => {
    const file = sq % 8;
    const rank = Math.floor(sq / 8);
    const col = orientation === 'white' ? file : 7 - file;
    const row = orientation === 'white' ? 7 - rank : rank;
    return { x: column.board.x + (col + 0.5) * square, y: column.board.y + (row + 0.5) * square };
  };
  const a = centre(arrow.from);
  const b = centre(arrow.to);
  const length = Math.hypot(b.x - a.x, b.y - a.y);
  if (length === 0) return;
  const [ux, uy] = [(b.x - a.x) / length, (b.y - a.y) / length];
  const shaft = square * 0.09;
  const headLength = Math.min(square * 0.5, length);
  const headHalf = square * 0.26;
  const inside = (x: number, y: number): boolean => {
    const along = (x - a.x) * ux + (y - a.y) * uy;
    const across = Math.abs((x - a.x) * -uy + (y - a.y) * ux);
    if (along < 0 || along > length) return false;
    if (along < length - headLength) return across <= shaft;
    return across <= (headHalf * (length - along)) / headLength;
  };
  const colour = p.sprites.kit.index.arrow;
  const reach = headHalf + 1;
  const [minX, maxX] = [Math.min(a.x, b.x) - reach, Math.max(a.x, b.x) + reach];
  const [minY, maxY] = [Math.min(a.y, b.y) - reach, Math.max(a.y, b.y) + reach];
  for (const [i, region] of regions.entries()) {
    if (!isSquareOf(region, column)) continue;
    if (region.x > maxX || region.x + region.w < minX || region.y > maxY || region.y + region.h < minY)
      continue;
    const pixels: number[] = [];
    for (let y = region.y; y < region.y + region.h; y++)
      for (let x = region.x; x < region.x + region.w; x++) if (inside(x + 0.5, y + 0.5)) pixels.push(x, y);
    if (pixels.length === 0) continue;
    regions[i] = {
      x: region.x,
      y: region.y,
      w: region.w,
      h: region.h,
      // Where the arrow is on screen, not its squares: a turned board draws them elsewhere.
      key: `${region.key}|arrow:${a.x},${a.y}-${b.x},${b.y}`,
      paint: (s) => {
        region.paint(s);
        for (let j = 0; j < pixels.length; j += 2)
          s.data[s.base + pixels[j + 1]! * s.stride + pixels[j]!] = colour;
      },
    };
  }
}

function isSquareOf(region: Region, column: BoardPanel): boolean {
  const { board } = column;
  return (
    region.x >= board.x && region.y >= board.y && region.x < board.x + board.w && region.y < board.y + board.h
  );
}

/** What a scene needs room for; a GIF takes the union over all its scenes. */
export function layoutNeeds(scene: BoardScene, position: ScenePosition): LayoutNeeds {
  return {
    footer: Boolean(scene.result),
    holdings: position.holdings !== null,
    ...(scene.evaluation ? { evaluation: true } : {}),
  };
}

/** Reads a scene and checks its options. */
export function readScene(scene: BoardScene): RenderResult<ScenePosition> {
  if (scene.theme !== undefined && !isThemeName(scene.theme)) {
    return { ok: false, error: `unknown theme "${String(scene.theme)}"` };
  }
  if (scene.size !== undefined && !Number.isFinite(scene.size)) {
    return { ok: false, error: 'size must be a number' };
  }
  return readPosition(scene);
}

/**
 * Regions for a scene already read with readScene, laid out for `needs`. `markTurn` draws the
 * side-to-move marker and lit clock; animations leave it off, as the last-move highlight says as
 * much and the marker would change both bars on every frame.
 */
export function composeScene(
  scene: BoardScene,
  position: ScenePosition,
  needs: LayoutNeeds,
  markTurn = true,
): Frame {
  return sceneComposer(scene, needs, markTurn)(scene, position);
}

/**
 * composeScene for many scenes of one theme, size and layout (a GIF's frames): the layout and the
 * sprite kit are found once, not once a frame. The scenes' own theme and size are not read.
 */
export function sceneComposer(
  look: Pick<BoardScene, 'theme' | 'size'>,
  needs: LayoutNeeds,
  markTurn: boolean,
): (scene: BoardScene, position: ScenePosition) => Frame {
  const layout = computeLayout(look.size ?? DEFAULT_SIZE, needs);
  const sprites = spriteKit(themeByName(look.theme ?? DEFAULT_THEME), layout);
  const painter: Painter = { layout, sprites, markTurn };
  return (scene, position) => {
    const regions = panelRegions(painter, layout.panel, scene, position);
    if (layout.evaluationBar !== null && scene.evaluation)
      regions.push(evaluationRegion(painter, layout.evaluationBar, layout.panel.board, scene));
    const arrow = scene.evaluation?.bestMove ? arrowOf(scene.evaluation.bestMove) : null;
    if (arrow !== null) drawArrow(painter, layout.panel, scene.orientation, arrow, regions);
    return { width: layout.width, height: layout.height, palette: sprites.kit.palette, regions };
  };
}
