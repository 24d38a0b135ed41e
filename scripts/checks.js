// `npm test`'s checks before vitest: the type-check, the lint and the format check at once, each on
// its own cache in node_modules/.cache. Each is one thread: run one after the other on two cores,
// a fresh clone waits for the type-aware lint alone most of the time (docs/testing.md). Each
// check's output is printed whole once it ends, so that no two interleave; any failure fails.
import { spawn } from 'node:child_process';
import process from 'node:process';

const CHECKS = [
  ['tsc', '--noEmit', '--incremental', '--tsBuildInfoFile', 'node_modules/.cache/tsc/tsbuildinfo'],
  ['eslint', '--cache', '--cache-location', 'node_modules/.cache/eslint', '.'],
  ['prettier', '--check', '--cache', '.'],
];

/** Runs one check (from node_modules/.bin, which npm puts on PATH); its status and output. */
function run([command, ...args]) {
  return new Promise((resolve) => {
    let output = '';
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => resolve({ command, status: 1, output: `${error.message}\n` }));
    child.on('close', (status) => resolve({ command, status: status ?? 1, output }));
  });
}

const results = await Promise.all(CHECKS.map(run));
for (const { command, status, output } of results) {
  if (output !== '') process.stdout.write(output);
  if (status !== 0) process.stderr.write(`${command} failed (exit status ${status})\n`);
}
process.exitCode = results.some((r) => r.status !== 0) ? 1 : 0;
