// npm run fuzz [-- --inputs 1000000 --commands 2000 --seed 1 --only decodeLine]
// Feeds the decoders (also with oversized lines, replies and telnet subnegotiations at small
// limits), the game tracker, the ChessLive! reader (whole and in pieces), the PGN tags and the
// input checks a million generated and mutated inputs (shared by weight), then runs the real bot
// with random slash-command arguments. Prints what each target took and every distinct finding;
// exits 1 on any failure (an exception, corrupted state, a command answered wrongly, an unchecked
// FICS line), not on notes.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { fuzzCommands } from './fuzz-commands.js';
import { chessLiveCorpus, ficsCorpus } from './fuzz-inputs.js';
import { fuzzTargets, type Finding } from './fuzz-targets.js';
import { Dice } from './random.js';
import { round, table } from './stats.js';

const { values: args } = parseArgs({
  options: {
    inputs: { type: 'string', default: '1000000' },
    commands: { type: 'string', default: '2000' },
    seed: { type: 'string', default: '1' },
    only: { type: 'string' },
  },
});

/** Share of the inputs per target: cheap decoders get more, whole files and streams fewer. */
const WEIGHTS: Record<string, number> = {
  decodeLine: 40,
  ObserverDecoder: 12,
  'GameTracker (foreign garbage)': 14,
  'GameTracker (own garbage)': 14,
  parseChessLive: 12,
  'validate (game numbers, handles)': 8,
  'ObserverDecoder (oversized input)': 2,
  'ChessLiveReader (growing in pieces)': 3,
  'PGN tags (names from outside)': 3,
  'OpeningTrail (moves from outside)': 2,
  'renderChart (any numbers)': 1,
};

const corpus = {
  ...ficsCorpus(),
  chessLive: chessLiveCorpus(readFileSync(new URL('../fixtures/chesslive/z03.clv', import.meta.url), 'utf8')),
};
const total = Number(args.inputs);
const dice = new Dice(Number(args.seed));
const weightSum = Object.values(WEIGHTS).reduce((a, b) => a + b, 0);
const rows: (string | number)[][] = [];
const findings = new Map<string, Finding & { count: number }>();
let fed = 0;

for (const target of fuzzTargets(corpus)) {
  if (args.only !== undefined && !target.name.startsWith(args.only)) continue;
  const runs = Math.ceil((total * (WEIGHTS[target.name] ?? 1)) / weightSum);
  const started = performance.now();
  let found = 0;
  for (let i = 0; i < runs; i++) {
    const finding = target.run(dice);
    if (finding === null) continue;
    found++;
    // One entry per kind of problem: its first line without numbers and quoted text.
    const kind = `${finding.target}: ${finding.problem.split('\n')[0]!.replace(/\d+|"[^"]*"/g, '#')}`;
    const known = findings.get(kind);
    if (known === undefined) findings.set(kind, { ...finding, count: 1 });
    else known.count++;
  }
  const seconds = (performance.now() - started) / 1000;
  fed += runs;
  rows.push([target.name, runs, round(seconds), Math.round(runs / seconds), found]);
  process.stderr.write(`${target.name}: ${runs} inputs in ${seconds.toFixed(1)} s, ${found} findings\n`);
}

let commandFindings = 0;
if (args.only === undefined || 'commands'.startsWith(args.only)) {
  const runs = Number(args.commands);
  const started = performance.now();
  const result = await fuzzCommands(runs, Number(args.seed));
  const seconds = (performance.now() - started) / 1000;
  commandFindings = result.findings.length;
  for (const finding of result.findings)
    findings.set(`commands: ${finding.problem}`, { ...finding, count: 1 });
  rows.push([
    `slash commands (${result.commands.join(', ')})`,
    runs,
    round(seconds),
    Math.round(runs / seconds),
    commandFindings,
  ]);
}

process.stdout.write(`${table(['target', 'inputs', 'seconds', 'inputs/s', 'findings'], rows)}\n`);
process.stdout.write(`${fed} decoder, tracker, reader and check inputs; seed ${args.seed}.\n`);
for (const [kind, finding] of findings) {
  const label = finding.severity === 'failure' ? 'FAILURE' : 'note';
  process.stdout.write(
    `\n${label} (${finding.count}x) ${kind}\n  ${finding.problem.split('\n').slice(0, 4).join('\n  ')}\n  input: ${finding.input}\n`,
  );
}
const failures = [...findings.values()].filter((f) => f.severity === 'failure').length;
process.stdout.write(`\n${failures} kinds of failure, ${findings.size - failures} kinds of note.\n`);
process.exitCode = failures > 0 ? 1 : 0;
