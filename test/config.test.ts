import { describe, expect, it } from 'vitest';
import {
  DEFAULTS,
  MISSING_TOKEN_HELP,
  configSecrets,
  formatConfigErrors,
  loadConfig,
} from '../src/config.js';

const TOKEN = 'MTIzNDU2Nzg5MDEyMzQ1Njc4.GabcDE.abcdefghijklmnopqrstuvwxyz0123456789AB';

describe('loadConfig', () => {
  it('applies defaults when only the token is set', () => {
    const result = loadConfig({ DISCORD_TOKEN: TOKEN });
    expect(result).toEqual({
      ok: true,
      value: {
        discord: { token: TOKEN, guildId: null, apiBase: null },
        dbPath: './data/kibitz.db',
        logLevel: 'info',
        fics: {
          host: 'freechess.org',
          port: 5000,
          user: null,
          password: null,
          maxConnections: DEFAULTS.ficsMaxConnections,
        },
        maxLivePerGuild: 10,
        maxPlies: 2_000,
        chesslive: { sources: [], pollMs: DEFAULTS.chessLivePollMs, maxBytes: 1_048_576 },
        web: {
          host: '127.0.0.1',
          port: 8080,
          publicUrl: null,
          maxViewers: 2_000,
          maxViewersPerGame: 500,
          maxStreamsPerAddress: 20,
          trustProxy: null,
          publicSources: [],
        },
        engine: { enabled: false, path: null, threads: 1, limit: { movetimeMs: 500 } },
        sharding: { total: 'auto', list: null },
        fleet: null,
      },
    });
  });

  it('reads every variable', () => {
    const result = loadConfig({
      DISCORD_TOKEN: ` ${TOKEN} `,
      DISCORD_GUILD_ID: '123456789012345678',
      DISCORD_API_BASE: 'http://127.0.0.1:9999/api',
      KIBITZ_DB: ':memory:',
      LOG_LEVEL: 'DEBUG',
      FICS_HOST: 'localhost',
      FICS_PORT: '5001',
      FICS_USER: 'kibitzbot',
      FICS_PASSWORD: 'hunter2',
      FICS_MAX_CONNECTIONS: '3',
      KIBITZ_MAX_LIVE_PER_GUILD: '4',
      KIBITZ_MAX_PLIES: '500',
      KIBITZ_CHESSLIVE_MAX_BYTES: '65536',
      KIBITZ_CHESSLIVE_SOURCES: 'round1=/srv/round1.txt',
      KIBITZ_WEB_HOST: '0.0.0.0',
      KIBITZ_WEB_PORT: '8088',
      KIBITZ_PUBLIC_URL: 'https://kibitz.example.org/',
      KIBITZ_WEB_MAX_VIEWERS: '100',
      KIBITZ_WEB_MAX_VIEWERS_PER_GAME: '10',
      KIBITZ_WEB_MAX_STREAMS_PER_ADDRESS: '5',
      KIBITZ_WEB_TRUST_PROXY: '127.0.0.1',
      KIBITZ_WEB_PUBLIC_SOURCES: 'round1',
      KIBITZ_ENGINE: 'ON',
      KIBITZ_ENGINE_THREADS: '2',
      KIBITZ_ENGINE_MOVETIME_MS: '250',
      KIBITZ_ENGINE_PATH: '/opt/engines/stockfish',
      KIBITZ_SHARDS: '16',
      KIBITZ_SHARD_LIST: '0-3, 8,10',
      KIBITZ_FLEET_DB: 'postgres://kibitz:pw@db.example.org:5432/kibitz',
      KIBITZ_FLEET_LEASE_MS: '20000',
    });
    expect(result).toEqual({
      ok: true,
      value: {
        discord: { token: TOKEN, guildId: '123456789012345678', apiBase: 'http://127.0.0.1:9999/api' },
        dbPath: ':memory:',
        logLevel: 'debug',
        fics: { host: 'localhost', port: 5001, user: 'kibitzbot', password: 'hunter2', maxConnections: 3 },
        maxLivePerGuild: 4,
        maxPlies: 500,
        chesslive: {
          sources: [{ name: 'round1', kind: 'file', location: '/srv/round1.txt' }],
          pollMs: DEFAULTS.chessLivePollMs,
          maxBytes: 65_536,
        },
        web: {
          host: '0.0.0.0',
          port: 8088,
          publicUrl: 'https://kibitz.example.org',
          maxViewers: 100,
          maxViewersPerGame: 10,
          maxStreamsPerAddress: 5,
          trustProxy: '127.0.0.1',
          publicSources: ['round1'],
        },
        engine: { enabled: true, path: '/opt/engines/stockfish', threads: 2, limit: { movetimeMs: 250 } },
        sharding: { total: 16, list: [0, 1, 2, 3, 8, 10] },
        fleet: { url: 'postgres://kibitz:pw@db.example.org:5432/kibitz', leaseMs: 20_000 },
      },
    });
    if (result.ok) expect(configSecrets(result.value)).toEqual([TOKEN, 'hunter2', 'pw']);
  });

  it('turns the web page off, and refuses bad web settings', () => {
    const off = loadConfig({ DISCORD_TOKEN: TOKEN, KIBITZ_WEB_PORT: 'off' });
    expect(off.ok && off.value.web.port).toBeNull();
    const bad = loadConfig({
      DISCORD_TOKEN: TOKEN,
      KIBITZ_WEB_PORT: '80000',
      KIBITZ_PUBLIC_URL: 'kibitz.example.org',
      KIBITZ_WEB_MAX_VIEWERS: '0',
      KIBITZ_WEB_PUBLIC_SOURCES: 'nowhere',
    });
    expect(bad).toEqual({
      ok: false,
      error: [
        'KIBITZ_WEB_PORT must be a whole number from 0 to 65535, got "80000".',
        'KIBITZ_PUBLIC_URL must be the http(s) address users reach the web page at, such as https://kibitz.example.org, got "kibitz.example.org".',
        'KIBITZ_WEB_MAX_VIEWERS must be a whole number from 1 to 100000, got "0".',
        'KIBITZ_WEB_PUBLIC_SOURCES must name sources of KIBITZ_CHESSLIVE_SOURCES, got "nowhere".',
      ],
    });
  });

  it('takes a postgres:// URL for KIBITZ_DB and keeps its password out of the log', () => {
    const db = 'postgres://kibitz:s%40cret@db.example:5432/kibitz';
    const result = loadConfig({ DISCORD_TOKEN: TOKEN, KIBITZ_DB: db });
    expect(result.ok && result.value.dbPath).toBe(db);
    if (result.ok) expect(configSecrets(result.value)).toEqual([TOKEN, 's@cret']);
  });

  it('explains how to get a token when DISCORD_TOKEN is missing or blank', () => {
    for (const env of [{}, { DISCORD_TOKEN: '   ' }]) {
      const result = loadConfig(env);
      expect(result).toEqual({ ok: false, error: [MISSING_TOKEN_HELP] });
    }
    for (const words of ['developer portal', 'Bot tab', 'Reset Token', 'applications.commands', '"bot"']) {
      expect(MISSING_TOKEN_HELP).toContain(words);
    }
  });

  it('takes FICS connections for 1,000 games (34 of 30) and refuses more than 40', () => {
    const at = (n: string) => loadConfig({ DISCORD_TOKEN: TOKEN, FICS_MAX_CONNECTIONS: n });
    const thousand = at('34');
    expect(thousand.ok && thousand.value.fics.maxConnections).toBe(34);
    const most = at('40');
    expect(most.ok && most.value.fics.maxConnections).toBe(40);
    const over = at('41');
    expect(over.ok ? [] : over.error).toEqual([
      'FICS_MAX_CONNECTIONS must be a whole number from 1 to 40, got "41".',
    ]);
  });

  it('reports every bad value at once, naming the variable and the value', () => {
    const result = loadConfig({
      DISCORD_TOKEN: 'two words',
      DISCORD_GUILD_ID: 'my-server',
      DISCORD_API_BASE: 'ftp://example',
      LOG_LEVEL: 'loud',
      FICS_PORT: '70000',
      FICS_MAX_CONNECTIONS: '0',
      KIBITZ_MAX_LIVE_PER_GUILD: '2.5',
      FICS_USER: 'no spaces allowed',
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const text = result.error.join('\n');
    expect(result.error).toHaveLength(9);
    for (const fragment of [
      'DISCORD_TOKEN contains whitespace',
      'DISCORD_GUILD_ID must be a server id',
      '"my-server"',
      'DISCORD_API_BASE must be an http(s) URL',
      'LOG_LEVEL must be one of',
      'FICS_PORT must be a whole number from 1 to 65535, got "70000"',
      'FICS_MAX_CONNECTIONS must be a whole number from 1 to 40, got "0"',
      'KIBITZ_MAX_LIVE_PER_GUILD must be a whole number from 1 to 100, got "2.5"',
      'FICS_USER must be a FICS handle',
      'FICS_USER is set but FICS_PASSWORD is not',
    ]) {
      expect(text).toContain(fragment);
    }
  });

  it('takes a fixed depth instead of a fixed time, and refuses bad engine settings', () => {
    const depth = loadConfig({ DISCORD_TOKEN: TOKEN, KIBITZ_ENGINE: 'on', KIBITZ_ENGINE_DEPTH: '12' });
    expect(depth.ok && depth.value.engine).toEqual({
      enabled: true,
      path: null,
      threads: 1,
      limit: { depth: 12 },
    });
    const bad = loadConfig({
      DISCORD_TOKEN: TOKEN,
      KIBITZ_ENGINE: 'yes',
      KIBITZ_ENGINE_THREADS: '0',
      KIBITZ_ENGINE_MOVETIME_MS: '10',
      KIBITZ_ENGINE_DEPTH: '99',
    });
    expect(bad.ok || bad.error).toEqual([
      'KIBITZ_ENGINE must be on or off, got "yes".',
      'KIBITZ_ENGINE_THREADS must be a whole number from 1 to 16, got "0".',
      'KIBITZ_ENGINE_MOVETIME_MS must be a whole number from 50 to 10000, got "10".',
      'KIBITZ_ENGINE_DEPTH must be a whole number from 1 to 30, got "99".',
    ]);
  });

  it('wants FICS_USER and FICS_PASSWORD together', () => {
    const userOnly = loadConfig({ DISCORD_TOKEN: TOKEN, FICS_USER: 'kibitzbot' });
    const passwordOnly = loadConfig({ DISCORD_TOKEN: TOKEN, FICS_PASSWORD: 'x' });
    expect(userOnly.ok || userOnly.error.join()).toMatch(/FICS_PASSWORD is not/);
    expect(passwordOnly.ok || passwordOnly.error.join()).toMatch(/FICS_USER is not/);
  });

  it("reads a machine's shard list against the shard count, with a clear error", () => {
    const shards = (env: Record<string, string>): string[] | object => {
      const result = loadConfig({ DISCORD_TOKEN: TOKEN, ...env });
      return result.ok ? result.value.sharding : result.error;
    };
    expect(shards({ KIBITZ_SHARDS: '8', KIBITZ_SHARD_LIST: '0-7' })).toEqual({
      total: 8,
      list: [0, 1, 2, 3, 4, 5, 6, 7],
    });
    expect(shards({ KIBITZ_SHARDS: '6', KIBITZ_SHARD_LIST: '5,0,2' })).toEqual({ total: 6, list: [0, 2, 5] });
    expect(shards({ KIBITZ_SHARDS: '4' })).toEqual({ total: 4, list: null });
    const refused: [Record<string, string>, string][] = [
      [{ KIBITZ_SHARD_LIST: '0-3' }, 'KIBITZ_SHARD_LIST is set but KIBITZ_SHARDS is not'],
      [{ KIBITZ_SHARDS: '4', KIBITZ_SHARD_LIST: '2-5' }, 'shard 5 does not exist'],
      [{ KIBITZ_SHARDS: '4', KIBITZ_SHARD_LIST: '3-1' }, 'the range "3-1" runs backwards'],
      [{ KIBITZ_SHARDS: '4', KIBITZ_SHARD_LIST: '0,1,1' }, 'shard 1 is listed twice'],
      [{ KIBITZ_SHARDS: '4', KIBITZ_SHARD_LIST: '0;1' }, '"0;1" is not an id or a range'],
      [{ KIBITZ_SHARDS: '4', KIBITZ_SHARD_LIST: ',' }, '"" is not an id or a range'],
      [
        { KIBITZ_SHARDS: 'many' },
        'KIBITZ_SHARDS must be "auto" or a whole number from 1 to 1024, got "many"',
      ],
    ];
    for (const [env, error] of refused) expect(String(shards(env))).toContain(error);
  });

  it('takes a PostgreSQL URL for the fleet, and never shows its password in an error', () => {
    const bad = loadConfig({ DISCORD_TOKEN: TOKEN, KIBITZ_FLEET_DB: 'mysql://kibitz:s3cret@db/kibitz' });
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.error.join()).toContain('KIBITZ_FLEET_DB must be a PostgreSQL URL');
    expect(bad.error.join()).not.toContain('s3cret');
    const short = loadConfig({
      DISCORD_TOKEN: TOKEN,
      KIBITZ_FLEET_DB: 'postgresql://db/kibitz',
      KIBITZ_FLEET_LEASE_MS: '100',
    });
    expect(short.ok || short.error.join()).toContain(
      'KIBITZ_FLEET_LEASE_MS must be a whole number from 3000 to 600000, got "100"',
    );
  });

  it('formats errors as one block', () => {
    expect(formatConfigErrors(['a', 'b'])).toBe(
      'Kibitz cannot start: the configuration has 2 problems.\n\na\n\nb\n',
    );
    expect(formatConfigErrors(['a'])).toMatch(/has a problem/);
  });
});
