// npm run decode -- <file>: one JSON line per game in a raw observer transcript.
import { readFileSync } from 'node:fs';
import { decodeTranscript } from '../game/transcript.js';
import { parseCommandLine, runIfEntry, usageError, type CliOutput, type Tool } from './entry.js';
import { gameJson } from './game-json.js';

const TOOL: Tool = {
  name: 'decode',
  usage: `usage: npm run decode -- <transcript file>
Decodes a raw FICS observer transcript: one JSON line per game on stdout, undecoded lines on stderr.`,
};

/** Runs the command line `argv`; returns the exit status. */
export function main(argv: string[], out: CliOutput): number {
  const parsed = parseCommandLine(TOOL, { options: {}, allowPositionals: true }, argv, out);
  if (typeof parsed === 'number') return parsed;
  const [file, ...extra] = parsed.positionals;
  if (file === undefined || extra.length > 0) return usageError(TOOL, 'name exactly one file', out);
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    out.stderr.write(
      `decode: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}\n`,
    );
    return 1;
  }
  const { games, undecoded } = decodeTranscript(bytes);
  for (const line of undecoded) {
    out.stderr.write(`decode: undecoded ${line.lineKind} line (${line.reason}): ${line.line}\n`);
  }
  for (const game of games) out.stdout.write(JSON.stringify(gameJson(game, undecoded.length)) + '\n');
  return 0;
}

runIfEntry(import.meta.url, main);
