// Relay latency: from the fake FICS server writing a move's board line to the fake Discord
// applying the edit (PATCH) it causes, through the whole real bot: FICS socket, decoder, game
// state, relay, PNG render, discord.js REST, multipart upload. No rate limit applies: the fake's
// limits are set out of reach, and the bot's own pacing (a channel's 5 edits in 5.25 s, 40 a
// second) runs on a clock moved past its window before each move. Each move waits for the previous
// edit's answer, so that each one gets its own edit.
import { performance } from 'node:perf_hooks';
import { World, shuffleScript } from '../e2e/harness.js';
import { ManualClock } from '../support/manual-clock.js';

const MOVES = 200;
const WARM_UP = 10;
const UNLIMITED = { limit: 1_000_000, windowMs: 1_000 };
/** discord.js keeps to Discord's global 50 requests per second by itself: stay under it. */
const MOVE_SPACING_MS = 25;
/** Longer than any window of the bot's edit pacing (src/discord/live-port.ts). */
const PACING_WINDOW_MS = 60_000;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** `moves` measured after the warm-up (the bench: 200; its test: a few). */
export async function benchRelayLatency(moves = MOVES): Promise<Record<string, number>> {
  const world = await World.start({
    discord: { rateLimits: { messageEdit: UNLIMITED, messageCreate: UNLIMITED, default: UNLIMITED } },
  });
  try {
    const game = world.fics.addGame(shuffleScript(WARM_UP + moves + 2));
    const editClock = new ManualClock();
    await world.startBot({ logLevel: 'warn', editClock });
    const reply = await world.command('observe', { game }).reply();
    const post = world.livePosts()[0];
    if (post === undefined) throw new Error(`no live post: ${reply.content}`);

    // Resolves at the fake's state change that adds the message's next revision.
    const nextEdit = (revisions: number): Promise<number> =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          world.fake.off('change', check);
          reject(new Error('no edit within 5 s'));
        }, 5_000);
        const check = (): void => {
          if (world.fake.message(post.id)!.revisions.length <= revisions) return;
          const at = performance.now();
          clearTimeout(timer);
          world.fake.off('change', check);
          resolve(at);
        };
        world.fake.on('change', check);
      });

    const latencies: number[] = [];
    for (let move = 0; move < WARM_UP + moves; move++) {
      await new Promise((resolve) => setTimeout(resolve, MOVE_SPACING_MS));
      await editClock.advance(PACING_WINDOW_MS);
      const edited = nextEdit(world.fake.message(post.id)!.revisions.length);
      const sent = performance.now();
      world.fics.playMove(game);
      const at = await edited;
      if (move >= WARM_UP) latencies.push(at - sent);
      // The edit's answer back in the bot, so that the next move is not merged with this one.
      await world.relayIdle();
    }
    latencies.sort((a, b) => a - b);
    return {
      relay_edit_latency_ms_p50: percentile(latencies, 50),
      relay_edit_latency_ms_p99: percentile(latencies, 99),
    };
  } finally {
    await world.close();
  }
}
