// Whole games as scenes, for the GIF tests and the render bench: a real game's positions
// (test/fixtures/render), the FICS fixture games (test/fixtures/fics-games), and the same with
// ratings and clocks that run down for the side that moved.
import { readFileSync } from 'node:fs';
import type { BoardScene } from '../../render/index.js';
import { chessLiveGameScenes } from '../../src/chesslive/scenes.js';
import { parseSanMove, play, startReplay } from '../../src/game/moves.js';
import { parsePgn } from '../../src/game/pgn.js';
import type { GameRecord } from '../../src/game/record.js';
import type { GameResult } from '../../src/protocol/events.js';
import { fixtureGames, type FixtureGame } from '../fake-fics/fixture-games.js';

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

/** A FICS fixture game's positions, replayed from its SAN. */
function ficsGameScenes(game: FixtureGame): BoardScene[] {
  const variant = game.variant === 'crazyhouse' ? 'crazyhouse' : 'chess';
  const start = startReplay(variant);
  if (!start.ok) throw new Error(start.error);
  const uci = game.san.map((san, ply) => {
    const move = parseSanMove(start.value, san);
    if (!move) throw new Error(`${game.id}: "${san}" at ply ${ply + 1} is not legal`);
    return play(start.value, move).uci;
  });
  const record: GameRecord = { ...game, variant, uci, clocksMs: [], result: game.result as GameResult };
  const scenes = chessLiveGameScenes(record);
  if (!scenes.ok) throw new Error(scenes.error);
  return scenes.value;
}

/** Every FICS fixture game (test/fixtures/fics-games/games.json) as scenes, by its id. */
export function ficsFixtureScenes(): { id: string; scenes: BoardScene[] }[] {
  return fixtureGames.map((game) => ({ id: game.id, scenes: ficsGameScenes(game) }));
}
