// Entry point: `npm run start:sharded`. Runs the bot as discord.js shards, one process each
// (ShardingManager): every shard is `main.ts` with its own gateway connection, FICS connections and
// relay, and owns the live posts of its guilds (src/shard.ts). KIBITZ_SHARDS sets how many shards
// (default: as many as Discord recommends); KIBITZ_SHARD_LIST, which of them this machine runs
// (the others run on other machines of the fleet). The database is shared: it is migrated here
// once, before any shard opens it, as two shards migrating one file at the same moment would collide.
import { fileURLToPath } from 'node:url';
import { Routes, ShardingManager } from 'discord.js';
import type { Config } from './config.js';
import { createRest } from './discord/client.js';
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
const gateway = await gatewayBot(config);
if (gateway === null && sharding.total === 'auto') {
  process.stderr.write(
    'Kibitz could not start: Discord did not say how many shards to run (GET /gateway/bot)\n',
  );
  process.exit(1);
}
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
    // Built, each shard gets this process's node options (npm start's --max-semi-space-size).
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
 * many shards may identify at once (session_start_limit.max_concurrency); null when Discord did not
 * answer, as the shards would then say why (a refused token ends them with EXIT_FATAL).
 */
async function gatewayBot(config: Config): Promise<{ shards: number; maxConcurrency: number } | null> {
  let answer: { shards?: unknown; session_start_limit?: { max_concurrency?: unknown } };
  try {
    answer = (await createRest(config.discord).get(Routes.gatewayBot())) as typeof answer;
  } catch (error) {
    logger.warn({ err: error }, 'GET /gateway/bot failed: starting one shard per 5 s');
    return null;
  }
  const positive = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 1;
  const concurrency = answer.session_start_limit?.max_concurrency;
  return {
    shards: positive(answer.shards) ? answer.shards : 1,
    maxConcurrency: positive(concurrency) ? concurrency : 1,
  };
}
