// `npm start` builds dist/ only when it is missing or older than the sources (scripts/start.js).
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { staleness } from '../../scripts/start.js';

let root: string;

/** Writes a file with its time set to `at` seconds. */
function file(path: string, at: number): void {
  const full = join(root, path);
  mkdirSync(join(full, '..'), { recursive: true });
  writeFileSync(full, '');
  utimesSync(full, at, at);
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'kibitz-start-'));
  file('src/main.ts', 1_000);
  file('commands/observe.ts', 1_000);
  file('tsconfig.json', 1_000);
  for (const folder of ['.', 'src', 'commands']) utimesSync(join(root, folder), 1_000, 1_000);
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('staleness', () => {
  it('asks for a build when the entry is missing', () => {
    expect(staleness(root, 'src/main.js')).toBe('dist/src/main.js is missing');
  });

  it('runs a build newer than every source as it is', () => {
    file('dist/src/main.js', 2_000);
    expect(staleness(root, 'src/main.js')).toBeNull();
  });

  it('builds again when a source, a folder (a file removed) or the compiler settings changed after the build', () => {
    file('dist/src/main.js', 2_000);
    file('commands/observe.ts', 3_000);
    expect(staleness(root, 'src/main.js')).toBe('commands/observe.ts changed after the last build');

    utimesSync(join(root, 'commands/observe.ts'), 1_000, 1_000);
    utimesSync(join(root, 'commands'), 1_000, 1_000);
    rmSync(join(root, 'src/main.ts'));
    // Removing a file changes its folder's time, now.
    expect(staleness(root, 'src/main.js')).toBe('src changed after the last build');

    file('src/main.ts', 1_000);
    utimesSync(join(root, 'src'), 1_000, 1_000);
    expect(staleness(root, 'src/main.js')).toBeNull();
    utimesSync(join(root, 'tsconfig.json'), 4_000, 4_000);
    expect(staleness(root, 'src/main.js')).toBe('tsconfig.json changed after the last build');
  });
});
