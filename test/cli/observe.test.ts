// `npm run observe` from outside: a child process against the fake server.
import { spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { fixture, scriptOf, startFake } from '../fics/harness.js';
import { ROOT, built } from '../support/processes.js';
import { waitFor } from '../support/wait.js';

interface Run {
  status: Promise<number | null>;
  stdout: string[];
  stderr: () => string;
  kill(): void;
}

function observe(args: string[], env: Record<string, string> = {}): Run {
  const child = spawn(process.execPath, [built('src/cli/observe.ts'), ...args], {
    cwd: ROOT,
    env: {
      ...process.env,
      FICS_USER: '',
      FICS_PASSWORD: '',
      FICS_HOST: '',
      FICS_PORT: '',
      LOG_LEVEL: 'error',
      ...env,
    },
  });
  const stdout: string[] = [];
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    const lines = out.split('\n');
    out = lines.pop()!;
    stdout.push(...lines);
  });
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  // A stuck child must not outlive the test.
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  const status = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code);
    }),
  );
  return { status, stdout, stderr: () => err, kill: () => child.kill('SIGKILL') };
}

/** A port nobody listens on: taken from the system, then let go. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('npm run observe with no server listening', () => {
  it('says it cannot connect and exits 1', async () => {
    const port = await closedPort();
    const run = observe(['--host', '127.0.0.1', '--port', String(port), '5']);
    expect(await run.status).toBe(1);
    expect(run.stderr()).toMatch(
      new RegExp(`^observe: cannot reach FICS at 127\\.0\\.0\\.1:${port}: .*ECONNREFUSED`, 'm'),
    );
    // Its own last word does not promise another attempt (the log above it may).
    expect(run.stderr().trim().split('\n').at(-1)).not.toMatch(/try again/);
    expect(run.stdout).toEqual([]);
  });

  it('with --retry keeps trying, and says so each time', async () => {
    const port = await closedPort();
    const run = observe(['--retry', '--host', '127.0.0.1', '--port', String(port), '5'], {
      LOG_LEVEL: 'fatal',
    });
    const tries = (): number =>
      run
        .stderr()
        .split('\n')
        .filter((l) => l.endsWith('; trying again')).length;
    await waitFor(() => tries() >= 2, 'two retries', 10_000);
    run.kill();
    expect(await run.status).toBeNull();
  });
});

describe('npm run observe', () => {
  it('prints one JSON line per move and an end line, then exits 0', async () => {
    const fake = await startFake({ dialect: 'fatics' });
    const game = fixture('lasker_flag#0');
    const n = fake.addGame(scriptOf(game));
    fake.playMoves(n, 5);
    const run = observe(['--host', '127.0.0.1', '--port', String(fake.port), String(n)]);
    await fake.waitFor(() => run.stdout.length > 0, 'the first line', 10_000);
    await fake.waitFor(
      () => run.stdout.some((line) => (JSON.parse(line) as { complete: boolean }).complete),
      'the move list',
      10_000,
    );
    fake.playAll(n);
    expect(await run.status).toBe(0);
    const events = run.stdout.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events[0]).toMatchObject({ event: 'start', game: n, white: game.white, black: game.black });
    const last = events[events.length - 1]!;
    expect(last).toMatchObject({
      event: 'end',
      san: game.san,
      result: game.result,
      reason: game.reason,
      complete: true,
    });
    expect(last.fen).toBe(game.fenFinal);
    expect(Object.keys(last)).toEqual(
      expect.arrayContaining(['uci', 'fen', 'whiteClockMs', 'blackClockMs', 'variant', 'result', 'reason']),
    );
    // One line per move after the list came: the moves played while watching.
    expect(events.filter((e) => e.event === 'move' && (e.san as string[]).length > 5)).toHaveLength(
      game.san.length - 5,
    );
  }, 20_000);

  it('the first line of a lasker crazyhouse game names its variant (lasker says it after the board)', async () => {
    const fake = await startFake({ dialect: 'lasker' });
    const game = fixture('lasker_crazyhouse#1');
    const n = fake.addGame(scriptOf(game));
    fake.playMoves(n, 4);
    const run = observe(['--host', '127.0.0.1', '--port', String(fake.port), String(n)]);
    await fake.waitFor(() => run.stdout.length > 0, 'the first line', 10_000);
    run.kill();
    expect(JSON.parse(run.stdout[0]!)).toMatchObject({ event: 'start', game: n, variant: 'crazyhouse' });
  }, 20_000);

  // Three processes that read no server: started at once.
  it.concurrent.each([
    [['foo;bar'], /"foo;bar" is neither a FICS game number \(digits\) nor a handle/],
    [[], /name at least one game number or handle/],
    [['--port', '99999', '12'], /--port "99999" is not a port number/],
  ])(
    'refuses %j with one line and status 2',
    async (args, message) => {
      const run = observe(args);
      expect(await run.status).toBe(2);
      const stderr = run.stderr();
      expect(stderr).toMatch(message);
      expect(stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stdout).toEqual([]);
    },
    20_000,
  );

  it('says why a login failed and exits 1', async () => {
    const fake = await startFake({ dialect: 'lasker', guests: false });
    const run = observe(['--host', '127.0.0.1', '--port', String(fake.port), '5']);
    expect(await run.status).toBe(1);
    expect(run.stderr()).toMatch(/does not accept guest logins.*FICS_USER and FICS_PASSWORD/);
  }, 20_000);
});
