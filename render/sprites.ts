// Everything that never changes between frames, drawn once with @napi-rs/canvas and stored as
// palette indices: each square look (shade, highlight, piece, coordinate label) and the holdings
// icons. A frame is then made of copies of these.
import { createCanvas, type SKRSContext2D } from '@napi-rs/canvas';
import { FONT_FAMILY, loadPieceImages, registerFonts, type PieceName } from './assets.js';
import type { Layout } from './layout.js';
import { blend, buildPalette, type Palette } from './palette.js';
import { makeSprite, type Sprite } from './surface.js';
import { parseHex, type Rgb, type Theme, type ThemeName } from './theme.js';
import { ROLES, type Piece } from 'chessops/types';

export type SquareMark = 'none' | 'last' | 'check';

export interface SquareLook {
  light: boolean;
  mark: SquareMark;
  piece: PieceName | null;
  /** Rank digit shown in the square's top-left corner (left-most column); file letters have a strip. */
  rankLabel: string | null;
}

/** A square look with the number that tells it apart (see squareLook). */
export interface KeyedLook extends SquareLook {
  readonly key: number;
}

const MARKS: readonly SquareMark[] = ['none', 'last', 'check'];
/** Every look made so far, by key: at most 2 shades x 3 marks x 13 contents x 9 labels. */
const looks: KeyedLook[] = [];

/**
 * The look of a square, one object per distinct look: a frame has 64 squares and a GIF hundreds of
 * frames, so their looks are neither built again nor told apart by strings. `rank` (0-7) labels the
 * square with its rank's digit.
 */
export function squareLook(
  light: boolean,
  mark: SquareMark,
  piece: Piece | undefined,
  rank: number | null,
): KeyedLook {
  const content = piece === undefined ? 0 : (piece.color === 'white' ? 1 : 7) + ROLES.indexOf(piece.role);
  const key =
    ((((rank ?? -1) + 1) * 13 + content) * MARKS.length + MARKS.indexOf(mark)) * 2 + (light ? 1 : 0);
  return (looks[key] ??= {
    light,
    mark,
    piece: piece === undefined ? null : `${piece.color}-${piece.role}`,
    rankLabel: rank === null ? null : String(rank + 1),
    key,
  });
}

/** Text colour pairs; each gets a coverage table. */
export type TextStyle = 'name' | 'dim' | 'clock' | 'clockActive' | 'clockLow' | 'footer';

function textColours(theme: Theme): Record<TextStyle, { fg: string; bg: string }> {
  return {
    name: { fg: theme.barText, bg: theme.barBg },
    dim: { fg: theme.barDim, bg: theme.barBg },
    clock: { fg: theme.clockText, bg: theme.clockBg },
    clockActive: { fg: theme.clockActiveText, bg: theme.clockActiveBg },
    clockLow: { fg: theme.clockLowText, bg: theme.clockLowBg },
    footer: { fg: theme.footerText, bg: theme.footerBg },
  };
}

function drawSquare(ctx: SKRSContext2D, theme: Theme, look: SquareLook, size: number, labelPx: number): void {
  const fill =
    look.mark === 'last'
      ? look.light
        ? theme.lightLast
        : theme.darkLast
      : look.light
        ? theme.light
        : theme.dark;
  ctx.fillStyle = fill;
  ctx.fillRect(0, 0, size, size);
  if (look.mark === 'check') {
    // The glow lichess puts under a king in check.
    const c = size / 2;
    const glow = ctx.createRadialGradient(c, c, 0, c, c, size * 0.62);
    glow.addColorStop(0, theme.check);
    glow.addColorStop(0.25, 'rgba(231, 0, 0, 1)');
    glow.addColorStop(0.89, 'rgba(169, 0, 0, 0)');
    glow.addColorStop(1, 'rgba(158, 0, 0, 0)');
    ctx.fillStyle = glow;
    ctx.fillRect(0, 0, size, size);
  }
  if (look.rankLabel) {
    ctx.font = `bold ${labelPx}px "${FONT_FAMILY}"`;
    ctx.fillStyle = look.light ? theme.dark : theme.light;
    const inset = Math.max(2, Math.round(size * 0.05));
    ctx.textAlign = 'left';
    ctx.textBaseline = 'top';
    ctx.fillText(look.rankLabel, inset, inset);
  }
  if (look.piece) ctx.drawImage(loadPieceImages().get(look.piece)!, 0, 0, size, size);
}

function drawIcon(ctx: SKRSContext2D, theme: Theme, piece: PieceName, size: number): void {
  ctx.fillStyle = theme.barBg;
  ctx.fillRect(0, 0, size, size);
  ctx.drawImage(loadPieceImages().get(piece)!, 0, 0, size, size);
}

const PIECES: readonly PieceName[] = (['white', 'black'] as const).flatMap((color) =>
  (['pawn', 'knight', 'bishop', 'rook', 'queen', 'king'] as const).map(
    (role): PieceName => `${color}-${role}`,
  ),
);

/** Per theme: the palette and the text coverage tables. */
export interface ThemeKit {
  theme: Theme;
  palette: Palette;
  text: Record<TextStyle, Uint8Array>;
  /** Palette index of each flat theme colour. */
  index: Record<Exclude<keyof Theme, 'name'>, number>;
}

const TRAINING_SQUARE = 64;
const RAMP_STEPS = 7;

function buildThemeKit(theme: Theme): ThemeKit {
  registerFonts();
  const { name: _name, ...flat } = theme;
  const exact: Rgb[] = Object.values(flat).map(parseHex);
  const pairs = textColours(theme);
  for (const { fg, bg } of Object.values(pairs)) {
    for (let step = 1; step < RAMP_STEPS; step++) {
      exact.push(blend(parseHex(fg), parseHex(bg), step / RAMP_STEPS));
    }
  }
  // Train the rest of the palette on every piece over every square look, with labels and icons.
  const size = TRAINING_SQUARE;
  const canvas = createCanvas(size, size);
  const ctx = canvas.getContext('2d');
  const samples: Uint8ClampedArray[] = [];
  for (const light of [true, false]) {
    for (const mark of ['none', 'last', 'check'] as const) {
      for (const piece of [null, ...PIECES]) {
        drawSquare(ctx, theme, { light, mark, piece, rankLabel: '8' }, size, 14);
        samples.push(ctx.getImageData(0, 0, size, size).data);
      }
    }
  }
  for (const piece of PIECES) {
    drawIcon(ctx, theme, piece, size);
    samples.push(ctx.getImageData(0, 0, size, size).data);
  }
  const training = new Uint8ClampedArray(samples.length * size * size * 4);
  samples.forEach((sample, i) => training.set(sample, i * size * size * 4));
  const palette = buildPalette(exact, training);

  const text = {} as Record<TextStyle, Uint8Array>;
  for (const [style, { fg, bg }] of Object.entries(pairs)) {
    text[style as TextStyle] = palette.coverageLut(parseHex(fg), parseHex(bg));
  }
  const index = {} as ThemeKit['index'];
  for (const [key, hex] of Object.entries(flat)) {
    index[key as keyof ThemeKit['index']] = palette.nearest(...parseHex(hex));
  }
  return { theme, palette, text, index };
}

const themeKits = new Map<ThemeName, ThemeKit>();

export function themeKit(theme: Theme): ThemeKit {
  let kit = themeKits.get(theme.name);
  if (!kit) {
    kit = buildThemeKit(theme);
    themeKits.set(theme.name, kit);
  }
  return kit;
}

/** Per theme and board size: square sprites (made on first use) and holdings icons. */
export class SpriteKit {
  private readonly squares = new Map<number, Sprite>();
  private readonly icons = new Map<PieceName, Sprite>();
  private readonly squareCtx: SKRSContext2D;
  private readonly iconCtx: SKRSContext2D;

  constructor(
    readonly kit: ThemeKit,
    private readonly layout: Layout,
  ) {
    this.squareCtx = createCanvas(layout.square, layout.square).getContext('2d');
    this.iconCtx = createCanvas(layout.holdingIcon, layout.holdingIcon).getContext('2d');
  }

  square(look: KeyedLook): Sprite {
    let sprite = this.squares.get(look.key);
    if (!sprite) {
      const size = this.layout.square;
      drawSquare(this.squareCtx, this.kit.theme, look, size, this.layout.fontPx.coordinate);
      sprite = makeSprite(
        size,
        size,
        this.kit.palette.quantise(this.squareCtx.getImageData(0, 0, size, size).data),
      );
      this.squares.set(look.key, sprite);
    }
    return sprite;
  }

  icon(piece: PieceName): Sprite {
    let sprite = this.icons.get(piece);
    if (!sprite) {
      const size = this.layout.holdingIcon;
      drawIcon(this.iconCtx, this.kit.theme, piece, size);
      sprite = makeSprite(
        size,
        size,
        this.kit.palette.quantise(this.iconCtx.getImageData(0, 0, size, size).data),
      );
      this.icons.set(piece, sprite);
    }
    return sprite;
  }
}

/** A few MB each at the largest size: keep the most recently used ones only. */
const MAX_SPRITE_KITS = 8;
const spriteKits = new Map<string, SpriteKit>();

export function spriteKit(theme: Theme, layout: Layout): SpriteKit {
  const key = `${theme.name}:${layout.square}`;
  const kit = spriteKits.get(key) ?? new SpriteKit(themeKit(theme), layout);
  spriteKits.delete(key);
  spriteKits.set(key, kit);
  if (spriteKits.size > MAX_SPRITE_KITS) spriteKits.delete(spriteKits.keys().next().value!);
  return kit;
}
