// An unusable KIBITZ_DB path fails at once with a message naming it. Run in a child process:
// before the fix, Node's recursive mkdir spun forever under /proc, and a spinning test worker
// cannot be timed out from inside.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const OPEN = `
import { openSqlite } from './src/storage/sqlite.ts';
const opened = openSqlite(process.argv[1], []);
console.log(JSON.stringify(opened.ok ? 'opened' : opened.error));
`;

describe('an unusable database path', () => {
  it('under /proc fails with a clear message instead of spinning', () => {
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', OPEN, '/proc/nope/kibitz.db'],
      { encoding: 'utf8', timeout: 30_000, killSignal: 'SIGKILL' },
    );
    expect(run.signal).toBeNull();
    expect(JSON.parse(run.stdout)).toBe(
      "cannot open the database /proc/nope/kibitz.db: ENOENT: no such file or directory, mkdir '/proc/nope'",
    );
  });
});
