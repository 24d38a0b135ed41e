// Reading what the bot posted in a club channel of an end-to-end World (test/e2e/harness.ts).
import type { FakeMessage } from '../fake-discord/index.js';
import { embedOf, type World } from '../e2e/harness.js';

/** Live posts (board messages) in a channel, by embed title. */
export function boardPosts(world: World, channelId = world.channelId): FakeMessage[] {
  return world.livePosts(channelId).filter((m) => embedOf(m).title !== '');
}

/** Plain text notices the bot wrote in a channel. */
export function notices(world: World, channelId = world.channelId): string[] {
  return world
    .livePosts(channelId)
    .filter((m) => m.embeds.length === 0)
    .map((m) => m.content);
}

/** Waits for the board post whose title names these players, and returns it. */
export function postOf(
  world: World,
  white: string,
  black: string,
  channelId = world.channelId,
  timeoutMs = 15_000,
): Promise<FakeMessage> {
  return world.fake.waitFor(
    () => boardPosts(world, channelId).find((m) => titleHas(m, white, black)),
    `the post of ${white} vs ${black}`,
    timeoutMs,
  );
}

export function titleHas(message: FakeMessage, white: string, black: string): boolean {
  return embedOf(message).title.includes(`: ${white}`) && embedOf(message).title.includes(`vs ${black}`);
}
