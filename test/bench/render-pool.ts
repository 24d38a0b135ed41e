// What a whole-game GIF costs the bot's main thread: rendered inline it blocks the event loop for
// its whole time; through the render pool (render/worker-pool.ts) the main thread only posts the
// scenes (a structured clone) and gets the bytes back. Inputs: the first 100 plies of a real game.
import { readFileSync } from 'node:fs';
import { renderGif } from '../../render/index.js';
import { chessLiveGameScenes } from '../../src/chesslive/scenes.js';
import { RenderPool } from '../../render/worker-pool.js';
import { parsePgn } from '../../src/game/pgn.js';

const PGN = new URL('../fixtures/render/korchnoi-karpov-1974.pgn', import.meta.url);
const RUNS = 7;

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}

export async function benchRenderPool(): Promise<Record<string, number>> {
  const games = parsePgn(readFileSync(PGN, 'utf8'));
  if (!games.ok) throw new Error(games.error);
  const read = chessLiveGameScenes(games.value[0]!);
  if (!read.ok) throw new Error(read.error);
  const scenes = read.value.slice(0, 101);
  const pool = new RenderPool({ workers: 1 });
  try {
    const inline: number[] = [];
    const posted: number[] = [];
    const total: number[] = [];
    // The first render of each kind warms code and sprites; it is not counted.
    for (let run = 0; run <= RUNS; run++) {
      const start = performance.now();
      const gif = renderGif(scenes);
      const inlineMs = performance.now() - start;
      const sent = performance.now();
      const pending = pool.gif(scenes);
      const postedMs = performance.now() - sent;
      const pooled = await pending;
      const totalMs = performance.now() - sent;
      if (!gif.ok || !pooled.ok || !pooled.value.equals(gif.value))
        throw new Error('pool and inline GIFs differ');
      if (run === 0) continue;
      inline.push(inlineMs);
      posted.push(postedMs);
      total.push(totalMs);
    }
    return {
      gif_100ply_main_thread_ms_inline: median(inline),
      gif_100ply_main_thread_ms_pool: median(posted),
      gif_100ply_pool_latency_ms: median(total),
    };
  } finally {
    await pool.close();
  }
}
