// npm run render -- (--fen FEN | --style12 LINE) --out board.png [options]
//                  --pgn game.pgn --gif game.gif [--out final.png] [options]
// Board images from the command line. Bad input: one line on stderr; exit status 2 for bad
// arguments, 1 for input that cannot be read or drawn.
import { readFileSync, writeFileSync } from 'node:fs';
import type { parseArgs } from 'node:util';
import {
  isThemeName,
  MAX_SIZE,
  MIN_SIZE,
  renderGif,
  renderPng,
  renderText,
  THEME_NAMES,
  type BoardScene,
  type RenderResult,
} from '../../render/index.js';
import { chessLiveGameScenes } from '../chesslive/scenes.js';
import { checkLastMove } from '../game/last-move.js';
import { parsePgn } from '../game/pgn.js';
import { fenScene, style12Scene } from '../game/scene-input.js';
import type { Color } from '../protocol/events.js';
import { parseCommandLine, runIfEntry, usageError, type CliOutput, type Tool } from './entry.js';

const TOOL: Tool = {
  name: 'render',
  usage: `usage: npm run render -- (--fen FEN | --style12 LINE) --out board.png
       npm run render -- --pgn game.pgn --gif game.gif [--out final.png]
options: --flip --last UCI (the move that led to the position) --white NAME --black NAME
         --white-clock MS --black-clock MS --size ${MIN_SIZE}..${MAX_SIZE} --theme ${THEME_NAMES.join('|')}
         --text (print the text board) --help
`,
};

/** 2: the arguments are wrong; 1: a file or position cannot be read or drawn. */
class CliError extends Error {
  constructor(
    message: string,
    readonly status: 1 | 2,
  ) {
    super(message);
  }
}

const OPTIONS = {
  fen: { type: 'string' },
  style12: { type: 'string' },
  pgn: { type: 'string' },
  out: { type: 'string' },
  gif: { type: 'string' },
  text: { type: 'boolean' },
  flip: { type: 'boolean' },
  last: { type: 'string' },
  white: { type: 'string' },
  black: { type: 'string' },
  'white-clock': { type: 'string' },
  'black-clock': { type: 'string' },
  size: { type: 'string' },
  theme: { type: 'string' },
} as const;

type Options = ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>['values'];

function integer(name: string, value: string, min: number, max: number): number {
  const n = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!(n >= min && n <= max)) {
    throw new CliError(`--${name} must be a whole number from ${min} to ${max}, got "${value}"`, 2);
  }
  return n;
}

/** The position given by --fen or --style12, with the player and move options applied. */
function positionScene(opts: Options): BoardScene {
  const scene = unwrap(opts.style12 !== undefined ? style12Scene(opts.style12) : fenScene(opts.fen ?? ''));
  if (opts.last !== undefined) {
    const fits = checkLastMove(scene.fen, opts.last);
    if (!fits.ok) throw new CliError(fits.error, 2);
  }
  const clock = (color: Color) => {
    const value = opts[`${color}-clock`];
    return value === undefined ? {} : { clockMs: integer(`${color}-clock`, value, 0, 100 * 3_600_000) };
  };
  return {
    ...scene,
    ...(opts.flip ? { orientation: 'black' as const } : {}),
    ...(opts.last !== undefined ? { lastMove: opts.last } : {}),
    white: { ...scene.white, ...(opts.white !== undefined ? { name: opts.white } : {}), ...clock('white') },
    black: { ...scene.black, ...(opts.black !== undefined ? { name: opts.black } : {}), ...clock('black') },
  };
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, 1);
  }
}

function write(file: string, bytes: Buffer): void {
  try {
    writeFileSync(file, bytes);
  } catch (error) {
    throw new CliError(`cannot write ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, 1);
  }
}

function unwrap<T>(result: RenderResult<T>): T {
  if (!result.ok) throw new CliError(result.error, 1);
  return result.value;
}

function run(opts: Options, out: CliOutput): void {
  if (opts.theme !== undefined && !isThemeName(opts.theme)) {
    throw new CliError(`unknown theme "${opts.theme}" (themes: ${THEME_NAMES.join(', ')})`, 2);
  }
  const look = {
    ...(opts.theme !== undefined && isThemeName(opts.theme) ? { theme: opts.theme } : {}),
    ...(opts.size !== undefined ? { size: integer('size', opts.size, MIN_SIZE, MAX_SIZE) } : {}),
  };
  if ([opts.fen, opts.style12, opts.pgn].filter((s) => s !== undefined).length !== 1) {
    throw new CliError('give exactly one of --fen, --style12 or --pgn', 2);
  }
  if (opts.out === undefined && opts.gif === undefined && !opts.text) {
    throw new CliError('nothing to write: give --out FILE (or --gif FILE with --pgn, or --text)', 2);
  }
  if (opts.gif !== undefined && opts.pgn === undefined) throw new CliError('--gif needs --pgn', 2);

  let scene: BoardScene;
  if (opts.pgn !== undefined) {
    const games = parsePgn(readText(opts.pgn));
    if (!games.ok) throw new CliError(`${opts.pgn}: ${games.error}`, 1);
    const scenes = unwrap(
      chessLiveGameScenes(games.value[0]!, { ...look, orientation: opts.flip ? 'black' : 'white' }),
    );
    if (opts.gif !== undefined) write(opts.gif, unwrap(renderGif(scenes)));
    scene = scenes.at(-1)!;
  } else {
    scene = { ...positionScene(opts), ...look };
  }
  if (opts.out !== undefined) write(opts.out, unwrap(renderPng(scene)));
  if (opts.text) out.stdout.write(unwrap(renderText(scene)) + '\n');
}

/** Runs the command line `argv`; returns the exit status. */
export function main(argv: string[], out: CliOutput): number {
  if (argv.length === 0) return usageError(TOOL, 'nothing to draw', out);
  const parsed = parseCommandLine(TOOL, { options: OPTIONS }, argv, out);
  if (typeof parsed === 'number') return parsed;
  try {
    run(parsed.values, out);
    return 0;
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    out.stderr.write(`render: ${error.message}\n`);
    return error.status;
  }
}

runIfEntry(import.meta.url, main);
