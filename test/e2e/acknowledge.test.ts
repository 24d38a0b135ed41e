// Every interaction is acknowledged within Discord's 3 seconds whatever FICS does: with FICS
// stalled (reading, answering nothing) and the bot's real 30 s command timeout, /unobserve, the
// Stop button and /unfollow are deferred at once and answered when FICS is back; /observe player:
// suggestions come from what the bot knows. The fake refuses any answer after 3 s (10062).
import { InteractionResponseType } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { STOPPED_FOOTER } from '../../src/relay/post-sender.js';
import type { InteractionHandle } from '../fake-discord/index.js';
import { World, buttonIds, embedOf, shuffleScript } from './harness.js';

const NO_EDIT_LIMIT = { rateLimits: { messageEdit: { limit: 10_000, windowMs: 1_000 } } };
/** FICS as the bot meets it for real: a command waits up to 30 s for its answer. */
const REAL_TIMEOUT = { commandTimeoutMs: 30_000 };

let w: World | null = null;
afterEach(async () => {
  w?.fics.stall(false);
  await w?.close();
  w = null;
});

/** The first answer was a deferral, in time (the fake answers 10062 to one after 3 s). */
async function deferred(handle: InteractionHandle): Promise<number> {
  const callback = await handle.callback();
  expect(callback.type).toBe(InteractionResponseType.DeferredChannelMessageWithSource);
  return callback.at - handle.record.createdAt;
}

describe('with FICS stalled', () => {
  it('/unobserve, the Stop button and /unfollow are acknowledged at once and answered once FICS is back', async () => {
    const world = (w = await World.start({ discord: NO_EDIT_LIMIT }));
    const first = world.fics.addGame(shuffleScript(60));
    const second = world.fics.addGame(shuffleScript(60, { white: 'Other', black: 'Player' }));
    await world.startBot({ fics: REAL_TIMEOUT });
    const manager = { user: world.fake.owner };
    for (const game of [first, second]) await world.command('observe', { game }).reply();
    expect((await world.command('follow', { player: 'Carlsen' }, manager).reply()).content).toMatch(
      /^Following/,
    );
    const [post1, post2] = world.livePosts();
    await world.relayIdle();

    world.fics.stall(true);
    const unobserve = world.command('unobserve', { game: first });
    const stop = world.fake.button(
      post2!.id,
      buttonIds(post2!).find((id) => id.startsWith('stop:'))!,
    );
    const unfollow = world.command('unfollow', { player: 'Carlsen' }, manager);
    const delays = [await deferred(unobserve), await deferred(stop), await deferred(unfollow)];
    // The boards say at once that they stopped.
    for (const post of [post1!, post2!])
      await world.waitForMessage(post.id, (m) => embedOf(m).footer === STOPPED_FOOTER, 'the stopped board');

    world.fics.stall(false);
    expect((await unobserve.reply()).content).toBe(`Stopped relaying game ${first}.`);
    expect((await stop.reply()).content).toBe(`Stopped relaying game ${second}.`);
    expect((await unfollow.reply()).content).toMatch(/^No longer following Carlsen here/);
    console.info(
      `figure: acknowledged ${delays.join(', ')} ms after the interaction with FICS stalled (measured, not asserted)`,
    );
  });

  it('/observe player: suggestions come at once from what the bot knows, or none', async () => {
    const world = (w = await World.start());
    world.fics.addGame(shuffleScript(60, { white: 'Carlsen', black: 'Caruana' }));
    await world.startBot({ fics: REAL_TIMEOUT });
    const suggest = (typed: string) =>
      world.fake.autocomplete(world.guildId, world.channelId, 'observe', { player: typed }, 'player').reply();
    world.fics.stall(true);
    // Nothing known yet: an empty list, in time.
    expect((await suggest('Ca')).choices).toEqual([]);
    world.fics.stall(false);
    expect((await suggest('Ca')).choices).toEqual([
      { name: 'Carlsen', value: 'Carlsen' },
      { name: 'Caruana', value: 'Caruana' },
    ]);
    // FICS stalls again: the last list, in time.
    world.fics.stall(true);
    expect((await suggest('Carl')).choices).toEqual([{ name: 'Carlsen', value: 'Carlsen' }]);
  });
});
