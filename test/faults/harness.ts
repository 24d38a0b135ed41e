// Fault runs at test scale: a LoadWorld of a few channels and short games, the real bot started in
// this process (startBot, as main.ts does) or as a child process that can be killed, and helpers
// that wait, bounded, for the world to play out.
import type { PoolOptions } from '../../src/fics/pool.js';
import { LoadWorld, type AuditTotals, type LoadWorldOptions } from '../load/world.js';
import { startLoggedBot, type LoggedBot } from '../support/logged-bot.js';
import { ManualClock } from '../support/manual-clock.js';
import { sharedRenderPools } from '../support/render-pools.js';
import { waitFor } from '../support/wait.js';

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

export type InProcessBot = LoggedBot;

export function startInProcessBot(
  world: LoadWorld,
  dbPath = ':memory:',
  env: Record<string, string> = {},
  editClock?: ManualClock,
): Promise<InProcessBot> {
  return startLoggedBot(world.botEnv(dbPath, env), {
    fics: QUICK_FICS,
    ficsWaitMs: 5_000,
    renderPools: sharedRenderPools(),
    ...(editClock === undefined ? {} : { editClock }),
  });
}

/** A bot whose edit clock the test moves (startOnEditClock); stop the clock after the bot. */
export interface ClockedBot extends InProcessBot {
  clock: ManualClock;
  stopClock(): void;
}

/**
 * The bot started as startInProcessBot does, its edits paced and retried on a ManualClock
 * (startBot's `editClock`): the back-off after a 5xx or a cut connection (1 s, 2 s, 4 s, ...,
 * src/discord/live-port.ts), a 429's wait and the governor's pauses. Whenever no edit is in flight
 * and something waits on the clock, it moves on to that timer: the waits keep their order and
 * what happened before the clock moved happened first, but a fault run does not sit out seconds
 * of back-off in real time. What these runs check is that nothing is lost, not how long a wait
 * lasts (test/relay/latest-wins.test.ts, test/discord/post-retry.test.ts).
 */
export async function startOnEditClock(
  world: LoadWorld,
  env: Record<string, string> = {},
): Promise<ClockedBot> {
  const clock = new ManualClock();
  // The bot waits before an edit's retry on this clock: the fake measures those waits by it, added
  // to its own (the waits of posts and replies pass in real time).
  world.discord.retryClock = () => world.discord.now() + clock.now();
  const started = await startInProcessBot(world, ':memory:', env, clock);
  const { relay } = started.bot.context;
  let moving = false;
  const timer = setInterval(() => {
    const next = clock.nextIn;
    if (moving || next === undefined || relay.scheduleFigures().inFlight > 0) return;
    moving = true;
    void clock.advance(next).finally(() => (moving = false));
  }, 5).unref();
  return { ...started, clock, stopClock: () => clearInterval(timer) };
}

/** Every channel's game has ended (the world starts no new ones). */
export function allEnded(world: LoadWorld): boolean {
  return world.slots.every((s) => s.game === null);
}

/**
 * Waits until the pacer has played `plies` more plies, or has none left to play: games going on,
 * counted rather than timed, so that a fault lands mid-game however slow the machine is.
 */
export async function pliesLater(world: LoadWorld, plies: number): Promise<void> {
  const target = world.pacedPlies + plies;
  const noneLeft = (): boolean =>
    world.slots.every((s) => s.game === null || s.game.played.length >= s.game.script.san.length);
  await waitFor(() => world.pacedPlies >= target || noneLeft(), `${plies} more plies`);
}

/** Waits for every finished game's final edit, then audits them all. */
export function auditAll(world: LoadWorld, timeoutMs = 10_000): Promise<AuditTotals> {
  return world.auditAll(timeoutMs, 50);
}

/** What a run must end with: every game posted once, with its final position and whole PGN. */
export const NOTHING_LOST = { finalMissing: 0, pgnMissing: 0, duplicates: 0, unposted: 0 } as const;
