// Each command-line tool exports `main(argv, out)`, which returns the exit status: tests run the tools
// in-process, and a tool runs itself when it is the program node was started with.
import { pathToFileURL } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { errorMessage } from '../result.js';

/** Where a tool writes: the process's streams, or a test's buffers. */
export interface CliOutput {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
}

/** Exit status of a command line that is wrong (unknown option, missing argument). */
export const USAGE_STATUS = 2;

/** Runs `main` on the process's arguments and streams when `moduleUrl` is the started program. */
export function runIfEntry(
  moduleUrl: string,
  main: (argv: string[], out: CliOutput) => number | Promise<number>,
): void {
  const entry = process.argv[1];
  if (entry !== undefined && pathToFileURL(entry).href === moduleUrl) {
    void Promise.resolve(main(process.argv.slice(2), process)).then((status) => {
      process.exitCode = status;
    });
  }
}

/** A tool's name (the prefix of its messages) and its usage text. */
export interface Tool {
  readonly name: string;
  readonly usage: string;
}

/** `--help` or `-h` among the options (not after `--`, where everything is an argument). */
function asksForHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
}

/**
 * The parsed command line, or the exit status when the tool should stop here: `--help` prints the
 * usage on stdout (0, nothing else done); an unknown or malformed option prints what was wrong and
 * the usage on stderr (2).
 */
export function parseCommandLine<T extends Omit<ParseArgsConfig, 'args' | 'strict'>>(
  tool: Tool,
  config: T,
  argv: string[],
  out: CliOutput,
): ReturnType<typeof parseArgs<T>> | number {
  if (asksForHelp(argv)) {
    out.stdout.write(withNewline(tool.usage));
    return 0;
  }
  try {
    // Strict (the default): an option not in `config` is an error.
    return parseArgs<T>({ ...config, args: argv });
  } catch (error) {
    return usageError(tool, errorMessage(error).split('\n')[0]!, out);
  }
}

/** Says what was wrong with the command line, then the usage; returns the status to exit with. */
export function usageError(tool: Tool, message: string, out: CliOutput): number {
  out.stderr.write(`${tool.name}: ${message}\n${withNewline(tool.usage)}`);
  return USAGE_STATUS;
}

const withNewline = (text: string): string => (text.endsWith('\n') ? text : `${text}\n`);
