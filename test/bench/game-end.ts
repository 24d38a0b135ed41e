// One game end's main-thread work (src/relay/endings.ts PostEndings.finish): the GIF's scenes
// (gameScenes), their structured clone to the render worker, the GIF's description, the PGN, the
// clock chart's scene. CPU µs per game end for a 44-ply and a 100-ply real game (the first plies of
// a 157-ply FatICS game, as the tracker made its snapshot), each piece and all of them together.
import { describeAnimation } from '../../render/index.js';
import { snapshotChartScene } from '../../src/game/chart-scene.js';
import { makeSnapshotPgn } from '../../src/game/pgn.js';
import { gameScenes } from '../../src/game/scenes.js';
import type { GameSnapshot } from '../../src/game/snapshot.js';
import { decodeTranscript } from '../../src/game/transcript.js';
import { transcript } from '../support/fixtures.js';

/** The first `plies` plies of a game, ended as it did. */
function firstPlies(game: GameSnapshot, plies: number): GameSnapshot {
  return {
    ...game,
    san: game.san.slice(0, plies),
    uci: game.uci.slice(0, plies),
    clocksMs: game.clocksMs.slice(0, plies),
    moveTimesMs: game.moveTimesMs.slice(0, plies),
  };
}

/** CPU µs per call of `work`: the median of 5 rounds of at least `minMs` each, after a warm round. */
function usPer(work: () => unknown, minMs = 400): number {
  const rounds: number[] = [];
  for (let round = 0; round <= 5; round++) {
    let calls = 0;
    const start = process.cpuUsage();
    let used = 0;
    while (used < minMs * 1000) {
      for (let i = 0; i < 20; i++) work();
      calls += 20;
      const cpu = process.cpuUsage(start);
      used = cpu.user + cpu.system;
    }
    if (round > 0) rounds.push(used / calls);
  }
  rounds.sort((a, b) => a - b);
  return Math.round(rounds[2]! * 10) / 10;
}

function scenesOf(game: GameSnapshot): ReturnType<typeof gameScenes> & { ok: true } {
  const scenes = gameScenes(game);
  if (!scenes.ok) throw new Error(scenes.error);
  return scenes;
}

function benchGame(game: GameSnapshot, name: string): Record<string, number> {
  const scenes = scenesOf(game).value;
  return {
    [`game_end_${name}_scenes_us`]: usPer(() => gameScenes(game)),
    [`game_end_${name}_scenes_clone_us`]: usPer(() => structuredClone(scenes)),
    [`game_end_${name}_gif_alt_us`]: usPer(() => describeAnimation(scenes)),
    [`game_end_${name}_pgn_us`]: usPer(() => makeSnapshotPgn(game)),
    [`game_end_${name}_chart_us`]: usPer(() => snapshotChartScene(game)),
    [`game_end_${name}_all_us`]: usPer(() => {
      const all = scenesOf(game).value;
      structuredClone(all);
      describeAnimation(all);
      makeSnapshotPgn(game);
      snapshotChartScene(game);
    }),
  };
}

export function benchGameEnd(): Record<string, number> {
  const games = decodeTranscript(transcript('fatics_master_seq', 'obs_start.raw')).games;
  const longest = games.reduce((a, b) => (b.uci.length > a.uci.length ? b : a));
  return { ...benchGame(firstPlies(longest, 44), '44ply'), ...benchGame(firstPlies(longest, 100), '100ply') };
}

if (process.argv[1]?.endsWith('game-end.ts')) process.stdout.write(`${JSON.stringify(benchGameEnd())}\n`);
