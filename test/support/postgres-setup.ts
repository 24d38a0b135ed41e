// vitest global set-up: one PostgreSQL server for the whole run (postgres.ts). A server that
// cannot start is not fatal here: its error is provided instead, and every PostgreSQL test fails
// with it, while the rest of the run goes on.
import type { TestProject } from 'vitest/node';
import { startPostgres, type PostgresServer } from './postgres.js';
import { errorMessage } from '../../src/result.js';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let server: PostgresServer | null = null;
  const started = performance.now();
  try {
    server = await startPostgres();
    project.provide('postgres', { url: server.url, error: null, startMs: performance.now() - started });
  } catch (error) {
    project.provide('postgres', {
      url: null,
      error: errorMessage(error),
      startMs: performance.now() - started,
    });
  }
  return async () => {
    await server?.stop();
  };
}
