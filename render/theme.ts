// Board themes: every colour an image can contain apart from piece art and anti-aliasing.

export const THEME_NAMES = ['brown', 'blue', 'green', 'grey', 'purple'] as const;
export type ThemeName = (typeof THEME_NAMES)[number];

export interface Theme {
  name: ThemeName;
  light: string;
  dark: string;
  /** Last-move squares. */
  lightLast: string;
  darkLast: string;
  /** Centre of the red glow under a king in check. */
  check: string;
  barBg: string;
  barText: string;
  /** Ratings and other secondary text in the bars. */
  barDim: string;
  /** Marks the bar of the side to move. */
  turn: string;
  clockBg: string;
  clockText: string;
  /** The clock of the side to move. */
  clockActiveBg: string;
  clockActiveText: string;
  /** A clock under LOW_CLOCK_MS. */
  clockLowBg: string;
  clockLowText: string;
  footerBg: string;
  footerText: string;
  /** The engine's best move. */
  arrow: string;
}

const BARS = {
  barBg: '#262421',
  barText: '#e8e6e3',
  barDim: '#9e9b97',
  turn: '#7fa650',
  clockBg: '#3a3835',
  clockText: '#b8b5b1',
  clockActiveBg: '#e8e6e3',
  clockActiveText: '#161512',
  clockLowBg: '#c33031',
  clockLowText: '#ffffff',
  footerBg: '#161512',
  footerText: '#ffffff',
  check: '#ff0000',
  arrow: '#15781b',
} as const;

const THEMES: Record<ThemeName, Theme> = {
  brown: {
    name: 'brown',
    light: '#f0d9b5',
    dark: '#b58863',
    lightLast: '#cdd26a',
    darkLast: '#aaa23a',
    ...BARS,
  },
  blue: {
    name: 'blue',
    light: '#dee3e6',
    dark: '#8ca2ad',
    lightLast: '#c3d888',
    darkLast: '#92b166',
    ...BARS,
  },
  green: {
    name: 'green',
    light: '#eeeed2',
    dark: '#769656',
    lightLast: '#f6f669',
    darkLast: '#baca2b',
    ...BARS,
  },
  // lichess's grey and purple boards; last move as lichess tints it (#9bc700 at 41 %).
  grey: {
    name: 'grey',
    light: '#dcdcdc',
    dark: '#ababab',
    lightLast: '#c1d382',
    darkLast: '#a4b665',
    ...BARS,
  },
  purple: {
    name: 'purple',
    light: '#9f90b0',
    dark: '#7d4a8d',
    lightLast: '#9da768',
    darkLast: '#897d53',
    ...BARS,
  },
};

export const DEFAULT_THEME: ThemeName = 'brown';

export function isThemeName(name: string): name is ThemeName {
  return (THEME_NAMES as readonly string[]).includes(name);
}

export function themeByName(name: ThemeName): Theme {
  return THEMES[name];
}

export type Rgb = readonly [number, number, number];

export function parseHex(hex: string): Rgb {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}
