// Fault runs at test scale: a LoadWorld of a few channels and short games, the real bot started in
// this process (startBot, as main.ts does) or as a child process that can be killed, and helpers
// that wait, bounded, for the world to play out.
import { loadConfig, configSecrets } from '../../src/config.js';
import { startBot, type BotHandle } from '../../src/discord/bot.js';
import type { PoolOptions } from '../../src/fics/pool.js';
import { createLogger } from '../../src/log.js';
import { LoadWorld, sleep, type LoadWorldOptions } from '../load/world.js';

/** FICS timings for tests: the fake answers at once, so retries need not wait long. */
export const QUICK_FICS: Partial<PoolOptions> = {
  loginTimeoutMs: 3_000,
  commandTimeoutMs: 3_000,
  backoff: { initialMs: 20, maxMs: 200, factor: 2, jitter: 0.5 },
};

/**
 * A few channels with short games, joined mid-game, ending only while observed. Moves come 100
 * times faster than in a real game, so Discord's edit limit (5 per 5 s per channel) is raised to
 * match; the Discord fault tests inject their own 429s.
 */
export function smallWorld(options: Partial<LoadWorldOptions> = {}): Promise<LoadWorld> {
  return LoadWorld.start({
    discord: { rateLimits: { messageEdit: { limit: 500, windowMs: 5_000 } } },
    channels: 6,
    channelsPerGuild: 3,
    plyMs: 50,
    maxPlies: 30,
    nextGameAfterMs: null,
    joinMidGame: true,
    holdEndsWhileUnobserved: true,
    ...options,
  });
}

export interface InProcessBot {
  bot: BotHandle;
  /** Warnings and errors the bot logged (JSON lines). */
  logLines: string[];
}

export async function startInProcessBot(
  world: LoadWorld,
  dbPath = ':memory:',
  env: Record<string, string> = {},
): Promise<InProcessBot> {
  const loaded = loadConfig(world.botEnv(dbPath, env));
  if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
  const logLines: string[] = [];
  const logger = createLogger({
    level: loaded.config.logLevel,
    secrets: configSecrets(loaded.config),
    destination: { write: (line: string) => void logLines.push(line) },
  });
  const started = await startBot(loaded.config, { logger, fics: QUICK_FICS, ficsWaitMs: 5_000 });
  if (!started.ok) throw new Error(started.error);
  return { bot: started.bot, logLines };
}

/** Waits until `done` holds, checking every 20 ms; fails after `timeoutMs` saying `what`. */
export async function until(done: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(20);
  }
}

/** Every channel's game has ended (the world starts no new ones). */
export function allEnded(world: LoadWorld): boolean {
  return world.slots.every((s) => s.game === null);
}

/** Waits for every finished game's final edit, then audits them all. */
export async function auditAll(
  world: LoadWorld,
  timeoutMs = 10_000,
): Promise<ReturnType<LoadWorld['auditTotals']>> {
  const deadline = Date.now() + timeoutMs;
  world.audit();
  while (world.unaudited().length > 0 && Date.now() < deadline) {
    await sleep(50);
    world.audit();
  }
  world.audit(true);
  return world.auditTotals();
}

/** What a run must end with: every game posted once, with its final position and whole PGN. */
export const NOTHING_LOST = { finalMissing: 0, pgnMissing: 0, duplicates: 0, unposted: 0 } as const;
