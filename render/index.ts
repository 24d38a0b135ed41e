// Board images for Kibitz: PNG of one position, GIF of a whole game, text board.
export { renderPng } from './board-png.js';
export { renderGif, FRAME_DELAY_MS, LAST_FRAME_DELAY_MS, type GifOptions } from './game-gif.js';
export { renderText } from './text.js';
export { renderChart, type ChartScene } from './chart.js';
export { inlineRenderer, RENDERER_CLOSED, watchedRenderer, type Renderer } from './renderer.js';
export { formatClock, resultText } from './format.js';
export { ALT_TEXT_MAX, describeAnimation, describeBoard, describeChart, describeClip } from './alt-text.js';
export type {
  BoardScene,
  SceneHoldings,
  ScenePlayer,
  SceneResult,
  SceneScore,
  RenderResult,
} from './scene.js';
export { LOW_CLOCK_MS, whiteShare } from './compose.js';
export { MIN_SIZE, MAX_SIZE, DEFAULT_SIZE } from './layout.js';
export { THEME_NAMES, DEFAULT_THEME, isThemeName, type ThemeName } from './theme.js';
