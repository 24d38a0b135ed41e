// The render threads every test bot of this process draws with (startBot's `renderPools`): one for
// boards, one for GIFs and charts, as a bot's own. Starting a thread loads tsx and the renderer,
// about a second under load, which each bot paid twice; the threads are the same code either way
// (test/render/worker-pool.test.ts starts, crashes and closes its own). Never closed: they end with
// the test process.
import { RenderPool } from '../../render/worker-pool.js';

let pools: { boards: RenderPool; gifs: RenderPool } | null = null;

export function sharedRenderPools(): { boards: RenderPool; gifs: RenderPool } {
  pools ??= { boards: new RenderPool({ workers: 1 }), gifs: new RenderPool({ workers: 1 }) };
  return pools;
}
