// `npm start` and `npm run start:sharded`: run the compiled bot from dist/, building it first when
// dist/ lacks the entry or is older than the sources. Plain JavaScript, as it runs before anything
// is built. The bot runs compiled rather than under tsx because the TypeScript loader costs memory
// in the bot and in each render thread (README, "Production start"); `npm run dev` keeps tsx.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import process from 'node:process';
import { URL, fileURLToPath, pathToFileURL } from 'node:url';

/** What the build reads: a change to any of these (or a file added or removed) means rebuild. */
export const SOURCES = ['src', 'commands', 'render', 'tsconfig.json', 'tsconfig.build.json'];

/**
 * Why dist/ must be built before `entry` (a path under dist/, e.g. src/main.js) can run, or null
 * when it is current. A folder's time counts too: removing or renaming a file changes it.
 */
export function staleness(root, entry) {
  const built = join(root, 'dist', entry);
  if (!existsSync(built)) return `dist/${entry} is missing`;
  const builtAt = statSync(built).mtimeMs;
  const newer = newestSource(root, SOURCES);
  if (newer !== null && newer.mtimeMs > builtAt) return `${newer.path} changed after the last build`;
  return null;
}

function newestSource(root, paths) {
  let newest = null;
  const visit = (path) => {
    const full = join(root, path);
    if (!existsSync(full)) return;
    const stat = statSync(full);
    if (newest === null || stat.mtimeMs > newest.mtimeMs) newest = { path, mtimeMs: stat.mtimeMs };
    if (stat.isDirectory()) for (const name of readdirSync(full)) visit(join(path, name));
  };
  for (const path of paths) visit(path);
  return newest;
}

/** Builds dist/ from scratch (no file of a removed source left behind); false when it failed. */
function build(root) {
  let tsc;
  try {
    tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
  } catch {
    process.stderr.write(
      'Kibitz has to be built first, and TypeScript is not installed: run `npm install` (it installs the development dependencies, TypeScript among them), or `npm run build` where it is.\n',
    );
    return false;
  }
  rmSync(join(root, 'dist'), { recursive: true, force: true });
  // --noEmitOnError: a failed build leaves no dist/, so the next start builds again.
  const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--noEmitOnError'], {
    cwd: root,
    stdio: 'inherit',
  });
  return result.status === 0;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const entry = process.argv[2] ?? 'src/main.js';
  const reason = staleness(root, entry);
  if (reason !== null) {
    process.stderr.write(`Building Kibitz (${reason})...\n`);
    if (!build(root)) {
      process.stderr.write('The build failed: Kibitz does not start.\n');
      process.exit(1);
    }
  }
  await import(pathToFileURL(join(root, 'dist', entry)).href);
}
