// Vitest global set-up of the integration project: the bot's TypeScript (src/, commands/, render/
// and the load tests' bot process) transpiled once per run, so that a test starts a process with
// plain node instead of tsx (test/support/processes.ts). A tsx start costs about 0.8 s more CPU
// than the same start compiled (docs/testing.md), and every render thread of a bot under tsx loads
// tsx again. Types are not checked here: `tsc --noEmit` does that.
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { TestProject } from 'vitest/node';
import { BUILD_PREFIX, ROOT, TRANSPILED } from './processes.js';

export default async function setup(project: TestProject): Promise<() => void> {
  // At the repository's root, one level down as dist/ is: the built code finds node_modules and
  // src/web/client from there, and two runs in one checkout each have their own.
  const dir = mkdtempSync(join(ROOT, BUILD_PREFIX));
  const entryPoints = TRANSPILED.flatMap((path) =>
    path.endsWith('.ts') ? [path] : typeScriptUnder(path),
  ).map((path) => join(ROOT, path));
  await build({
    entryPoints,
    outdir: dir,
    outbase: ROOT,
    format: 'esm',
    platform: 'node',
    target: `node${process.versions.node}`,
    logLevel: 'warning',
  });
  // src/fics/pool.ts imports it (the version FICS is told).
  copyFileSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
  project.provide('build', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}

/** The .ts files (not .d.ts) under a folder of the repository. */
function typeScriptUnder(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))
    .map((name) => join(folder, name));
}
