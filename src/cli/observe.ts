// npm run observe -- [--host H] [--port P] [--retry] <game-number|handle> ...
// Logs in to FICS (FICS_USER/FICS_PASSWORD if set, else as a guest), observes each game (a
// handle means that player's current game) and prints one JSON line per game event: the game
// object `npm run decode` prints, with `event` = start | move | end. Stops when every game has
// ended, or on Ctrl-C. Bad arguments: one line on stderr, exit status 2; a failed login or a
// server that cannot be reached: 1 (with --retry it keeps trying, saying so on stderr).
import { pino } from 'pino';
import { FicsCapacityError, FicsCommandError, FicsInputError, FicsLoginError } from '../fics/errors.js';
import { MAX_FICS_CONNECTIONS } from '../config.js';
import { FicsPool, FICS_DEFAULTS } from '../fics/pool.js';
import { parseGameNumber, parseHandle } from '../fics/validate.js';
import type { GameNumber } from '../protocol/game-number.js';
import type { Handle } from '../protocol/handle.js';
import type { GameSnapshot } from '../game/snapshot.js';
import type { TrackerUpdate } from '../game/tracker.js';
import { createLogger } from '../log.js';
import { parseCommandLine, type Tool } from './entry.js';
import { gameJson } from './game-json.js';
import { errorMessage } from '../result.js';

const USAGE = 'usage: npm run observe -- [--host HOST] [--port PORT] [--retry] <game-number|handle> ...';
const TOOL: Tool = {
  name: 'observe',
  usage: `${USAGE}
Observes live FICS games (a handle: that player's current game) and prints one JSON line per event
(start, move, end) until every game has ended. FICS_USER/FICS_PASSWORD log in, else as a guest.
--retry: keep trying to connect instead of stopping at the first failure.`,
};

function fail(message: string, status: number): never {
  process.stderr.write(`observe: ${message}\n`);
  process.exit(status);
}

type Target = { kind: 'game'; game: GameNumber } | { kind: 'player'; handle: Handle };

function parseTarget(arg: string): Target {
  const game = parseGameNumber(arg);
  if (game.ok) return { kind: 'game', game: game.value };
  const handle = parseHandle(arg);
  if (handle.ok) return { kind: 'player', handle: handle.value };
  fail(
    `${JSON.stringify(arg)} is neither a FICS game number (digits) nor a handle (3 to 17 letters). ${USAGE}`,
    2,
  );
}

const parsed = parseCommandLine(
  TOOL,
  {
    options: { host: { type: 'string' }, port: { type: 'string' }, retry: { type: 'boolean' } },
    allowPositionals: true,
  },
  process.argv.slice(2),
  process,
);
if (typeof parsed === 'number') process.exit(parsed);
const { values, positionals } = parsed;
if (positionals.length === 0) fail(`name at least one game number or handle. ${USAGE}`, 2);
const targets = positionals.map(parseTarget);

const host = values.host ?? (process.env.FICS_HOST || FICS_DEFAULTS.host);
if (host === '' || /\s/.test(host)) fail(`--host ${JSON.stringify(host)} is not a host name`, 2);
const portText = values.port ?? (process.env.FICS_PORT || String(FICS_DEFAULTS.port));
const port = /^\d{1,5}$/.test(portText) ? Number(portText) : NaN;
if (!(port >= 1 && port <= 65535))
  fail(`--port ${JSON.stringify(portText)} is not a port number (1 to 65535)`, 2);
const user = process.env.FICS_USER || null;
const password = process.env.FICS_PASSWORD || null;

const logger = createLogger({
  level: (process.env.LOG_LEVEL as 'warn' | undefined) ?? 'warn',
  secrets: password === null ? [] : [password],
  destination: pino.destination({ fd: 2, sync: true }),
});

const connectionsText = process.env.FICS_MAX_CONNECTIONS || String(FICS_DEFAULTS.maxConnections);
const maxConnections = /^\d{1,2}$/.test(connectionsText) ? Number(connectionsText) : NaN;
if (!(maxConnections >= 1 && maxConnections <= MAX_FICS_CONNECTIONS)) {
  fail(
    `FICS_MAX_CONNECTIONS must be a whole number from 1 to ${MAX_FICS_CONNECTIONS}, got ${JSON.stringify(connectionsText)}`,
    2,
  );
}

function createPool(): FicsPool {
  try {
    // Without --retry one failed connection ends it: a command-line tool says so and stops.
    const startAttempts = values.retry === true ? undefined : 1;
    return new FicsPool({ host, port, user, password, maxConnections, logger, startAttempts });
  } catch (error) {
    fail(errorMessage(error), 2);
  }
}
const pool = createPool();

/** Games still running, by number. */
const running = new Set<number>();
/** Set once every requested game has been observed (or refused). */
let ready = false;
let undecoded = 0;

const EVENTS: Partial<Record<TrackerUpdate['type'], 'start' | 'move' | 'end'>> = {
  started: 'start',
  moved: 'move',
  ended: 'end',
};

/**
 * Games seen while the observes are answered, by key: their `start` waits for the answers (board,
 * holdings, move list), so that it names the variant lasker shows only after the first board.
 */
const early = new Map<string, GameSnapshot>();

function print(event: 'start' | 'move' | 'end', snapshot: GameSnapshot): void {
  process.stdout.write(JSON.stringify({ event, ...gameJson(snapshot, undecoded) }) + '\n');
  if (event === 'end') running.delete(snapshot.game);
}

pool.on('update', (update) => {
  if (update.type === 'undecoded') undecoded++;
  if (update.type === 'needs' || update.type === 'undecoded') return;
  const { snapshot } = update;
  if (!ready && (update.type === 'started' || early.has(snapshot.key))) early.set(snapshot.key, snapshot);
  else {
    print(EVENTS[update.type]!, snapshot);
    if (update.type === 'ended' && ready && running.size === 0) finish(0);
  }
});

/** The games seen while observing, each as it stands now: `start`, and `end` if it is over. */
function startEarly(): void {
  for (const last of early.values()) {
    const now = pool.snapshot(last.game);
    const snapshot = now?.key === last.key ? now : last;
    print('start', snapshot);
    if (snapshot.ended) print('end', snapshot);
  }
  early.clear();
}

function finish(status: number): void {
  pool.close();
  process.exit(status);
}

// The pool's timers do not hold the process: this does, until finish() (a wait between two
// connection attempts would otherwise end it with Node's "unsettled await" status 13).
setInterval(() => undefined, 1 << 30);

/** A failed connection in the words of a tool that does not try again by itself. */
const said = (error: Error): string => error.message.replace(/\s*Kibitz will try again\.$/, '');
if (values.retry === true) {
  pool.on('error', (error) => {
    if (error instanceof FicsLoginError) {
      process.stderr.write(`observe: ${said(error).replace(/\.$/, '')}; trying again\n`);
    }
  });
}

process.once('SIGINT', () => finish(130));
process.once('SIGTERM', () => finish(143));

try {
  await pool.start();
} catch (error) {
  pool.close();
  fail(
    error instanceof FicsLoginError ? said(error) : `cannot log in to ${host}:${port}: ${String(error)}`,
    1,
  );
}

const observed = await Promise.all(
  targets.map(async (target) => {
    try {
      const game =
        target.kind === 'game'
          ? await pool.observeGame(target.game)
          : await pool.observePlayer(target.handle);
      // A game may have ended before this line; `ended` updates remove it again.
      if (pool.snapshot(game)?.ended !== true) running.add(game);
      return game;
    } catch (error) {
      const known =
        error instanceof FicsCommandError ||
        error instanceof FicsInputError ||
        error instanceof FicsCapacityError;
      const name = target.kind === 'game' ? `game ${target.game}` : target.handle;
      process.stderr.write(`observe: ${name}: ${known ? errorMessage(error) : String(error)}\n`);
      return null;
    }
  }),
);
ready = true;
startEarly();
if (observed.every((game) => game === null)) finish(1);
if (running.size === 0) finish(0);
