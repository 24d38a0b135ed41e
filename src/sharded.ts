// Entry point: `npm run start:sharded`. Runs the bot as discord.js shards, one process each
// (ShardingManager): every shard is `main.ts` with its own gateway connection, FICS connections and
// relay, and owns the live posts of its guilds (src/shard.ts). KIBITZ_SHARDS sets how many shards
// (default: as many as Discord recommends). The database is shared: it is migrated here once,
// before any shard opens it, as two shards migrating one file at the same moment would collide.
import { fileURLToPath } from 'node:url';
import { Routes, ShardingManager } from 'discord.js';
import type { Config } from './config.js';
import { createRest } from './discord/client.js';
import { startup } from './startup.js';
import { openStorage } from './storage/index.js';

const { config, logger } = startup();

const shards = parseShards(process.env.KIBITZ_SHARDS);
if (!shards.ok) {
  process.stderr.write(`${shards.error}\n`);
  process.exit(1);
}
const migrated = openStorage(config.dbPath);
if (!migrated.ok) {
  process.stderr.write(`Kibitz could not start: ${migrated.error}\n`);
  process.exit(1);
}
migrated.storage.close();

const total = shards.value === 'auto' ? await recommendedShards(config) : shards.value;
// Run from source (tsx), each shard needs the TypeScript loader; built, it runs main.js.
const typescript = import.meta.url.endsWith('.ts');
const manager = new ShardingManager(
  fileURLToPath(new URL(`./main.${typescript ? 'ts' : 'js'}`, import.meta.url)),
  {
    totalShards: total,
    token: config.discord.token,
    mode: 'process',
    respawn: true,
    execArgv: typescript ? ['--import', 'tsx'] : [],
  },
);
manager.on('shardCreate', (shard) => {
  logger.info({ shard: shard.id, of: total }, 'shard started');
  shard.on('death', () => {
    if (manager.respawn) logger.warn({ shard: shard.id }, 'shard process ended; starting it again');
    else logger.info({ shard: shard.id }, 'shard stopped');
  });
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    logger.info({ signal }, 'stopping every shard');
    manager.respawn = false;
    // Each shard stops cleanly on SIGTERM (main.ts), as a single bot does.
    for (const shard of manager.shards.values()) shard.process?.kill('SIGTERM');
  });
}

try {
  await manager.spawn({ amount: total, timeout: 120_000 });
  logger.info({ shards: total }, 'every shard is up');
} catch (error) {
  logger.fatal({ err: error }, 'shards could not start');
  process.exitCode = 1;
}

function parseShards(
  text: string | undefined,
): { ok: true; value: number | 'auto' } | { ok: false; error: string } {
  const value = text?.trim() ?? '';
  if (value === '' || value === 'auto') return { ok: true, value: 'auto' };
  const count = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(count) || count < 1 || count > 1024)
    return {
      ok: false,
      error: `KIBITZ_SHARDS must be "auto" or a whole number from 1 to 1024, got "${value}".`,
    };
  return { ok: true, value: count };
}

/** Discord's recommended shard count (GET /gateway/bot), through DISCORD_API_BASE when set. */
async function recommendedShards(config: Config): Promise<number> {
  const answer = (await createRest(config.discord).get(Routes.gatewayBot())) as { shards?: unknown };
  return typeof answer.shards === 'number' && answer.shards >= 1 ? answer.shards : 1;
}
