// Converts between PGN and ChessLive! move files.
//   npm run chesslive -- --from-pgn game.pgn [--game N]
//   npm run chesslive -- --to-pgn game.clv [--variant chess960 --fen FEN] [--growing]
// A move file names neither its variant nor its start position, hence --variant and --fen.
// Bad input: one line on stderr, exit status 1 (2 for a bad command line).
import { readFileSync } from 'node:fs';
import { makeChessLive, parseChessLive } from '../chesslive/index.js';
import { makePgn, parsePgn } from '../game/pgn.js';
import type { FileVariant } from '../game/variants.js';
import { err, ok, type Result } from '../result.js';
import { parseCommandLine, runIfEntry, usageError, type CliOutput, type Tool } from './entry.js';

const VARIANTS: readonly FileVariant[] = ['chess', 'chess960', 'crazyhouse', 'bughouse'];

const TOOL: Tool = {
  name: 'chesslive',
  usage: `usage: npm run chesslive -- --from-pgn FILE [--game N]
       npm run chesslive -- --to-pgn FILE [--variant ${VARIANTS.join('|')}] [--fen FEN] [--growing]
       npm run chesslive -- --help`,
};

const OPTIONS = {
  'from-pgn': { type: 'string' },
  'to-pgn': { type: 'string' },
  game: { type: 'string' },
  variant: { type: 'string' },
  fen: { type: 'string' },
  growing: { type: 'boolean' },
} as const;

class UsageError extends Error {}

type ParsedOptions = Exclude<
  ReturnType<typeof parseCommandLine<{ options: typeof OPTIONS }>>,
  number
>['values'];

function run(values: ParsedOptions): Result<string> {
  const fromPgnPath = values['from-pgn'];
  const toPgnPath = values['to-pgn'];
  if ((fromPgnPath === undefined) === (toPgnPath === undefined))
    throw new UsageError('give exactly one of --from-pgn or --to-pgn');

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
  const parsed = parseCommandLine(TOOL, { options: OPTIONS }, argv, out);
  if (typeof parsed === 'number') return parsed;
  try {
    const output = run(parsed.values);
    if (output.ok) {
      out.stdout.write(output.value.endsWith('\n') ? output.value : `${output.value}\n`);
      return 0;
    }
    out.stderr.write(`chesslive: ${output.error}\n`);
    return 1;
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    return usageError(TOOL, e.message, out);
  }
}

runIfEntry(import.meta.url, main);
