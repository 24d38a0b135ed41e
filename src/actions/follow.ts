// /follow and /unfollow: every game a FICS player starts is posted in a channel, from now on.
import type { Handle } from '../protocol/handle.js';
import { err, ok, type Result } from '../result.js';
import { ficsDown, type FicsDown, type FicsServices } from './fics.js';
import type { Acknowledge, Services } from './services.js';
import type { GameId } from '../game/game-id.js';

export interface FollowInput {
  readonly guildId: string;
  readonly channelId: string;
  readonly handle: Handle;
  /** The user id of who asked. */
  readonly createdBy: string;
}

/** What FICS said of the player when the follow was stored. */
export type FollowNow =
  /** FICS is out of reach: the pool follows once a connection is back. */
  | FicsDown
  | { readonly kind: 'playing'; readonly game: GameId }
  | { readonly kind: 'online' }
  | { readonly kind: 'offline' }
  /** FICS refused or failed; the follow is stored all the same. */
  | { readonly kind: 'fics-failed'; readonly error: unknown };

export interface Followed {
  /** False when this channel followed the player already. */
  readonly added: boolean;
  readonly now: FollowNow;
}

export type FollowServices = FicsServices & {
  readonly fics: Pick<Services['fics'], 'follow' | 'followPlayer'>;
  readonly storage: { readonly follows: Pick<Services['storage']['follows'], 'add'> };
  readonly logger: Pick<Services['logger'], 'warn'>;
};

export async function follow(
  input: FollowInput,
  services: FollowServices,
  acknowledge: Acknowledge,
): Promise<Followed> {
  const { handle } = input;
  const { added } = await services.storage.follows.add(input);
  await acknowledge();
  const down = await ficsDown(services);
  if (down !== null) {
    // The pool keeps the follow and acts on it once a connection is back.
    services.fics
      .follow(handle)
      .catch((error: unknown) => services.logger.warn({ err: error, handle }, 'FICS follow failed'));
    return { added, now: down };
  }
  try {
    // A game in progress is observed now, and posted here like every later one.
    const { game, online } = await services.fics.followPlayer(handle, input.guildId);
    return {
      added,
      now: game !== null ? { kind: 'playing', game } : { kind: online ? 'online' : 'offline' },
    };
  } catch (error) {
    return { added, now: { kind: 'fics-failed', error } };
  }
}

export type UnfollowServices = {
  readonly fics: Pick<Services['fics'], 'unfollow'>;
  readonly storage: {
    readonly follows: Pick<Services['storage']['follows'], 'remove' | 'listForHandle'>;
    readonly clubs: Pick<Services['storage']['clubs'], 'watches'>;
  };
  readonly logger: Pick<Services['logger'], 'warn'>;
};

/** Stops posting the player's new games in this channel; games already live keep updating. */
export async function unfollow(
  input: { readonly channelId: string; readonly handle: Handle },
  services: UnfollowServices,
  acknowledge: Acknowledge,
): Promise<Result<void, { readonly kind: 'not-followed' }>> {
  const { handle } = input;
  const { storage } = services;
  if (!(await storage.follows.remove(input.channelId, handle))) return err({ kind: 'not-followed' });
  await acknowledge();
  // The FICS watch stays while another channel still follows the player, or a club has them.
  if ((await storage.follows.listForHandle(handle)).length === 0 && !(await storage.clubs.watches(handle)))
    await services.fics
      .unfollow(handle)
      .catch((error: unknown) => services.logger.warn({ err: error, handle }, 'FICS unfollow failed'));
  return ok(undefined);
}
