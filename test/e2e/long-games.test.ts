// Discord's one-hour edit limit: edits of a message older than an hour get 429 30046 after a few
// (the fake counts ages by a clock the test moves). A long game's board continues in a new message
// before its message is an hour old, and the old message becomes a link to it.
import { afterEach, describe, expect, it } from 'vitest';
import { World, embedOf, shuffleScript } from './harness.js';

const MINUTE = 60_000;

let w: World | null = null;
afterEach(async () => {
  await w?.close();
  w = null;
});

/**
 * A 60-move game observed in a world whose every edit of a message older than an hour is refused
 * (30046), on the fake Discord's clock; `dbFile` keeps the database for a restart.
 */
async function observeLongGame(dbFile = false) {
  const world = (w = await World.start({
    ...(dbFile ? { dbFile } : {}),
    discord: {
      rateLimits: { messageEdit: { limit: 10_000, windowMs: 1_000 } },
      oldMessageEdits: { limit: 0, windowMs: 60 * MINUTE },
    },
  }));
  const fake = world.fake;
  const game = world.fics.addGame(shuffleScript(60));
  await world.startBot({ now: () => fake.now() });
  await world.command('observe', { game }).reply();
  const [first] = world.livePosts();
  return { world, fake, game, first };
}

describe('a game longer than an hour', () => {
  it('continues in a new message every 50 minutes, the old one linking to it, and never meets 30046', async () => {
    const { world, fake, game, first } = await observeLongGame();

    const shows = async (san: string): Promise<string> => {
      const post = await fake.waitFor(
        () => world.livePosts().find((m) => embedOf(m).description.endsWith(san) && m.embeds.length > 0),
        `a board showing ${san}`,
        5_000,
      );
      return post.id;
    };
    expect(await shows(world.fics.playMove(game))).toBe(first!.id);
    fake.advanceClock(49 * MINUTE);
    expect(await shows(world.fics.playMove(game))).toBe(first!.id);

    fake.advanceClock(2 * MINUTE);
    const second = await shows(world.fics.playMove(game));
    expect(second).not.toBe(first!.id);
    const old = await world.waitForMessage(
      first!.id,
      (m) => embedOf(m).footer === 'continued below',
      'the link',
    );
    expect(embedOf(old).description).toBe(
      `The board goes on in a newer message: https://discord.com/channels/${world.guildId}/${world.channelId}/${second}`,
    );
    expect(old.components).toEqual([]);
    expect(old.attachments).toEqual([]);
    // Later moves edit the new message.
    expect(await shows(world.fics.playMove(game))).toBe(second);

    fake.advanceClock(51 * MINUTE);
    const third = await shows(world.fics.playMove(game));
    expect([first!.id, second]).not.toContain(third);
    world.fics.playAll(game);
    await world.waitForMessage(
      third,
      (m) => embedOf(m).footer !== null,
      'the final edit on the newest message',
    );
    expect(world.livePosts().filter((m) => m.embeds.length > 0)).toHaveLength(3);
    expect(fake.requests.filter((r) => (r.response as { code?: number } | null)?.code === 30046)).toEqual([]);
  });

  it('after a restart past the hour: the board goes on in a new message, the old one is deleted when its edit is refused', async () => {
    const { world, fake, game, first } = await observeLongGame(true);
    await world.relayIdle();

    await world.stopBot();
    fake.advanceClock(3 * 60 * MINUTE);
    await world.startBot({ now: () => fake.now() });
    const san = world.fics.playMove(game);
    const next = await fake.waitFor(
      () => world.livePosts().find((m) => m.id !== first!.id && embedOf(m).description.endsWith(san)),
      'the board in a new message',
      15_000,
    );
    await world.waitForMessage(first!.id, (m) => m.deleted, 'the old message deleted');
    expect(fake.requests.some((r) => (r.response as { code?: number } | null)?.code === 30046)).toBe(true);
    // One board with live buttons: the new one.
    const live = world.livePosts().filter((m) => !m.deleted && m.components.length > 0);
    expect(live.map((m) => m.id)).toEqual([next.id]);
  });
});
