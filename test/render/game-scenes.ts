// Whole games as scenes, for the GIF tests and the render bench: a real game's positions
// (test/fixtures/render), and the same with ratings and clocks that run down for the side that moved.
import { readFileSync } from 'node:fs';
import type { BoardScene } from '../../render/index.js';
import { chessLiveGameScenes } from '../../src/chesslive/scenes.js';
import { parsePgn } from '../../src/game/pgn.js';

export function fixtureScenes(name: string): BoardScene[] {
  const games = parsePgn(readFileSync(new URL(`../fixtures/render/${name}`, import.meta.url), 'utf8'));
  if (!games.ok) throw new Error(games.error);
  const scenes = chessLiveGameScenes(games.value[0]!);
  if (!scenes.ok) throw new Error(scenes.error);
  return scenes.value;
}

/** The scenes with ratings, and five-minute clocks that lose 1-10 s for each move of their side. */
export function withClocks(scenes: readonly BoardScene[]): BoardScene[] {
  const clocks = { white: 300_000, black: 300_000 };
  return scenes.map((scene, ply) => {
    if (ply > 0) clocks[ply % 2 === 1 ? 'white' : 'black'] -= 1_000 + ((ply * 7919) % 9_000);
    return {
      ...scene,
      white: { ...scene.white, rating: '2670', clockMs: clocks.white },
      black: { ...scene.black, rating: '2705', clockMs: clocks.black },
    };
  });
}
