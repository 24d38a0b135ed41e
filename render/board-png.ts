// One scene to one PNG: compose regions, paint them into palette rows, write the PNG.
import { composeScene, layoutNeeds, readScene } from './compose.js';
import { encodeIndexedPng } from './png.js';
import type { BoardScene, RenderResult } from './scene.js';

/**
 * The thread's rows, reused by every board and kept at the largest so far: a fresh zeroed 290 KB
 * a board was a memset and external garbage that brought on collections. Nothing of the last
 * board is left in a new one: the regions tile the image and each paints all of its pixels, and
 * the filter bytes are set below.
 */
let rowBuffer = new Uint8Array(0);

function paintedRows(length: number): Uint8Array {
  if (rowBuffer.length < length) rowBuffer = new Uint8Array(length);
  return rowBuffer.subarray(0, length);
}

export function renderPng(scene: BoardScene): RenderResult<Buffer> {
  const read = readScene(scene);
  if (!read.ok) return read;
  const frame = composeScene(scene, read.value, layoutNeeds(scene, read.value));
  // Each PNG row starts with its filter byte: 0, no filter.
  const stride = frame.width + 1;
  const rows = paintedRows(stride * frame.height);
  for (let at = 0; at < rows.length; at += stride) rows[at] = 0;
  const surface = { data: rows, stride, base: 1 };
  for (const region of frame.regions) region.paint(surface);
  return { ok: true, value: encodeIndexedPng(frame.width, frame.height, frame.palette.rgb, rows) };
}
