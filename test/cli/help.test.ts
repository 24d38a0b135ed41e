// Every command-line tool as a user runs it: `--help` prints its usage on stdout and exits 0
// having done nothing else; an unknown option prints what was wrong and the usage on stderr, exit 2.
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, type CliRun } from '../support/cli.js';
import { built } from '../support/processes.js';

const TOOLS = ['decode', 'observe', 'render', 'chesslive', 'deploy-commands'] as const;

/** Discord's REST API as far as deploy-commands goes: every request counted, every one refused. */
let discord: Server;
let requests = 0;
let env: Record<string, string> = {};

beforeAll(async () => {
  discord = createServer((request, response) => {
    requests++;
    request.resume();
    response.writeHead(401, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ message: '401: Unauthorized', code: 0 }));
  });
  await new Promise<void>((resolve) => discord.listen(0, '127.0.0.1', resolve));
  const { port } = discord.address() as AddressInfo;
  env = {
    DISCORD_TOKEN: 'test-token',
    DISCORD_API_BASE: `http://127.0.0.1:${port}/api`,
    // No real server is ever reached: an observe that ignored --help would fail to connect here.
    FICS_HOST: '127.0.0.1',
    FICS_PORT: '1',
  };
});
afterAll(() => new Promise<void>((resolve) => discord.close(() => resolve())));

/** Runs `src/cli/<tool>.ts` (compiled) as its own node process (several may run at once). */
function run(tool: string, args: readonly string[]): Promise<CliRun> {
  const child = spawn(process.execPath, [built(`src/cli/${tool}.ts`), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // A tool that ignored --help and waited on something must not outlive the test.
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) =>
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    }),
  );
}

describe('every command-line tool', () => {
  it('--help: the usage on stdout, exit 0, nothing else done', async () => {
    const runs = await Promise.all(TOOLS.map((tool) => run(tool, ['--help'])));
    for (const [i, result] of runs.entries()) {
      expect({ tool: TOOLS[i], status: result.status, stderr: result.stderr }).toEqual({
        tool: TOOLS[i],
        status: 0,
        stderr: '',
      });
      expect(result.stdout).toMatch(new RegExp(`^usage: npm run ${TOOLS[i]}\\b`));
    }
    // deploy-commands registered nothing: not one request reached Discord.
    expect(requests).toBe(0);
  }, 120_000);

  it('an unknown option: what was wrong and the usage on stderr, exit 2', async () => {
    const runs = await Promise.all(TOOLS.map((tool) => run(tool, ['--no-such-option', 'x'])));
    for (const [i, result] of runs.entries()) {
      expect({ tool: TOOLS[i], status: result.status, stdout: result.stdout }).toEqual({
        tool: TOOLS[i],
        status: 2,
        stdout: '',
      });
      expect(result.stderr).toMatch(new RegExp(`^${TOOLS[i]}: .*'--no-such-option'`));
      expect(result.stderr).toContain(`usage: npm run ${TOOLS[i]}`);
    }
    expect(requests).toBe(0);
  }, 120_000);

  it('deploy-commands without --help does reach Discord (what the counts above would see)', async () => {
    const result = await run('deploy-commands', []);
    expect(result.status).toBe(1);
    expect(requests).toBeGreaterThan(0);
  }, 120_000);
});
