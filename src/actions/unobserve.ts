// /unobserve: the live post of a game in a channel (or its thread), which the live post's Stop
// rules then stop (src/actions/observe.ts `stop`).
import type { GameNumber } from '../protocol/game-number.js';
import type { LivePost } from '../storage/index.js';
import type { Services } from './services.js';

export interface UnobserveServices {
  readonly storage: { readonly livePosts: Pick<Services['storage']['livePosts'], 'listLiveByGame'> };
}

/** The live post of `game` in this channel, or in the game's thread when it is one; else null. */
export async function liveHere(
  game: GameNumber,
  channelId: string,
  services: UnobserveServices,
): Promise<LivePost | null> {
  const posts = await services.storage.livePosts.listLiveByGame(game);
  return posts.find((p) => p.channelId === channelId || p.threadId === channelId) ?? null;
}
