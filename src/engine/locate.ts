// Which engine program KIBITZ_ENGINE=on runs. A native UCI engine comes first (Debian's `stockfish`
// package searches some 100 times more positions a second than the JavaScript build); the npm
// `stockfish` package is used only where the operator installed it and no native engine is found.
import { accessSync, constants, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, delimiter, dirname, join } from 'node:path';
import { err, ok, type Result } from '../result.js';

/** How to start one engine process. */
export interface EngineProgram {
  command: string;
  args: readonly string[];
  /** `native`: an executable speaking UCI; `npm`: the npm package's WebAssembly build under Node. */
  kind: 'native' | 'npm';
}

/** Where Debian and Ubuntu's `stockfish` package puts the engine (not on a service's PATH). */
export const DEBIAN_STOCKFISH = '/usr/games/stockfish';

/** The one build of the npm package Kibitz loads: lite (small network), single-threaded. */
export const NPM_STOCKFISH_BUILD = 'bin/stockfish-19-lite-single.js';

export interface EngineSearch {
  /** KIBITZ_ENGINE_PATH: when set, this program and nothing else. */
  path: string | null;
  /** The PATH variable's directories, searched for `stockfish`. */
  searchPath: string;
  /** Where module resolution for the npm package starts; tests point it elsewhere. */
  from?: string;
}

/** The program, or why there is none in words for the log. */
export type EngineFound = Result<EngineProgram>;

/** The engine to run, or why there is none, in words for the log. */
export function locateEngine(search: EngineSearch): EngineFound {
  if (search.path !== null) {
    return isExecutable(search.path)
      ? ok({ command: search.path, args: [], kind: 'native' })
      : err(`KIBITZ_ENGINE_PATH=${search.path} is not an executable file`);
  }
  const native = [
    ...search.searchPath
      .split(delimiter)
      // npm puts node_modules/.bin on the PATH of `npm start`: the npm package's `stockfish` there
      // is its JavaScript command line, not a native engine.
      .filter((dir) => dir !== '' && basename(dir) !== '.bin')
      .map((dir) => join(dir, 'stockfish')),
    DEBIAN_STOCKFISH,
  ].find(isExecutable);
  if (native !== undefined) return ok({ command: native, args: [], kind: 'native' });
  const script = locateNpmStockfish(search.from);
  if (script !== null) return ok({ command: process.execPath, args: [script], kind: 'npm' });
  return err(
    `no stockfish on PATH nor at ${DEBIAN_STOCKFISH} (apt install stockfish, or set KIBITZ_ENGINE_PATH)`,
  );
}

/** The npm package's engine script, or null when the package is not installed. */
export function locateNpmStockfish(from: string = import.meta.url): string | null {
  let manifest: string;
  try {
    manifest = createRequire(from).resolve('stockfish/package.json');
  } catch {
    return null;
  }
  const script = join(dirname(manifest), NPM_STOCKFISH_BUILD);
  return isFile(script) && isFile(script.replace(/\.js$/, '.wasm')) ? script : null;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function isExecutable(path: string): boolean {
  if (!isFile(path)) return false;
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
