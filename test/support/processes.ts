// How a test starts a program of this repository as its own process: node with the program's
// compiled copy from this run's build (test/support/build-setup.ts, the integration project's
// global set-up), as `npm start` runs the bot compiled; never tsx, whose start costs more.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder of this run's build. */
    build: string;
  }
}

/** The repository's root: the programs' relative paths are read from there. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The build's folders are named so, at the root (ignored by git, eslint and prettier). */
export const BUILD_PREFIX = '.test-build-';

/** What the build transpiles: folders, and single files a test runs. */
export const TRANSPILED = ['src', 'commands', 'render', 'test/load/bot-process.ts'];

/** The compiled copy of `source` (a .ts path from the repository's root), for `node <it>`. */
export function built(source: string): string {
  if (!TRANSPILED.some((path) => source === path || source.startsWith(`${path}/`)))
    throw new Error(`${source} is not in the test build (test/support/processes.ts, TRANSPILED)`);
  return join(inject('build'), source.replace(/\.ts$/, '.js'));
}
