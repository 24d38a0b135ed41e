// Each command-line tool exports `main(argv, out)`, which returns the exit status: tests run the tools
// in-process, and a tool runs itself when it is the program node was started with.
import { pathToFileURL } from 'node:url';

/** Where a tool writes: the process's streams, or a test's buffers. */
export interface CliOutput {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
}

/** Runs `main` on the process's arguments and streams when `moduleUrl` is the started program. */
export function runIfEntry(moduleUrl: string, main: (argv: string[], out: CliOutput) => number): void {
  const entry = process.argv[1];
  if (entry !== undefined && pathToFileURL(entry).href === moduleUrl) {
    process.exitCode = main(process.argv.slice(2), process);
  }
}
