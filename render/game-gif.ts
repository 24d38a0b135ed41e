// Scenes to an animated GIF, the way lichess's GIF renderer does it: one fixed palette, the first
// frame whole, and every later frame only the bounding box of the regions (squares, clocks, names)
// that changed, with the unchanged regions inside it transparent.
import { readScene, sceneComposer, type Frame, type Region } from './compose.js';
import { GifWriter } from './gif.js';
import type { LayoutNeeds } from './layout.js';
import { TRANSPARENT } from './palette.js';
import type { ScenePosition } from './position.js';
import type { BoardScene, RenderResult } from './scene.js';
import { fillRect } from './surface.js';

/** A frame's time when its next move's time is unknown. */
export const FRAME_DELAY_MS = 800;
export const LAST_FRAME_DELAY_MS = 4000;
/**
 * A position is shown for this share of the time its next move took, within FRAME_DELAY_RANGE:
 * a long think is a long frame, yet a blitz game replays in minutes, not in its real time.
 */
export const MOVE_TIME_SHARE = 0.25;
export const FRAME_DELAY_RANGE = [300, 3_000] as const;

/** How long a position is shown: after the time the move that follows it took. */
export function frameDelayMs(nextMoveMs: number | null | undefined, fallbackMs = FRAME_DELAY_MS): number {
  if (nextMoveMs === null || nextMoveMs === undefined || !Number.isFinite(nextMoveMs)) return fallbackMs;
  const [lo, hi] = FRAME_DELAY_RANGE;
  return Math.min(hi, Math.max(lo, Math.round(nextMoveMs * MOVE_TIME_SHARE)));
}
/**
 * At most this many frames: a 157-ply game makes a GIF of about 600 KB, so 600 frames stay near
 * 2.5 MB, well under Discord's 10 MiB per file (a 20,000-ply game would otherwise be 50 MB).
 */
export const MAX_GIF_FRAMES = 600;
/** A GIF growing past this is given up (Discord takes 10 MiB per file; the PGN goes along). */
export const MAX_GIF_BYTES = 8 * 1024 * 1024;

export interface GifOptions {
  /** Every frame this long, whatever the move times (default: from the move times). */
  frameDelayMs?: number;
  lastFrameDelayMs?: number;
  maxFrames?: number;
  maxBytes?: number;
}

/**
 * The scenes a GIF shows: all of them, or for a longer game the start and then its last moves,
 * which are what people look at once the result is known.
 */
export function gifScenes<T>(scenes: readonly T[], maxFrames = MAX_GIF_FRAMES): T[] {
  if (scenes.length <= maxFrames) return [...scenes];
  return [scenes[0]!, ...scenes.slice(scenes.length - (maxFrames - 1))];
}

function boundingBox(regions: Region[]): { x: number; y: number; w: number; h: number } {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = 0;
  let y1 = 0;
  for (const r of regions) {
    x0 = Math.min(x0, r.x);
    y0 = Math.min(y0, r.y);
    x1 = Math.max(x1, r.x + r.w);
    y1 = Math.max(y1, r.y + r.h);
  }
  return { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
}

/**
 * A long game's scenes as its GIF shows them: its start frame says which moves are left out (in
 * the result strip, which the final frame fills anyway).
 */
function shownScenes(all: readonly BoardScene[], maxFrames?: number): BoardScene[] {
  const scenes = gifScenes(all, maxFrames);
  const left = all.length - scenes.length;
  if (left === 0) return scenes;
  const note = `${left} half-moves left out: then the last ${scenes.length - 1} of ${all.length - 1}`;
  return [{ ...scenes[0]!, result: { result: '*', reason: note } }, ...scenes.slice(1)];
}

/**
 * One buffer for every frame's pixels, of every GIF the thread draws (each frame paints or clears
 * all of its box first): kept at the largest frame so far, at most a whole picture.
 */
let scratch = new Uint8Array(0);

function framePixels(length: number): Uint8Array {
  if (scratch.length < length) scratch = new Uint8Array(length);
  return scratch.subarray(0, length);
}

/** One frame per scene; every scene is drawn with the first one's theme, size and layout. */
export function renderGif(all: BoardScene[], opts: GifOptions = {}): RenderResult<Buffer> {
  const scenes = shownScenes(all, opts.maxFrames);
  const maxBytes = opts.maxBytes ?? MAX_GIF_BYTES;
  const first = scenes[0];
  if (!first) return { ok: false, error: 'no positions to animate' };
  const positions: ScenePosition[] = [];
  for (const [i, scene] of scenes.entries()) {
    const read = readScene(scene);
    if (!read.ok) return { ok: false, error: `position ${i}: ${read.error}` };
    positions.push(read.value);
  }
  const needs: LayoutNeeds = {
    footer: scenes.some((s) => s.result),
    holdings: positions.some((p) => p.holdings !== null),
  };
  const compose = sceneComposer({ theme: first.theme, size: first.size }, needs, false);
  const lastFrameDelayMs = opts.lastFrameDelayMs ?? LAST_FRAME_DELAY_MS;

  let previous: Frame | null = null;
  let writer: GifWriter | null = null;
  for (const [i, scene] of scenes.entries()) {
    const frame = compose(scene, positions[i]!);
    // The start of a cut game stays long enough to read what was left out.
    const delayMs =
      i === scenes.length - 1
        ? lastFrameDelayMs
        : i === 0 && scenes.length < all.length
          ? FRAME_DELAY_RANGE[1]
          : (opts.frameDelayMs ?? frameDelayMs(scenes[i + 1]!.moveTimeMs));
    writer ??= new GifWriter(frame.width, frame.height, frame.palette.rgb);
    const changed =
      previous && previous.regions.length === frame.regions.length
        ? frame.regions.filter((r, j) => r.key !== previous!.regions[j]!.key)
        : frame.regions;
    if (changed.length === 0) {
      // Nothing moved (a repeated position): one transparent pixel keeps the timing.
      writer.frame({
        x: 0,
        y: 0,
        width: 1,
        height: 1,
        pixels: Uint8Array.of(TRANSPARENT),
        delayMs,
        transparentIndex: TRANSPARENT,
      });
    } else {
      const box = boundingBox(changed);
      const pixels = framePixels(box.w * box.h);
      const surface = { data: pixels, stride: box.w, base: -(box.y * box.w + box.x) };
      if (changed !== frame.regions) fillRect(surface, box.x, box.y, box.w, box.h, TRANSPARENT);
      for (const region of changed) region.paint(surface);
      const transparentIndex = changed === frame.regions ? null : TRANSPARENT;
      writer.frame({ x: box.x, y: box.y, width: box.w, height: box.h, pixels, delayMs, transparentIndex });
    }
    previous = frame;
    if (writer.size > maxBytes)
      return { ok: false, error: `the GIF passed ${maxBytes} bytes at frame ${i + 1} of ${scenes.length}` };
  }
  return { ok: true, value: writer!.finish() };
}
