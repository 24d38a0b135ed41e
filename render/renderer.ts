// Where images are made. The relay asks a Renderer, not the render functions: the bot hands it the
// worker pool (worker-pool.ts) so that renders never hold up the event loop; tests and the
// command-line tools use the inline one.
import { renderPng } from './board-png.js';
import { renderChart, type ChartScene } from './chart.js';
import { renderGif, type GifOptions } from './game-gif.js';
import type { BoardScene, RenderResult } from './scene.js';

/** A render's error once its renderer was closed (the bot stopping): counted, not a fault. */
export const RENDERER_CLOSED = 'the render pool was closed';

export interface Renderer {
  /** One board as PNG (see renderPng). */
  png(scene: BoardScene): Promise<RenderResult<Buffer>>;
  /** A whole game as an animated GIF (see renderGif). */
  gif(scenes: BoardScene[], options?: GifOptions): Promise<RenderResult<Buffer>>;
  /** A whole game's clocks (and evaluation) as a PNG chart (see renderChart). */
  chart(scene: ChartScene): Promise<RenderResult<Buffer>>;
}

/** A renderer that also tells `failed` of each render that failed, with its kind and error. */
export function watchedRenderer(
  inner: Renderer,
  failed: (kind: keyof Renderer, error: string) => void,
): Renderer {
  const watch = (kind: keyof Renderer, result: RenderResult<Buffer>): RenderResult<Buffer> => {
    if (!result.ok) failed(kind, result.error);
    return result;
  };
  return {
    png: async (scene) => watch('png', await inner.png(scene)),
    gif: async (scenes, options) => watch('gif', await inner.gif(scenes, options)),
    chart: async (scene) => watch('chart', await inner.chart(scene)),
  };
}

/** Renders on the calling thread. */
export const inlineRenderer: Renderer = {
  png: (scene) => Promise.resolve(renderPng(scene)),
  gif: (scenes, options) => Promise.resolve(renderGif(scenes, options)),
  chart: (scene) => Promise.resolve(renderChart(scene)),
};
