// Converts between PGN and ChessLive! move files.
//   npm run chesslive -- --from-pgn game.pgn [--game N]
//   npm run chesslive -- --to-pgn game.clv [--variant chess960 --fen FEN] [--growing]
// A move file names neither its variant nor its start position, hence --variant and --fen.
// Bad input: one line on stderr, exit status 1 (2 for a bad command line).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { makeChessLive, parseChessLive } from '../chesslive/index.js';
import { makePgn, parsePgn } from '../game/pgn.js';
import type { FileVariant } from '../game/variants.js';
import { err, ok, type Result } from '../result.js';
import { runIfEntry, type CliOutput } from './entry.js';

const VARIANTS: readonly FileVariant[] = ['chess', 'chess960', 'crazyhouse', 'bughouse'];

const USAGE =
  'usage: chesslive --from-pgn FILE [--game N] | --to-pgn FILE [--variant chess|chess960|crazyhouse|bughouse] [--fen FEN] [--growing]';

class UsageError extends Error {}

function run(argv: string[]): Result<string> {
  const { values } = parseArgs({
    args: argv,
    options: {
      'from-pgn': { type: 'string' },
      'to-pgn': { type: 'string' },
      game: { type: 'string' },
      variant: { type: 'string' },
      fen: { type: 'string' },
      growing: { type: 'boolean' },
    },
    strict: true,
  });
  const fromPgnPath = values['from-pgn'];
  const toPgnPath = values['to-pgn'];
  if ((fromPgnPath === undefined) === (toPgnPath === undefined)) throw new UsageError(USAGE);

  if (fromPgnPath !== undefined) {
    const text = readText(fromPgnPath);
    if (!text.ok) return text;
    const games = parsePgn(text.value);
    if (!games.ok) return err(`${fromPgnPath}: ${games.error}`);
    const index = values.game === undefined ? 1 : Number(values.game);
    if (values.game === undefined && games.value.length > 1) {
      return err(`${fromPgnPath} holds ${games.value.length} games; pick one with --game N`);
    }
    const game = Number.isInteger(index) ? games.value[index - 1] : undefined;
    if (!game) return err(`--game ${values.game}: ${fromPgnPath} holds ${games.value.length} game(s)`);
    return makeChessLive(game);
  }

  const path = toPgnPath!;
  const variant = values.variant ?? 'chess';
  if (!VARIANTS.includes(variant as FileVariant))
    throw new UsageError(`--variant ${variant}: not one of ${VARIANTS.join(', ')}`);
  const text = readText(path);
  if (!text.ok) return text;
  const read = parseChessLive(text.value, {
    variant: variant as FileVariant,
    ...(values.fen !== undefined && { startFen: values.fen }),
    growing: values.growing ?? false,
  });
  if (!read.ok) return err(`${path}: ${read.error.message}`);
  return makePgn(read.value.game);
}

function readText(path: string): Result<string> {
  try {
    return ok(readFileSync(path, 'utf8'));
  } catch (e) {
    return err(`${path}: cannot read (${(e as NodeJS.ErrnoException).code ?? 'unreadable'})`);
  }
}

/** Runs the command line `argv`; returns the exit status. */
export function main(argv: string[], out: CliOutput): number {
  try {
    const output = run(argv);
    if (output.ok) {
      out.stdout.write(output.value.endsWith('\n') ? output.value : `${output.value}\n`);
      return 0;
    }
    out.stderr.write(`chesslive: ${output.error}\n`);
    return 1;
  } catch (e) {
    // parseArgs throws TypeErrors with a code for unknown or malformed options: a usage error too.
    const usage = e instanceof UsageError || (e instanceof TypeError && 'code' in e);
    const message = e instanceof Error ? e.message : String(e);
    out.stderr.write(`chesslive: ${message.split('\n')[0]}\n`);
    return usage ? 2 : 1;
  }
}

runIfEntry(import.meta.url, main);
