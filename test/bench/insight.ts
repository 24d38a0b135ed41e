// Insight: opening lookup cost on the positions of real games (one table lookup per position, and
// a game followed a move at a time as a live game's snapshots follow it: the move played, then
// looked up), and the clock chart of a long game.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Chess } from 'chessops/chess';
import { parseUci } from 'chessops/util';
import { normalizeMove, type Position } from 'chessops/chess';
import { renderChart } from '../../render/chart.js';
import { snapshotChartScene } from '../../src/game/chart-scene.js';
import { OpeningTrail, openingAt } from '../../src/game/openings.js';
import type { GameSnapshot } from '../../src/game/snapshot.js';
import { decodeTranscript } from '../../src/game/transcript.js';
import { transcript } from '../support/fixtures.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * CPU milliseconds to read the table, in a fresh process (chessops and the move helpers already
 * loaded). CPU time rather than wall time throughout: the figures stay those of the code when
 * other work shares the cores.
 */
function loadMs(): number {
  const script = `
    await import('./src/game/moves.ts');
    const start = process.cpuUsage();
    await import('./src/game/openings.ts');
    const used = process.cpuUsage(start);
    process.stdout.write(String((used.user + used.system) / 1000));`;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  const ms = Number(run.stdout);
  if (run.status !== 0 || !Number.isFinite(ms)) throw new Error(`table load not measured: ${run.stderr}`);
  return Math.round(ms);
}

/** CPU milliseconds since `start` (process.cpuUsage). */
function cpuMsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** CPU nanoseconds per call of `work(i)` for i over `count`, repeated for at least `minMs`. */
function nsPer(count: number, work: (i: number) => number, minMs = 1000): number {
  let calls = 0;
  let sink = 0;
  const start = process.cpuUsage();
  let elapsed = 0;
  while (elapsed < minMs) {
    for (let i = 0; i < count; i++) sink += work(i);
    calls += count;
    elapsed = cpuMsSince(start);
  }
  if (sink < 0) throw new Error('unreachable');
  return Math.round((elapsed * 1e6) / calls);
}

/** The chart of the longest game: median render time over runs after a warm one, and its size. */
function chart(games: GameSnapshot[]): { ms: number; bytes: number } {
  const longest = games.reduce((a, b) => (b.uci.length > a.uci.length ? b : a));
  const scene = snapshotChartScene(longest)!;
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i <= 20; i++) {
    const start = process.cpuUsage();
    const png = renderChart(scene);
    if (!png.ok) throw new Error(png.error);
    if (i > 0) times.push(cpuMsSince(start));
    bytes = png.value.length;
  }
  times.sort((a, b) => a - b);
  return { ms: Math.round(times[times.length >> 1]! * 100) / 100, bytes };
}

export function benchInsight(): Record<string, number> {
  const games = ['lasker_master_seq/obs_start.raw', 'fatics_special/obs_start.raw']
    .flatMap((f) => decodeTranscript(transcript(f.split('/')[0]!, f.split('/')[1]!)).games)
    .filter((g) => g.variant === 'chess' && g.uci.length > 0);
  const positions: Position[] = [];
  for (const game of games) {
    const pos = Chess.default();
    for (const uci of game.uci) {
      pos.play(normalizeMove(pos, parseUci(uci)!));
      positions.push(pos.clone());
    }
  }
  const lookup = (i: number): number => (openingAt(positions[i]!) === undefined ? 0 : 1);
  nsPer(positions.length, lookup, 200);
  // Each "call" is one game followed from its first move to its last, a move at a time.
  const plies = games.reduce((n, g) => n + g.uci.length, 0);
  const follow = (i: number): number => {
    const game = games[i]!;
    const trail = new OpeningTrail();
    let named = 0;
    for (let n = 1; n <= game.uci.length; n++) {
      if (trail.follow('chess', game.startFen, game.uci.slice(0, n)) !== null) named++;
    }
    return named;
  };
  nsPer(games.length, follow, 200);
  const perGame = nsPer(games.length, follow);
  const drawn = chart(games);
  return {
    openings_table_load_ms: loadMs(),
    openings_lookup_ns_per_position: nsPer(positions.length, lookup),
    openings_follow_ns_per_move: Math.round((perGame * games.length) / plies),
    chart_157ply_ms: drawn.ms,
    chart_157ply_bytes: drawn.bytes,
  };
}
