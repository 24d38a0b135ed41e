// One scene to one PNG: compose regions, paint them into palette rows, write the PNG.
import { composeScene, layoutNeeds, readScene } from './compose.js';
import { encodeIndexedPng } from './png.js';
import type { BoardScene, RenderResult } from './scene.js';

export function renderPng(scene: BoardScene): RenderResult<Buffer> {
  const read = readScene(scene);
  if (!read.ok) return read;
  const frame = composeScene(scene, read.value, layoutNeeds(scene, read.value));
  // Each PNG row starts with its filter byte; zero (no filter) is what Buffer.alloc leaves there.
  const stride = frame.width + 1;
  const rows = Buffer.alloc(stride * frame.height);
  const surface = { data: rows, stride, base: 1 };
  for (const region of frame.regions) region.paint(surface);
  return { ok: true, value: encodeIndexedPng(frame.width, frame.height, frame.palette.rgb, rows) };
}
