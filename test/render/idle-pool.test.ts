// A render pool started ahead (warm) and never used must not keep its process alive: the bot's
// own stop closes its pools, but a program that only warms one (the tests' shared pools, the
// bench) once hung on it for good.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { built } from '../support/processes.js';

describe('an idle render pool', () => {
  it('lets its process end', async () => {
    const pool = pathToFileURL(built('render/worker-pool.ts')).href;
    // A program file, as the bot and the bench are (a `node -e` script ends before the thread is up).
    const dir = mkdtempSync(join(tmpdir(), 'kibitz-idle-pool-'));
    const program = join(dir, 'warm.mjs');
    writeFileSync(
      program,
      `import { RenderPool } from ${JSON.stringify(pool)};\nnew RenderPool({ workers: 1 }).warm();\n`,
    );
    const child = spawn(process.execPath, [program]);
    // Bounded: a process still there after 20 s is the failure, ended here.
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const [code, signal] = (await once(child, 'exit')) as [number | null, string | null];
    clearTimeout(timer);
    rmSync(dir, { recursive: true, force: true });
    expect({ code, signal }).toEqual({ code: 0, signal: null });
  });
});
