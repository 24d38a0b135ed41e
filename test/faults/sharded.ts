// The sharding manager (`npm run start:sharded`) as its own process against a world's fakes, for
// the fault tests of shards (fatal, waves, respawn).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { World } from '../e2e/harness.js';
import { built } from '../support/processes.js';

/**
 * The sharding manager (compiled) against the world's fakes, `shards` shards, with a database in a
 * folder of its own that goes when the manager ends; killed with SIGKILL after 150 s.
 */
export function startSharded(world: World, shards: number): ChildProcess {
  const dir = mkdtempSync(join(tmpdir(), 'kibitz-sharded-'));
  const child = spawn(process.execPath, [built('src/sharded.ts')], {
    env: {
      PATH: process.env.PATH ?? '',
      DISCORD_TOKEN: world.fake.token,
      DISCORD_API_BASE: world.fake.apiBase,
      KIBITZ_DB: join(dir, 'kibitz.db'),
      KIBITZ_SHARDS: String(shards),
      FICS_HOST: '127.0.0.1',
      FICS_PORT: String(world.fics.port),
      LOG_LEVEL: 'warn',
    },
    stdio: 'ignore',
  });
  // A bound, not a speed check: the manager and its shards (started under tsx then) took more than
  // 60 s with the suite run twice at once on two cores.
  const killer = setTimeout(() => child.kill('SIGKILL'), 150_000);
  child.once('exit', () => {
    clearTimeout(killer);
    rmSync(dir, { recursive: true, force: true });
  });
  return child;
}

/** Every IDENTIFY the fake received, those it refused included. */
export const identifies = (world: World) =>
  world.fake.gatewayLog.filter((e) => e.direction === 'in' && e.op === 2);

/** Sessions let in: an IDENTIFY the fake refused (Invalid Session) has no READY. */
export const readies = (world: World) =>
  world.fake.gatewayLog.filter((e) => e.direction === 'out' && e.t === 'READY');
