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
      config: {
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
    });
    expect(result).toEqual({
      ok: true,
      config: {
        discord: { token: TOKEN, guildId: '123456789012345678', apiBase: 'http://127.0.0.1:9999/api' },
        dbPath: ':memory:',
        logLevel: 'debug',
        fics: { host: 'localhost', port: 5001, user: 'kibitzbot', password: 'hunter2', maxConnections: 3 },
        maxLivePerGuild: 4,
        maxPlies: 500,
        chesslive: { sources: [], pollMs: DEFAULTS.chessLivePollMs, maxBytes: 65_536 },
      },
    });
    if (result.ok) expect(configSecrets(result.config)).toEqual([TOKEN, 'hunter2']);
  });

  it('takes a postgres:// URL for KIBITZ_DB and keeps its password out of the log', () => {
    const db = 'postgres://kibitz:s%40cret@db.example:5432/kibitz';
    const result = loadConfig({ DISCORD_TOKEN: TOKEN, KIBITZ_DB: db });
    expect(result.ok && result.config.dbPath).toBe(db);
    if (result.ok) expect(configSecrets(result.config)).toEqual([TOKEN, 's@cret']);
  });

  it('explains how to get a token when DISCORD_TOKEN is missing or blank', () => {
    for (const env of [{}, { DISCORD_TOKEN: '   ' }]) {
      const result = loadConfig(env);
      expect(result).toEqual({ ok: false, errors: [MISSING_TOKEN_HELP] });
    }
    for (const words of ['developer portal', 'Bot tab', 'Reset Token', 'applications.commands', '"bot"']) {
      expect(MISSING_TOKEN_HELP).toContain(words);
    }
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
    const text = result.errors.join('\n');
    expect(result.errors).toHaveLength(9);
    for (const fragment of [
      'DISCORD_TOKEN contains whitespace',
      'DISCORD_GUILD_ID must be a server id',
      '"my-server"',
      'DISCORD_API_BASE must be an http(s) URL',
      'LOG_LEVEL must be one of',
      'FICS_PORT must be a whole number from 1 to 65535, got "70000"',
      'FICS_MAX_CONNECTIONS must be a whole number from 1 to 20, got "0"',
      'KIBITZ_MAX_LIVE_PER_GUILD must be a whole number from 1 to 100, got "2.5"',
      'FICS_USER must be a FICS handle',
      'FICS_USER is set but FICS_PASSWORD is not',
    ]) {
      expect(text).toContain(fragment);
    }
  });

  it('wants FICS_USER and FICS_PASSWORD together', () => {
    const userOnly = loadConfig({ DISCORD_TOKEN: TOKEN, FICS_USER: 'kibitzbot' });
    const passwordOnly = loadConfig({ DISCORD_TOKEN: TOKEN, FICS_PASSWORD: 'x' });
    expect(userOnly.ok || userOnly.errors.join()).toMatch(/FICS_PASSWORD is not/);
    expect(passwordOnly.ok || passwordOnly.errors.join()).toMatch(/FICS_USER is not/);
  });

  it('formats errors as one block', () => {
    expect(formatConfigErrors(['a', 'b'])).toBe(
      'Kibitz cannot start: the configuration has 2 problems.\n\na\n\nb\n',
    );
    expect(formatConfigErrors(['a'])).toMatch(/has a problem/);
  });
});
