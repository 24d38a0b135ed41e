// The sharding manager (`npm run start:sharded`) as its own process against a world's fakes, for
// the fault tests of shards (fatal, waves, respawn).
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import type { World } from '../e2e/harness.js';
import { built } from '../support/processes.js';

export interface ShardedOptions {
  /** Environment on top of the world's (DISCORD_API_BASE elsewhere, say). */
  env?: Record<string, string>;
  /** Its stdout and stderr piped, for the test to read (ignored otherwise). */
  output?: boolean;
}

/**
 * The sharding manager (compiled) against the world's fakes, `shards` shards (KIBITZ_SHARDS), with
 * a database in a folder of its own that goes when the manager ends; killed with SIGKILL after 150 s.
 */
export function startSharded(
  world: World,
  shards: number | 'auto',
  options: ShardedOptions = {},
): ChildProcess {
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
      ...options.env,
    },
    stdio: options.output === true ? ['ignore', 'pipe', 'pipe'] : 'ignore',
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

/** A manager started with `output`, run to its end: its exit code and what it wrote. */
export async function shardedEnd(
  child: ChildProcess,
): Promise<{ exitCode: number | null; stdout: string; stderr: string }> {
  const read = (stream: Readable | null): Promise<string> =>
    stream === null ? Promise.resolve('') : text(stream);
  const [stdout, stderr, [exitCode]] = await Promise.all([
    read(child.stdout),
    read(child.stderr),
    once(child, 'close') as Promise<[number | null]>,
  ]);
  return { exitCode, stdout, stderr };
}

/** Every IDENTIFY the fake received, those it refused included. */
export const identifies = (world: World) =>
  world.fake.gatewayLog.filter((e) => e.direction === 'in' && e.op === 2);

/** Sessions let in: an IDENTIFY the fake refused (Invalid Session) has no READY. */
export const readies = (world: World) =>
  world.fake.gatewayLog.filter((e) => e.direction === 'out' && e.t === 'READY');

/** Waits until `count` shards have been sent READY. */
export const shardsReady = (world: World, count: number): Promise<true> =>
  world.fake.waitFor(
    () => (readies(world).length >= count ? true : undefined),
    `${count} shards READY`,
    120_000,
  );
