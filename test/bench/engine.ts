// npx tsx test/bench/engine.ts [-- --movetime-ms 500 | --depth 12] [--positions 40]
// What one analysed position costs: the engine process's CPU time (Linux /proc) and wall time per
// position, at a fixed time or depth, over the positions of a real game, plus the engine's start
// and memory.
// Not part of `npm run bench`: the engine is optional. --npm measures the npm package's build
// (when installed) instead of the engine KIBITZ_ENGINE=on would run.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { makeFen } from 'chessops/fen';
import { parseSan } from 'chessops/san';
import { Chess } from 'chessops/chess';
import { StockfishProcess, type EngineLimit } from '../../src/engine/stockfish.js';
import { fixture } from '../fake-fics/fixture-games.js';
import { benchEngine } from './engine-program.js';

const { values: args } = parseArgs({
  options: {
    'movetime-ms': { type: 'string', default: '500' },
    depth: { type: 'string' },
    positions: { type: 'string', default: '40' },
    npm: { type: 'boolean' },
  },
});

const program = benchEngine(args.npm === true);
if (typeof program === 'string') {
  process.stderr.write(`${program}: nothing to measure\n`);
  process.exit(1);
}
const limit: EngineLimit =
  args.depth === undefined ? { movetimeMs: Number(args['movetime-ms']) } : { depth: Number(args.depth) };

/** user + system CPU of a process, ms (Linux: fields 14 and 15 of /proc/<pid>/stat, in ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const fens: string[] = [];
const pos = Chess.default();
for (const san of fixture('lasker_master_seq#0').san) {
  const move = parseSan(pos, san);
  if (move === undefined) break;
  pos.play(move);
  fens.push(makeFen(pos.toSetup()));
  if (fens.length >= Number(args.positions)) break;
}

const engine = new StockfishProcess(program, limit);
const never = new AbortController().signal;
const startWall = performance.now();
await engine.analyse({ fen: fens[0]!, chess960: false }, never);
const firstWall = performance.now() - startWall;
const pid = engine.pid!;
const afterFirst = cpuMs(pid);
const wallStart = performance.now();
const depths: number[] = [];
for (const fen of fens.slice(1)) depths.push((await engine.analyse({ fen, chess960: false }, never))!.depth);
const wall = (performance.now() - wallStart) / depths.length;
const cpu = (cpuMs(pid) - afterFirst) / depths.length;
const rssKb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
engine.close();
process.stdout.write(
  `${JSON.stringify({
    limit,
    positions: depths.length,
    cpuMsPerPosition: Math.round(cpu),
    wallMsPerPosition: Math.round(wall),
    medianDepth: depths.sort((a, b) => a - b)[Math.floor(depths.length / 2)],
    startAndFirstPositionWallMs: Math.round(firstWall),
    startAndFirstPositionCpuMs: afterFirst,
    engineRssMB: Math.round(rssKb / 1024),
  })}\n`,
);
