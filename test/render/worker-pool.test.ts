// The render pool draws in worker threads exactly what the renderers draw on the main thread, says
// what was wrong with a bad scene, spreads work over its threads, and fails cleanly once closed.
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import {
  inlineRenderer,
  RENDERER_CLOSED,
  renderGif,
  renderPng,
  watchedRenderer,
  type BoardScene,
} from '../../render/index.js';
import { chessLiveGameScenes } from '../../src/chesslive/scenes.js';
import { RenderPool } from '../../render/worker-pool.js';
import { parsePgn } from '../../src/game/pgn.js';

function fixtureScenes(): BoardScene[] {
  const pgn = readFileSync(new URL('../fixtures/render/korchnoi-karpov-1974.pgn', import.meta.url), 'utf8');
  const games = parsePgn(pgn);
  if (!games.ok) throw new Error(games.error);
  const scenes = chessLiveGameScenes(games.value[0]!);
  if (!scenes.ok) throw new Error(scenes.error);
  return scenes.value.slice(0, 40);
}

describe('render pool', () => {
  const pool = new RenderPool({ workers: 2 });
  afterAll(() => pool.close());
  const scenes = fixtureScenes();

  it('renders the same PNG bytes as the main thread', async () => {
    const scene = scenes.at(-1)!;
    const inline = renderPng(scene);
    const pooled = await pool.png(scene);
    expect(inline.ok && pooled.ok).toBe(true);
    if (!inline.ok || !pooled.ok) return;
    expect(pooled.value.equals(inline.value)).toBe(true);
  });

  it('renders the same GIF bytes as the main thread, several at once', async () => {
    const inline = renderGif(scenes);
    const pooled = await Promise.all([pool.gif(scenes), pool.gif(scenes.slice(0, 10)), pool.gif(scenes)]);
    expect(inline.ok).toBe(true);
    if (!inline.ok) return;
    expect(pooled.map((r) => r.ok)).toEqual([true, true, true]);
    expect(pooled[0]!.ok && pooled[0]!.value.equals(inline.value)).toBe(true);
    expect(pooled[2]!.ok && pooled[2]!.value.equals(inline.value)).toBe(true);
    expect(pooled[1]!.ok && pooled[1]!.value.length).toBeLessThan(inline.value.length);
  });

  it('answers a bad scene with the renderer’s error, and keeps working', async () => {
    const bad = await pool.png({ ...scenes[0]!, fen: 'not a fen' });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toMatch(/fen/i);
    const empty = await pool.gif([]);
    expect(empty).toEqual({ ok: false, error: 'no positions to animate' });
    expect((await pool.png(scenes[0]!)).ok).toBe(true);
  });

  it('fails renders once closed instead of hanging, and says how many were waiting', async () => {
    const closing = new RenderPool({ workers: 1 });
    const waiting = [closing.gif(scenes), closing.gif(scenes), closing.png(scenes[0]!)];
    expect(await closing.close()).toBe(3);
    for (const render of waiting) expect(await render).toEqual({ ok: false, error: RENDERER_CLOSED });
    expect(await closing.png(scenes[0]!)).toEqual({ ok: false, error: 'the render pool was closed' });
    expect(await closing.close()).toBe(0);
  });

  it('tells through a watched renderer of each failed render, its kind and error', async () => {
    const failed: string[] = [];
    const watched = watchedRenderer(inlineRenderer, (kind, error) => failed.push(`${kind}: ${error}`));
    expect((await watched.png(scenes[0]!)).ok).toBe(true);
    expect((await watched.png({ ...scenes[0]!, fen: 'not a fen' })).ok).toBe(false);
    expect((await watched.gif([])).ok).toBe(false);
    expect(failed).toEqual([expect.stringMatching(/^png: .*fen/i), 'gif: no positions to animate']);
  });
});
