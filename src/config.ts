// Typed configuration read from the environment. Parsing never throws: every problem becomes a
// message naming the variable, so the operator sees all of them at once.
import { DEFAULT_READ, parseChessLiveSources, type ChessLiveSource } from './chesslive/source.js';
import { DEFAULT_MAX_PLIES } from './game/snapshot.js';
import { MAX_LIST_PLIES } from './protocol/movelist.js';
import { isPostgresUrl } from './storage/sql.js';
import { LOG_LEVELS, type LogLevel } from './log.js';
import { err, ok, type Result } from './result.js';
import { truncate } from './text.js';

export interface DiscordConfig {
  token: string;
  /** Register slash commands in this guild only (instant, for development); global when null. */
  guildId: string | null;
  /** REST base URL (`http://host:port/api`) for a fake Discord; the real API when null. */
  apiBase: string | null;
}

export interface FicsConfig {
  host: string;
  port: number;
  /** Registered handle; null logs in as a guest. */
  user: string | null;
  password: string | null;
  maxConnections: number;
}

export interface ChessLiveConfig {
  /** KIBITZ_CHESSLIVE_SOURCES: the move files `/relay chesslive` may relay, by name. */
  sources: ChessLiveSource[];
  /** KIBITZ_CHESSLIVE_POLL_MS: time between two reads of a relayed source. */
  pollMs: number;
  /** KIBITZ_CHESSLIVE_MAX_BYTES: a larger source is refused, or no longer relayed once it grows past it. */
  maxBytes: number;
}

export interface WebConfig {
  /** KIBITZ_WEB_HOST: the address the live web page listens on. */
  host: string;
  /** KIBITZ_WEB_PORT: null when `off` (no web server); 0 takes any free port. */
  port: number | null;
  /** KIBITZ_PUBLIC_URL: where users reach the page; live posts link to it when set. */
  publicUrl: string | null;
  /** KIBITZ_WEB_MAX_VIEWERS: open live pages at once, all games together. */
  maxViewers: number;
  /** KIBITZ_WEB_MAX_VIEWERS_PER_GAME: open live pages of one game. */
  maxViewersPerGame: number;
  /** KIBITZ_WEB_MAX_STREAMS_PER_ADDRESS: open live pages from one client address. */
  maxStreamsPerAddress: number;
  /** KIBITZ_WEB_TRUST_PROXY: the reverse proxy's address, whose X-Forwarded-For names the client. */
  trustProxy: string | null;
  /** KIBITZ_WEB_PUBLIC_SOURCES: ChessLive! sources listed on the front page (FICS games always are). */
  publicSources: string[];
}

export interface EngineConfig {
  /** KIBITZ_ENGINE=on: posts may show Stockfish's evaluation (each post turns it on). */
  enabled: boolean;
  /** KIBITZ_ENGINE_PATH: the UCI engine program to run; null looks for Stockfish (engine/locate.ts). */
  path: string | null;
  /** KIBITZ_ENGINE_THREADS: engines running at once, one single-threaded process each. */
  threads: number;
  /** KIBITZ_ENGINE_MOVETIME_MS, or KIBITZ_ENGINE_DEPTH when set: how long one position is analysed. */
  limit: { movetimeMs: number } | { depth: number };
}

export interface Config {
  discord: DiscordConfig;
  /** SQLite file path, or `:memory:`. */
  dbPath: string;
  logLevel: LogLevel;
  fics: FicsConfig;
  /** Default cap on live games per guild; a guild's own setting overrides it. */
  maxLivePerGuild: number;
  /** KIBITZ_MAX_PLIES: a game longer than this (FICS or ChessLive!) ends as not supported. */
  maxPlies: number;
  chesslive: ChessLiveConfig;
  web: WebConfig;
  engine: EngineConfig;
  sharding: ShardingConfig;
  /** Several machines on one PostgreSQL (src/fleet); null: this machine alone. */
  fleet: FleetConfig | null;
}

export interface ShardingConfig {
  /** KIBITZ_SHARDS: shards of the whole bot, over every machine; 'auto' asks Discord. */
  total: number | 'auto';
  /** KIBITZ_SHARD_LIST: the shard ids this machine runs; null runs them all. */
  list: number[] | null;
}

export interface FleetConfig {
  /** KIBITZ_FLEET_DB: the PostgreSQL every machine of the fleet shares (postgres:// URL). */
  url: string;
  /** KIBITZ_FLEET_LEASE_MS: a machine that stops renewing loses its games after this. */
  leaseMs: number;
}

/** Every problem found, each naming its variable and value. */
export type ConfigResult = Result<Config, string[]>;

export type Env = Readonly<Record<string, string | undefined>>;

export const DEFAULTS = {
  dbPath: './data/kibitz.db',
  logLevel: 'info',
  ficsHost: 'freechess.org',
  ficsPort: 5000,
  ficsMaxConnections: 2,
  maxLivePerGuild: 10,
  chessLivePollMs: 2_000,
  chessLiveMaxBytes: DEFAULT_READ.maxBytes,
  maxPlies: DEFAULT_MAX_PLIES,
  webHost: '127.0.0.1',
  webPort: 8080,
  webMaxViewers: 2_000,
  webMaxViewersPerGame: 500,
  webMaxStreamsPerAddress: 20,
  engineThreads: 1,
  engineMovetimeMs: 500,
  fleetLeaseMs: 15_000,
} as const;

/**
 * FICS connections one process may open: 40 x 30 = 1,200 games, room for 1,000 (34 connections)
 * and the gaps while games change hands. Fair shares follow from it (src/fics/shares.ts).
 */
export const MAX_FICS_CONNECTIONS = 40;

/** Discord gives at most this many shards to a bot; a larger count is a typo. */
export const MAX_SHARDS = 1024;

export const MISSING_TOKEN_HELP =
  'DISCORD_TOKEN is not set. Kibitz needs a Discord bot token: open the Discord developer portal ' +
  '(https://discord.com/developers/applications), create or pick your application, open the Bot tab ' +
  'and press Reset Token, then start Kibitz with DISCORD_TOKEN=<the token> in the environment (or in a ' +
  '.env file). To add the bot to a server, use OAuth2 > URL Generator with the "bot" and ' +
  '"applications.commands" scopes and open the generated invite link. Keep the token secret.';

const SNOWFLAKE = /^\d{17,20}$/;

/** Reads and validates the environment; returns every problem found, not just the first. */
export function loadConfig(env: Env): ConfigResult {
  const errors: string[] = [];
  const read = (name: string): string | null => {
    const value = env[name]?.trim();
    return value ? value : null;
  };

  const token = read('DISCORD_TOKEN');
  if (token === null) errors.push(MISSING_TOKEN_HELP);
  else if (/\s/.test(token)) errors.push('DISCORD_TOKEN contains whitespace: paste the token alone.');

  const guildId = read('DISCORD_GUILD_ID');
  if (guildId !== null && !SNOWFLAKE.test(guildId)) {
    errors.push(
      `DISCORD_GUILD_ID must be a server id (17 to 20 digits; Developer Mode > right-click the server > Copy Server ID), got "${guildId}".`,
    );
  }

  const apiBase = read('DISCORD_API_BASE');
  if (apiBase !== null && !isHttpUrl(apiBase)) {
    errors.push(
      `DISCORD_API_BASE must be an http(s) URL such as http://127.0.0.1:8080/api, got "${apiBase}".`,
    );
  }

  const logLevelText = (read('LOG_LEVEL') ?? DEFAULTS.logLevel).toLowerCase();
  const logLevel = LOG_LEVELS.find((level) => level === logLevelText);
  if (logLevel === undefined) {
    errors.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevelText}".`);
  }

  const integer = (name: string, fallback: number, min: number, max: number): number => {
    const text = read(name);
    if (text === null) return fallback;
    const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
    if (!Number.isSafeInteger(value) || value < min || value > max) {
      errors.push(`${name} must be a whole number from ${min} to ${max}, got "${text}".`);
      return fallback;
    }
    return value;
  };

  const ficsPort = integer('FICS_PORT', DEFAULTS.ficsPort, 1, 65535);
  const maxConnections = integer(
    'FICS_MAX_CONNECTIONS',
    DEFAULTS.ficsMaxConnections,
    1,
    MAX_FICS_CONNECTIONS,
  );
  const maxLivePerGuild = integer('KIBITZ_MAX_LIVE_PER_GUILD', DEFAULTS.maxLivePerGuild, 1, 100);
  const chessLivePollMs = integer('KIBITZ_CHESSLIVE_POLL_MS', DEFAULTS.chessLivePollMs, 100, 600_000);
  const chessLiveMaxBytes = integer(
    'KIBITZ_CHESSLIVE_MAX_BYTES',
    DEFAULTS.chessLiveMaxBytes,
    1_024,
    64 << 20,
  );
  const maxPlies = integer('KIBITZ_MAX_PLIES', DEFAULTS.maxPlies, 100, MAX_LIST_PLIES);
  const chessLiveSources = parseChessLiveSources(read('KIBITZ_CHESSLIVE_SOURCES') ?? '');
  if (!chessLiveSources.ok) {
    errors.push(
      `KIBITZ_CHESSLIVE_SOURCES must list name=path-or-url entries separated by commas (e.g. round1=/srv/live/round1.txt,board2=https://example.org/board2.txt): ${chessLiveSources.error}.`,
    );
  }

  const webHost = read('KIBITZ_WEB_HOST') ?? DEFAULTS.webHost;
  if (/[\s/]/.test(webHost)) errors.push(`KIBITZ_WEB_HOST must be a host name or address, got "${webHost}".`);
  const webPortText = read('KIBITZ_WEB_PORT');
  const webPort =
    webPortText?.toLowerCase() === 'off' ? null : integer('KIBITZ_WEB_PORT', DEFAULTS.webPort, 0, 65535);
  const publicUrl = read('KIBITZ_PUBLIC_URL')?.replace(/\/+$/, '') ?? null;
  if (publicUrl !== null && !isHttpUrl(publicUrl)) {
    errors.push(
      `KIBITZ_PUBLIC_URL must be the http(s) address users reach the web page at, such as https://kibitz.example.org, got "${publicUrl}".`,
    );
  }
  const maxViewers = integer('KIBITZ_WEB_MAX_VIEWERS', DEFAULTS.webMaxViewers, 1, 100_000);
  const maxViewersPerGame = integer(
    'KIBITZ_WEB_MAX_VIEWERS_PER_GAME',
    DEFAULTS.webMaxViewersPerGame,
    1,
    100_000,
  );
  const maxStreamsPerAddress = integer(
    'KIBITZ_WEB_MAX_STREAMS_PER_ADDRESS',
    DEFAULTS.webMaxStreamsPerAddress,
    1,
    100_000,
  );
  const trustProxy = read('KIBITZ_WEB_TRUST_PROXY') ?? null;
  const publicSources = (read('KIBITZ_WEB_PUBLIC_SOURCES') ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (chessLiveSources.ok) {
    const known = new Set(chessLiveSources.value.map((source) => source.name));
    const unknown = publicSources.filter((name) => !known.has(name));
    if (unknown.length > 0)
      errors.push(
        `KIBITZ_WEB_PUBLIC_SOURCES must name sources of KIBITZ_CHESSLIVE_SOURCES, got ${unknown.map((n) => `"${n}"`).join(', ')}.`,
      );
  }
  const engineSwitch = (read('KIBITZ_ENGINE') ?? 'off').toLowerCase();
  if (engineSwitch !== 'on' && engineSwitch !== 'off')
    errors.push(`KIBITZ_ENGINE must be on or off, got "${engineSwitch}".`);
  const engineThreads = integer('KIBITZ_ENGINE_THREADS', DEFAULTS.engineThreads, 1, 16);
  const engineMovetimeMs = integer('KIBITZ_ENGINE_MOVETIME_MS', DEFAULTS.engineMovetimeMs, 50, 10_000);
  const engineDepth = read('KIBITZ_ENGINE_DEPTH') === null ? null : integer('KIBITZ_ENGINE_DEPTH', 0, 1, 30);
  const enginePath = read('KIBITZ_ENGINE_PATH');

  const ficsHost = read('FICS_HOST') ?? DEFAULTS.ficsHost;
  if (/\s/.test(ficsHost)) errors.push(`FICS_HOST must be a host name, got "${ficsHost}".`);

  const ficsUser = read('FICS_USER');
  const ficsPassword = read('FICS_PASSWORD');
  // FICS handles: 3 to 17 letters (guests get one assigned; we never choose it).
  if (ficsUser !== null && !/^[A-Za-z]{3,17}$/.test(ficsUser)) {
    errors.push(`FICS_USER must be a FICS handle (3 to 17 letters), got "${ficsUser}".`);
  }
  if (ficsUser !== null && ficsPassword === null) {
    errors.push('FICS_USER is set but FICS_PASSWORD is not: a registered handle needs its password.');
  }
  if (ficsUser === null && ficsPassword !== null) {
    errors.push('FICS_PASSWORD is set but FICS_USER is not: set both, or neither to log in as a guest.');
  }

  const sharding = parseSharding(read('KIBITZ_SHARDS'), read('KIBITZ_SHARD_LIST'), errors);
  // Every machine of a fleet shares one PostgreSQL: KIBITZ_DB's unless KIBITZ_FLEET_DB names another.
  const dbPath = read('KIBITZ_DB') ?? DEFAULTS.dbPath;
  const fleetUrl = read('KIBITZ_FLEET_DB') ?? (isPostgresUrl(dbPath) ? dbPath : null);
  if (fleetUrl !== null && !isPostgresUrl(fleetUrl)) {
    errors.push(
      `KIBITZ_FLEET_DB must be a PostgreSQL URL such as postgres://kibitz:secret@db.example.org:5432/kibitz, got "${redactUrl(fleetUrl)}".`,
    );
  }
  const fleetLeaseMs = integer('KIBITZ_FLEET_LEASE_MS', DEFAULTS.fleetLeaseMs, 3_000, 600_000);

  if (errors.length > 0 || token === null || logLevel === undefined || !chessLiveSources.ok)
    return err(errors);
  return ok({
    discord: { token, guildId, apiBase },
    dbPath,
    logLevel,
    fics: { host: ficsHost, port: ficsPort, user: ficsUser, password: ficsPassword, maxConnections },
    maxLivePerGuild,
    maxPlies,
    chesslive: { sources: chessLiveSources.value, pollMs: chessLivePollMs, maxBytes: chessLiveMaxBytes },
    web: {
      host: webHost,
      port: webPort,
      publicUrl,
      maxViewers,
      maxViewersPerGame,
      maxStreamsPerAddress,
      trustProxy,
      publicSources,
    },
    engine: {
      enabled: engineSwitch === 'on',
      path: enginePath,
      threads: engineThreads,
      limit: engineDepth === null ? { movetimeMs: engineMovetimeMs } : { depth: engineDepth },
    },
    sharding,
    fleet: fleetUrl === null ? null : { url: fleetUrl, leaseMs: fleetLeaseMs },
  });
}

/**
 * KIBITZ_SHARDS (the whole bot's shard count, or 'auto') and KIBITZ_SHARD_LIST (this machine's
 * shard ids: `0-7`, `0,2,5`, `0-3,8`). A list needs a count: each machine must agree on it.
 */
export function parseSharding(total: string | null, list: string | null, errors: string[]): ShardingConfig {
  const value = total ?? 'auto';
  let count: number | 'auto' = 'auto';
  if (value !== 'auto') {
    const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
    if (Number.isSafeInteger(n) && n >= 1 && n <= MAX_SHARDS) count = n;
    else
      errors.push(`KIBITZ_SHARDS must be "auto" or a whole number from 1 to ${MAX_SHARDS}, got "${value}".`);
  }
  if (list === null) return { total: count, list: null };
  if (count === 'auto') {
    if (value === 'auto')
      errors.push(
        'KIBITZ_SHARD_LIST is set but KIBITZ_SHARDS is not: every machine must use the same shard count, so set KIBITZ_SHARDS to it.',
      );
    return { total: count, list: null };
  }
  const ids = parseShardList(list, count);
  if (!ids.ok) {
    errors.push(
      `KIBITZ_SHARD_LIST must list shard ids from 0 to ${count - 1} (KIBITZ_SHARDS is ${count}) as ranges and numbers separated by commas, e.g. 0-7 or 0,2,5: ${ids.error}.`,
    );
    return { total: count, list: null };
  }
  return { total: count, list: ids.value };
}

/** `0-3,8` -> [0, 1, 2, 3, 8], each id below `count`, none twice, sorted. */
export function parseShardList(text: string, count: number): Result<number[]> {
  if (text.length > 4_000) return err('the list is too long');
  const ids = new Set<number>();
  for (const part of text.split(',')) {
    const item = part.trim();
    const range = /^(\d{1,4})(?:\s*-\s*(\d{1,4}))?$/.exec(item);
    if (range === null) return err(`"${truncate(item, 20)}" is not an id or a range`);
    const first = Number(range[1]);
    const last = range[2] === undefined ? first : Number(range[2]);
    if (last < first) return err(`the range "${item}" runs backwards`);
    if (last >= count) return err(`shard ${last} does not exist`);
    for (let id = first; id <= last; id++) {
      if (ids.has(id)) return err(`shard ${id} is listed twice`);
      ids.add(id);
    }
  }
  return ok([...ids].sort((a, b) => a - b));
}

/** A URL as an error message may show it: without its password. */
function redactUrl(text: string): string {
  return truncate(text.replace(/(\/\/[^:/@]*:)[^@]*@/, '$1***@'), 200);
}

/** One block of text for stderr: each problem on its own paragraph. */
export function formatConfigErrors(errors: readonly string[]): string {
  return `Kibitz cannot start: the configuration has ${errors.length === 1 ? 'a problem' : `${errors.length} problems`}.\n\n${errors.join('\n\n')}\n`;
}

/** The secrets a log line must never contain. */
export function configSecrets(config: Config): string[] {
  const secrets = [
    config.discord.token,
    config.fics.password,
    urlPassword(config.dbPath),
    config.fleet === null ? null : urlPassword(config.fleet.url),
  ].filter((s): s is string => s !== null && s !== '');
  return [...new Set(secrets)];
}

/** The password in a postgres:// URL (KIBITZ_DB, KIBITZ_FLEET_DB), if any. */
function urlPassword(where: string): string | null {
  if (!isPostgresUrl(where)) return null;
  try {
    return decodeURIComponent(new URL(where).password) || null;
  } catch {
    return null;
  }
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
