// Where images are made. The relay asks a Renderer, not the render functions: the bot hands it the
// worker pool (worker-pool.ts) so that renders never hold up the event loop; tests and the
// command-line tools use the inline one.
import { renderPng } from './board-png.js';
import { renderChart, type ChartScene } from './chart.js';
import { renderGif, type GifOptions } from './game-gif.js';
import type { BoardScene, RenderResult } from './scene.js';

export interface Renderer {
  /** One board as PNG (see renderPng). */
  png(scene: BoardScene): Promise<RenderResult<Buffer>>;
  /** A whole game as an animated GIF (see renderGif). */
  gif(scenes: BoardScene[], options?: GifOptions): Promise<RenderResult<Buffer>>;
  /** A whole game's clocks (and evaluation) as a PNG chart (see renderChart). */
  chart(scene: ChartScene): Promise<RenderResult<Buffer>>;
}

/** Renders on the calling thread. */
export const inlineRenderer: Renderer = {
  png: (scene) => Promise.resolve(renderPng(scene)),
  gif: (scenes, options) => Promise.resolve(renderGif(scenes, options)),
  chart: (scene) => Promise.resolve(renderChart(scene)),
};
