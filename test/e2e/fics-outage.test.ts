// FICS out of reach: the live boards say so after a few seconds (not on every short reconnect),
// and look current again as soon as FICS is back.
import { afterEach, describe, expect, it } from 'vitest';
import { OUTAGE_NOTICE_MS, WAITING_FOOTER } from '../../src/relay/outage.js';
import { World, embedOf, shuffleScript } from './harness.js';
import { gameId } from '../support/fics-values.js';

let w: World | null = null;
afterEach(async () => {
  w?.fics.stall(false);
  await w?.close();
  w = null;
});

describe('FICS out of reach', () => {
  it('live boards say "waiting for FICS" after a few seconds, and stop saying it once FICS is back', async () => {
    const world = (w = await World.start({
      discord: { rateLimits: { messageEdit: { limit: 10_000, windowMs: 1_000 } } },
    }));
    const game = world.fics.addGame(shuffleScript(60));
    await world.startBot();
    await world.command('observe', { game }).reply();
    const [post] = world.livePosts();
    await world.relayIdle();
    const pool = world.running.context.fics;

    // Dropped, and every login attempt left unanswered.
    world.fics.stall(true);
    world.fics.drop();
    const droppedAt = Date.now();
    await world.fake.waitFor(
      () => (pool.status().every((c) => c.state !== 'online') ? true : undefined),
      'the bot to notice',
      5_000,
    );
    const waiting = await world.waitForMessage(
      post!.id,
      (m) => embedOf(m).footer === WAITING_FOOTER,
      'the waiting footer',
      OUTAGE_NOTICE_MS + 5_000,
    );
    // Not before the notice delay: a short reconnect would not have shown it.
    expect(waiting.revisions.at(-1)!.at - droppedAt).toBeGreaterThanOrEqual(OUTAGE_NOTICE_MS);
    expect(waiting.components).not.toEqual([]);

    world.fics.stall(false);
    const back = await world.waitForMessage(
      post!.id,
      (m) => embedOf(m).footer === null,
      'the all-clear',
      10_000,
    );
    expect(embedOf(back).description).toContain('to move');
  }, 30_000);
});

describe('a FICS restart that gives the number to other players', () => {
  it('ends the post at once, result unknown, and stops observing the other game', async () => {
    const world = (w = await World.start());
    const game = world.fics.addGame(shuffleScript(60, { white: 'Alpha', black: 'Beta' }));
    await world.startBot();
    await world.command('observe', { game }).reply();
    const [post] = world.livePosts();
    world.fics.playMoves(game, 4);
    await world.waitForMessage(post!.id, (m) => /\b2\. \S+ \S+$/m.test(embedOf(m).description), 'four moves');

    world.fics.restart();
    world.fics.addGame(shuffleScript(60, { white: 'Gamma', black: 'Delta' }), game);
    const ended = await world.waitForMessage(post!.id, (m) => embedOf(m).footer !== null, 'the final edit');
    expect(embedOf(ended).footer).toContain(`Result unknown: game ${game} now shows Gamma vs Delta`);
    expect(embedOf(ended).title).toContain('Alpha');
    // Nobody asked for Gamma vs Delta: the bot lets the number go.
    await world.fics.waitFor(() => world.fics.observers(game).length === 0, 'the bot to unobserve', 15_000);
    expect(world.running.context.fics.snapshot(gameId(game))).toBeUndefined();
  }, 30_000);
});
