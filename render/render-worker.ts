// A render worker thread (see worker-pool.ts): takes scenes, answers with image bytes. The bytes
// are transferred, not copied.
import { parentPort } from 'node:worker_threads';
import { renderPng } from './board-png.js';
import { renderChart } from './chart.js';
import { renderGif } from './game-gif.js';
import type { RenderRequest, RenderResponse } from './worker-pool.js';

if (parentPort === null) throw new Error('render-worker.ts runs as a worker thread (worker-pool.ts)');
const port = parentPort;

port.on('message', (request: RenderRequest) => {
  let response: RenderResponse;
  try {
    const result =
      request.kind === 'png'
        ? renderPng(request.scene)
        : request.kind === 'chart'
          ? renderChart(request.scene)
          : renderGif(request.scenes, request.options);
    response = result.ok
      ? {
          id: request.id,
          ok: true,
          bytes: new Uint8Array(result.value.buffer, result.value.byteOffset, result.value.length),
        }
      : { id: request.id, ok: false, error: result.error };
  } catch (error) {
    response = { id: request.id, ok: false, error: `render failed: ${(error as Error).message}` };
  }
  // A Buffer's memory may be a slice of a shared pool: copy those, move the rest.
  const bytes = response.ok ? response.bytes : null;
  const movable = bytes !== null && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  port.postMessage(response, movable ? [bytes.buffer as ArrayBuffer] : []);
});
