// Entry point: `npm run start:sharded`. Runs the bot as discord.js shards, one process each
// (ShardingManager): every shard is `main.ts` with its own gateway connection, FICS connections and
// relay, and owns the live posts of its guilds (src/shard.ts). KIBITZ_SHARDS sets how many shards
// (default: as many as Discord recommends); KIBITZ_SHARD_LIST, which of them this machine runs
// (the others run on other machines of the fleet). The database is shared: it is migrated here
// once, before any shard opens it, as two shards migrating one file at the same moment would collide.
import { fileURLToPath } from 'node:url';
import { DiscordAPIError, HTTPError, Routes, ShardingManager } from 'discord.js';
import type { Config } from './config.js';
import { TOKEN_REJECTED, type LoginFailure } from './discord/bot.js';
import { createRest } from './discord/client.js';
import { err, errorMessage, ok, type Result } from './result.js';
import { EXIT_FATAL, IDENTIFY_WINDOW_MS, RESPAWN_STABLE_MS, identifyWaves, respawnDelay } from './shard.js';
import { startup } from './startup.js';
import { openStorage } from './storage/index.js';

const { config, logger } = startup();

const migrated = await openStorage(config.dbPath);
if (!migrated.ok) {
  process.stderr.write(`Kibitz could not start: ${migrated.error}\n`);
  process.exit(1);
}
await migrated.value.close();

const { sharding } = config;
const asked = await gatewayBot(config);
if (!asked.ok) {
  const { fatal, message } = asked.error;
  // A refused token stops the manager whatever KIBITZ_SHARDS says: every shard would be refused
  // too. Without Discord's answer KIBITZ_SHARDS=auto has no shard count: the manager stops with 1
  // (a supervisor may start it again); with a count set it starts the shards one per window.
  const stop = fatal
    ? message
    : sharding.total === 'auto'
      ? `Discord did not say how many shards to run (KIBITZ_SHARDS=auto): ${message}. Start again later, or set KIBITZ_SHARDS to a number.`
      : null;
  if (stop !== null) {
    logger.fatal(stop);
    process.stderr.write(`Kibitz could not start: ${stop}\n`);
    process.exit(fatal ? EXIT_FATAL : 1);
  }
  logger.warn(`${message}: starting one shard per 5 s`);
}
const gateway = asked.ok ? asked.value : null;
const total = sharding.total === 'auto' ? (gateway?.shards ?? 1) : sharding.total;
const shardList = sharding.list ?? Array.from({ length: total }, (_, id) => id);
// Run from source (tsx), each shard needs the TypeScript loader; built, it runs main.js.
const typescript = import.meta.url.endsWith('.ts');
const manager = new ShardingManager(
  fileURLToPath(new URL(`./main.${typescript ? 'ts' : 'js'}`, import.meta.url)),
  {
    totalShards: total,
    shardList,
    token: config.discord.token,
    mode: 'process',
    // Respawning is ours (below): discord.js would start a shard again at once, forever, even
    // one whose token Discord refuses.
    respawn: false,
    // Built, each shard gets this process's node options (npm start's V8 settings).
    execArgv: typescript ? ['--import', 'tsx'] : process.execArgv,
  },
);
let stopping = false;
/** Shards stopped for good (fatal exit); when all are, this process ends with EXIT_FATAL. */
const given = new Set<number>();
manager.on('shardCreate', (shard) => {
  logger.info({ shard: shard.id, of: total }, 'shard started');
  let failures = 0;
  let readyAt: number | null = null;
  shard.on('ready', () => (readyAt = Date.now()));
  shard.on('death', (child) => {
    if (stopping) {
      logger.info({ shard: shard.id }, 'shard stopped');
      return;
    }
    if (readyAt !== null && Date.now() - readyAt > RESPAWN_STABLE_MS) failures = 0;
    readyAt = null;
    const exitCode = 'exitCode' in child ? child.exitCode : null;
    const delayMs = respawnDelay(exitCode, failures);
    if (delayMs === null) {
      given.add(shard.id);
      logger.fatal(
        { shard: shard.id, exitCode },
        'shard stopped for a reason no restart mends (see its log): not started again',
      );
      if (given.size === shardList.length) process.exitCode = EXIT_FATAL;
      return;
    }
    failures++;
    logger.warn(
      { shard: shard.id, exitCode, delayMs },
      'shard process ended; starting it again after a pause',
    );
    setTimeout(() => {
      if (!stopping)
        shard
          .spawn()
          .catch((error: unknown) => logger.error({ err: error, shard: shard.id }, 'shard did not start'));
    }, delayMs);
  });
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    logger.info({ signal }, 'stopping every shard');
    stopping = true;
    // Each shard stops cleanly on SIGTERM (main.ts), as a single bot does.
    for (const shard of manager.shards.values()) shard.process?.kill('SIGTERM');
  });
}

// Wave by wave (identifyWaves): the shards of one wave start together, each wave 5.5 s after the
// previous one is up (Discord takes one IDENTIFY per rate-limit key per 5 s). Unlike
// manager.spawn(), a shard that fails to start does not keep the others from starting; its 'death'
// handler above decides whether it starts again.
const maxConcurrency = gateway?.maxConcurrency ?? 1;
let up = 0;
for (const [index, wave] of identifyWaves(shardList, maxConcurrency).entries()) {
  if (stopping) break;
  if (index > 0) await new Promise((resolve) => setTimeout(resolve, IDENTIFY_WINDOW_MS + 500));
  await Promise.all(
    wave.map((id) =>
      manager
        .createShard(id)
        .spawn(120_000)
        .then(
          () => up++,
          (error: unknown) => logger.error({ err: error, shard: id }, 'shard did not start'),
        ),
    ),
  );
}
if (up === shardList.length)
  logger.info({ shards: shardList, of: total, maxConcurrency }, 'every shard of this machine is up');

/**
 * GET /gateway/bot (through DISCORD_API_BASE when set): Discord's recommended shard count, and how
 * many shards may identify at once (session_start_limit.max_concurrency). Asked once: a 5xx, a
 * timeout or a cut is not sent again at once (client.ts), it is the failure (a supervisor starts
 * the manager again later); a 401 is the token refused, `fatal`: starting again as is fails the
 * same way.
 */
async function gatewayBot(
  config: Config,
): Promise<Result<{ shards: number; maxConcurrency: number }, LoginFailure>> {
  let answer: { shards?: unknown; session_start_limit?: { max_concurrency?: unknown } };
  try {
    answer = (await createRest(config.discord).get(Routes.gatewayBot())) as typeof answer;
  } catch (error) {
    if (error instanceof DiscordAPIError && error.status === 401)
      return err({ message: TOKEN_REJECTED, fatal: true });
    return err({ message: `GET /gateway/bot failed (${failure(error)})`, fatal: false });
  }
  const positive = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 1;
  const concurrency = answer.session_start_limit?.max_concurrency;
  return ok({
    shards: positive(answer.shards) ? answer.shards : 1,
    maxConcurrency: positive(concurrency) ? concurrency : 1,
  });
}

/** A failed request in a few words: its HTTP status, or the connection's error and code. */
function failure(error: unknown): string {
  if (error instanceof HTTPError || error instanceof DiscordAPIError)
    return `HTTP ${error.status}: ${error.message}`;
  const message = errorMessage(error);
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && !message.includes(code) ? `${message}, ${code}` : message;
}
