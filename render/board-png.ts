// One scene to one PNG: compose regions, code the rows of those not coded before, join them into
// the PNG's compressed data (render/region-deflate.ts), write the PNG.
import { layoutNeeds, readScene, sceneComposer, type Frame } from './compose.js';
import { computeLayout, DEFAULT_SIZE, type LayoutNeeds } from './layout.js';
import { indexedPng } from './png.js';
import {
  deflateFrame,
  frameCoder,
  REGION_CACHE_BYTES,
  RegionCache,
  type FrameCoder,
} from './region-deflate.js';
import type { ScenePosition } from './position.js';
import type { BoardScene, RenderResult } from './scene.js';
import { DEFAULT_THEME } from './theme.js';

/**
 * The thread's scratch rows that missing regions are painted into, kept at the largest so far: a
 * fresh zeroed 290 KB a board was a memset and external garbage that brought on collections. Only
 * the painted regions' pixels are read back.
 */
let rowBuffer = new Uint8Array(0);

function paintedRows(length: number): Uint8Array {
  if (rowBuffer.length < length) rowBuffer = new Uint8Array(length);
  return rowBuffer.subarray(0, length);
}

/** A theme, size and layout's regions and its deflate code. */
interface BoardComposer {
  compose: (scene: BoardScene, position: ScenePosition) => Frame;
  coder: FrameCoder;
}

/** As many as the sprite kits kept (sprites.ts); the least recently used goes first. */
const MAX_COMPOSERS = 8;
const composers = new Map<string, BoardComposer>();
const regionCache = new RegionCache(REGION_CACHE_BYTES);

/** A middlegame with all a layout can show: the scene whose tokens make a composer's code. */
function sampleScene(needs: LayoutNeeds): BoardScene {
  return {
    fen: 'r1bq1rk1/pp2bppp/2n1pn2/2pp4/2PP4/2N1PN2/PP2BPPP/R1BQ1RK1 w - - 0 8',
    orientation: 'white',
    lastMove: 'e8g8',
    white: { name: 'GuestWHITE', rating: '1500', clockMs: 175_000 },
    black: { name: 'GuestBLACK', rating: '1650', clockMs: 9_500 },
    holdings: needs.holdings ? { white: 'PPN', black: 'RBQ' } : null,
    result: needs.footer ? { result: '1-0', reason: 'GuestBLACK resigns' } : null,
    evaluation: needs.evaluation ? { cp: 35, bestMove: 'd4c5' } : null,
  };
}

function newComposer(scene: BoardScene, needs: LayoutNeeds): BoardComposer {
  const compose = sceneComposer(scene, needs, true);
  const sample = sampleScene(needs);
  const position = readScene(sample);
  if (!position.ok) throw new Error(position.error);
  const frame = compose(sample, position.value);
  return { compose, coder: frameCoder(frame, paintedRows((frame.width + 1) * frame.height)) };
}

function boardComposer(scene: BoardScene, needs: LayoutNeeds): BoardComposer {
  const square = computeLayout(scene.size ?? DEFAULT_SIZE, needs).square;
  const key = `${scene.theme ?? DEFAULT_THEME}:${square}:${needs.footer}:${needs.holdings}:${needs.evaluation ?? false}`;
  const composer = composers.get(key) ?? newComposer(scene, needs);
  composers.delete(key);
  composers.set(key, composer);
  if (composers.size > MAX_COMPOSERS) composers.delete(composers.keys().next().value!);
  return composer;
}

export function renderPng(scene: BoardScene): RenderResult<Buffer> {
  const read = readScene(scene);
  if (!read.ok) return read;
  const composer = boardComposer(scene, layoutNeeds(scene, read.value));
  const frame = composer.compose(scene, read.value);
  const rows = paintedRows((frame.width + 1) * frame.height);
  const idat = deflateFrame(composer.coder, frame, regionCache, rows);
  return { ok: true, value: indexedPng(frame.width, frame.height, frame.palette.rgb, idat) };
}
