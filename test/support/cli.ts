// The command-line tools, run in-process through their `main` (fast), or as a user runs them.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { CliOutput } from '../../src/cli/entry.js';

export interface CliRun {
  /** The exit status (null when a real process was killed). */
  status: number | null;
  stdout: string;
  stderr: string;
}

/** The repository's root: the tools' relative paths are read from there. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

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

/** Runs `src/cli/<tool>.ts` as a separate node process from the repository's root, as npm does. */
export function runProcess(tool: string, args: readonly string[], timeoutMs = 20_000): CliRun {
  const run = spawnSync(process.execPath, ['--import', 'tsx', `src/cli/${tool}.ts`, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: timeoutMs,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}
