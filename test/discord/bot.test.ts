// The real bot code against the fake Discord: startBot as main.ts uses it, main.ts itself and the
// deploy-commands CLI as separate processes.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MISSING_TOKEN_HELP, loadConfig } from '../../src/config.js';
import { startBot } from '../../src/app.js';
import { createLogger } from '../../src/log.js';
import { BROKEN_COMMANDS, startFake, startTestBot } from './harness.js';
import { built } from '../support/processes.js';
import type { Harness } from './harness.js';

let h: Harness;
let stops: (() => Promise<void>)[];
let dir: string;

beforeEach(async () => {
  h = await startFake();
  stops = [];
  dir = mkdtempSync(join(tmpdir(), 'kibitz-bot-'));
});

afterEach(async () => {
  for (const stop of stops) await stop();
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('startBot', () => {
  it('logs in, registers the commands in DISCORD_GUILD_ID, and answers /help ephemerally', async () => {
    const { bot, logLines } = await startTestBot(h);
    stops.push(bot.stop);
    expect(h.fake.commands(h.guild.id).map((c) => c.name)).toContain('help');
    expect(h.fake.commands()).toEqual([]);

    const reply = await h.fake.command(h.guild.id, h.channel.id, 'help').reply();
    expect(reply.callbackType).toBe(4);
    expect(reply.ephemeral).toBe(true);
    expect(reply.embeds[0]?.title).toBe('Kibitz commands');
    expect(reply.embeds[0]?.fields?.map((f) => f.name)).toContain('/help');

    // Trace level carries discord.js's own debug lines; none may contain the token.
    const logs = logLines.join('');
    expect(logLines.length).toBeGreaterThan(10);
    expect(logs).toContain('connected to Discord');
    expect(logs).toContain('slash commands registered in guild');
    expect(logs).not.toContain(h.fake.token);
    // The token did reach Discord: the fake checked it on every authenticated request.
    expect(h.fake.requests.every((r) => r.status !== 401)).toBe(true);
  });

  it('registers globally without DISCORD_GUILD_ID', async () => {
    const { bot } = await startTestBot(h, { env: { DISCORD_GUILD_ID: undefined } });
    stops.push(bot.stop);
    expect(h.fake.commands().map((c) => c.name)).toContain('help');
    expect(h.fake.requestsTo('PUT', '/applications/:application_id/commands')).toHaveLength(1);
  });

  it('stops cleanly, twice', async () => {
    const { bot } = await startTestBot(h);
    await bot.stop();
    await bot.stop();
    expect(bot.client.isReady()).toBe(false);
    expect(h.fake.connected).toBe(false);
  });

  it('returns an error value for a token Discord rejects, and for broken commands', async () => {
    const lines: string[] = [];
    const logger = createLogger({
      level: 'silent',
      destination: { write: (l: string) => void lines.push(l) },
    });
    const base = { DISCORD_API_BASE: h.fake.apiBase, KIBITZ_DB: ':memory:' };
    const wrong = loadConfig({ ...base, DISCORD_TOKEN: 'wrong.token.value' });
    if (!wrong.ok) throw new Error('config');
    const rejected = await startBot(wrong.value, { logger });
    expect(rejected).toEqual({
      ok: false,
      error: { message: expect.stringMatching(/Discord rejected DISCORD_TOKEN.*Reset Token/), fatal: true },
    });

    const right = loadConfig({ ...base, DISCORD_TOKEN: h.fake.token });
    if (!right.ok) throw new Error('config');
    const broken = await startBot(right.value, { logger, commandsDir: BROKEN_COMMANDS });
    expect(broken.ok || broken.error.message).toMatch(/commands failed to load:[\s\S]*no-data\.ts/);
    expect(h.fake.connected).toBe(false);
  });
});

interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs an entry point (compiled, one process: the bot's own) in `dir`, with exactly `env` (plus
 * PATH/HOME).
 */
function run(
  script: string,
  env: Record<string, string>,
  options: { timeoutMs?: number; onStdout?: (text: string, stop: () => void) => void } = {},
): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [built(script)], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? dir, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    // A bound on a process, not a speed check: with the suite run twice at once on two cores
    // (load 14) a start under tsx took more than 15 s.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} did not finish in time.\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, options.timeoutMs ?? 45_000);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      options.onStdout?.(stdout, () => child.kill('SIGTERM'));
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('main.ts', () => {
  it('exits non-zero with the how-to-get-a-token paragraph when DISCORD_TOKEN is missing', async () => {
    const result = await run('src/main.ts', { KIBITZ_DB: join(dir, 'k.db') });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(MISSING_TOKEN_HELP);
    expect(existsSync(join(dir, 'k.db'))).toBe(false);
  });

  it('starts against the fake, prints the invite link once, serves /help, and exits 0 on SIGTERM without logging the token or an error', async () => {
    let helped: Promise<unknown> | null = null;
    const result = await run(
      'src/main.ts',
      {
        DISCORD_TOKEN: h.fake.token,
        DISCORD_API_BASE: h.fake.apiBase,
        DISCORD_GUILD_ID: h.guild.id,
        KIBITZ_DB: join(dir, 'data', 'kibitz.db'),
        // Port 8080 may be anyone's on a shared machine.
        KIBITZ_WEB_PORT: 'off',
        LOG_LEVEL: 'trace',
      },
      {
        onStdout: (text, stop) => {
          if (helped !== null || !text.includes('slash commands registered')) return;
          helped = h.fake
            .command(h.guild.id, h.channel.id, 'help')
            .reply()
            .then((reply) => {
              stop();
              return reply;
            });
        },
      },
    );
    expect(result.code).toBe(0);
    expect(await helped).toMatchObject({ ephemeral: true });
    expect(result.stdout).toContain('shutting down');
    expect(result.stdout).not.toContain(h.fake.token);
    expect(
      result.stderr.match(
        /Invite it to a Discord server with:\n {2}https:\/\/discord\.com\/oauth2\/authorize\?client_id=\d+&scope=bot\+applications\.commands&permissions=\d+\n/g,
      ),
    ).toHaveLength(1);
    // A clean stop is no error, whatever FICS was doing (here: unreachable, still trying).
    const errors = result.stdout.split('\n').filter((line) => /"level":(50|60)/.test(line));
    expect(errors).toEqual([]);
    expect(existsSync(join(dir, 'data', 'kibitz.db'))).toBe(true);
  });
});

describe('deploy-commands CLI', () => {
  it('registers the commands in DISCORD_GUILD_ID through DISCORD_API_BASE', async () => {
    const env = { DISCORD_TOKEN: h.fake.token, DISCORD_API_BASE: h.fake.apiBase };
    const guild = await run('src/cli/deploy-commands.ts', { ...env, DISCORD_GUILD_ID: h.guild.id });
    expect(guild.stderr).toBe('');
    expect(guild.code).toBe(0);
    expect(guild.stdout).toMatch(new RegExp(`^Registered \\d+ commands in guild ${h.guild.id}: .*/help`));
    expect(h.fake.commands(h.guild.id).map((c) => c.name)).toContain('help');

    const global = await run('src/cli/deploy-commands.ts', env);
    expect(global.code).toBe(0);
    expect(global.stdout).toMatch(/commands globally/);
    expect(h.fake.commands().map((c) => c.name)).toContain('help');
  });

  it('fails with a clear message for a rejected token', async () => {
    const result = await run('src/cli/deploy-commands.ts', {
      DISCORD_TOKEN: 'wrong',
      DISCORD_API_BASE: h.fake.apiBase,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/Discord rejected DISCORD_TOKEN \(401\)/);
  });
});
