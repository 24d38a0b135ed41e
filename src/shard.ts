// Which shard owns a guild. Discord sends a guild's events to shard (guild_id >> 22) % shard_count,
// and the same rule decides which bot process keeps that guild's live posts and FICS observations:
// after a restart each shard resumes only its own guilds' posts, so no post is edited twice.
import { backoffDelay, type BackoffOptions } from './backoff.js';

/** The shards this process runs (discord.js's client.shard.ids) out of how many in all. */
export interface ShardScope {
  ids: readonly number[];
  count: number;
}

/** The shard that owns a guild; null for an id that is not a snowflake (no shard owns it). */
export function shardOfGuild(guildId: string, shardCount: number): number | null {
  if (!/^\d{1,20}$/.test(guildId) || !Number.isSafeInteger(shardCount) || shardCount < 1) return null;
  return Number((BigInt(guildId) >> 22n) % BigInt(shardCount));
}

/** True when this process owns the guild; without sharding (no scope) it owns every guild. */
export function ownsGuild(scope: ShardScope | null, guildId: string): boolean {
  if (scope === null) return true;
  const shard = shardOfGuild(guildId, scope.count);
  return shard !== null && scope.ids.includes(shard);
}

/**
 * The shards a discord.js client runs, from its options (discord.js fills them from SHARDS and
 * SHARD_COUNT, which the ShardingManager sets); null when it runs every shard there is.
 */
export function shardScope(options: { shards?: unknown; shardCount?: number }): ShardScope | null {
  const { shards, shardCount } = options;
  if (!Array.isArray(shards) || !shards.every((id) => Number.isSafeInteger(id))) return null;
  const count = shardCount ?? shards.length;
  return shards.length >= count ? null : { ids: shards as number[], count };
}

/** This process's share of a bot-wide budget (Discord's 50 requests a second), at least 1. */
export function shareOf(total: number, scope: ShardScope | null): number {
  return scope === null ? total : Math.max(1, Math.floor((total * scope.ids.length) / scope.count));
}

/**
 * Gateway close codes after which connecting again as is fails the same way: 4004 authentication
 * failed (token reset), 4010 invalid shard, 4011 sharding required, 4012 invalid API version,
 * 4013 invalid intents, 4014 disallowed intents. discord.js does not reconnect after them.
 */
export const FATAL_CLOSE_CODES: readonly number[] = [4004, 4010, 4011, 4012, 4013, 4014];

/** Exit status of a bot that stopped for a reason no restart mends (EX_CONFIG). */
export const EXIT_FATAL = 78;

/** Waits before starting a failed shard again: seconds, doubling, up to minutes. */
export const RESPAWN_FIRST_MS = 2_000;
export const RESPAWN_MAX_MS = 5 * 60_000;
const RESPAWN_BACKOFF: BackoffOptions = {
  initialMs: RESPAWN_FIRST_MS,
  maxMs: RESPAWN_MAX_MS,
  factor: 2,
  jitter: 0,
};
/** A shard that ran this long before it ended starts its back-off afresh. */
export const RESPAWN_STABLE_MS = 10 * 60_000;

/**
 * How long to wait before starting again a shard process that ended with `exitCode`, after
 * `failures` ends in a row; null when it must not be started again: it stopped for a reason no
 * restart mends (EXIT_FATAL: the token revoked, intents refused), and every IDENTIFY more counts
 * toward Discord's 1,000 a day, after which it resets the token.
 */
export function respawnDelay(exitCode: number | null, failures: number): number | null {
  if (exitCode === EXIT_FATAL) return null;
  return backoffDelay(RESPAWN_BACKOFF, failures);
}

/** Discord takes one IDENTIFY per rate-limit key (shard id % max_concurrency) per 5 s. */
export const IDENTIFY_WINDOW_MS = 5_000;

/**
 * The order to start `shards` in: waves, each started at once, the next one only after the
 * identify window has passed. Discord lets a bot start `maxConcurrency` sessions together, one per
 * rate-limit key (shard id % max_concurrency), bucket after bucket in order (Discord's
 * "Max Concurrency"): a wave holds at most one shard of each key, in the order given.
 */
export function identifyWaves(shards: readonly number[], maxConcurrency: number): number[][] {
  const concurrency = Number.isSafeInteger(maxConcurrency) && maxConcurrency >= 1 ? maxConcurrency : 1;
  const waves: number[][] = [];
  /** How many shards of each key are already placed: the next one goes in the wave after. */
  const placed = new Map<number, number>();
  for (const id of shards) {
    const key = id % concurrency;
    const wave = placed.get(key) ?? 0;
    placed.set(key, wave + 1);
    (waves[wave] ??= []).push(id);
  }
  return waves;
}
