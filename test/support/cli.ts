// The command-line tools, run in-process through their `main` (fast), or as a user runs them.
import { spawnSync } from 'node:child_process';
import type { CliOutput } from '../../src/cli/entry.js';
import { ROOT, built } from './processes.js';

export interface CliRun {
  /** The exit status (null when a real process was killed). */
  status: number | null;
  stdout: string;
  stderr: string;
}

export { ROOT };

/** Runs a tool's `main` in this process, capturing what it writes. */
export function runMain(main: (argv: string[], out: CliOutput) => number, args: readonly string[]): CliRun {
  let stdout = '';
  let stderr = '';
  const status = main([...args], {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  });
  return { status, stdout, stderr };
}

/** Runs `src/cli/<tool>.ts` (compiled) as a separate node process from the repository's root. */
export function runProcess(tool: string, args: readonly string[], timeoutMs = 20_000): CliRun {
  const run = spawnSync(process.execPath, [built(`src/cli/${tool}.ts`), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: timeoutMs,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}
