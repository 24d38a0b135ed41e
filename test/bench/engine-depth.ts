// npx tsx test/bench/engine-depth.ts [-- --npm]: time to depth 18, nodes/s and peak memory of the
// engine KIBITZ_ENGINE=on would run (or the npm package's build), on two positions, one fresh
// process each (Linux: memory from /proc). Not part of `npm run bench`: the engine is optional.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { benchEngine } from './engine-program.js';

const { values: args } = parseArgs({ options: { npm: { type: 'boolean' } } });

const POSITIONS: Record<string, string> = {
  start: 'startpos',
  "Queen's Gambit, move 9": 'fen r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9',
};

const program = benchEngine(args.npm === true);
if (typeof program === 'string') {
  process.stderr.write(`${program}: nothing to measure\n`);
  process.exit(1);
}

for (const [name, position] of Object.entries(POSITIONS)) {
  const child = spawn(program.command, program.args, { stdio: ['pipe', 'pipe', 'ignore'] });
  const started = performance.now();
  let searching = 0;
  let last = '';
  const measured = await new Promise<{ wallMs: number; startMs: number; peakKb: number }>((resolve) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line === 'readyok') {
        searching = performance.now();
        child.stdin.write(`position ${position}\ngo depth 18\n`);
      } else if (line.startsWith('info depth')) {
        last = line;
      } else if (line.startsWith('bestmove')) {
        const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
        resolve({
          wallMs: performance.now() - searching,
          startMs: searching - started,
          peakKb: Number(/VmHWM:\s+(\d+)/.exec(status)?.[1]),
        });
      }
    });
    child.stdin.write('uci\nsetoption name Threads value 1\nsetoption name Hash value 16\nisready\n');
  });
  child.stdin.write('quit\n');
  const nodes = Number(/ nodes (\d+)/.exec(last)?.[1]);
  const engineMs = Number(/ time (\d+)/.exec(last)?.[1]);
  process.stdout.write(
    `${JSON.stringify({
      engine: `${program.kind} ${program.command} ${program.args.join(' ')}`.trim(),
      position: name,
      depth18Ms: Math.round(measured.wallMs),
      nodesPerSecond: Math.round(nodes / (engineMs / 1000)),
      peakRssMB: Math.round(measured.peakKb / 1024),
      startMs: Math.round(measured.startMs),
    })}\n`,
  );
  await new Promise((resolve) => child.once('exit', resolve));
}
