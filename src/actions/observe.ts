// Observe a game (by number, or a player's current one) and post it live in a channel; and what
// the buttons of a live post do (Flip, PGN, Stop, Engine, Best move).
import type { GameNumber } from '../protocol/game-number.js';
import type { Handle } from '../protocol/handle.js';
import type { PostEngineChoice } from '../relay/evaluations.js';
import type { LiveMessage } from '../relay/message.js';
import type { LivePost } from '../storage/index.js';
import { err, ok, type Result } from '../result.js';
import { ficsDown, type FicsDown, type FicsServices } from './fics.js';
import type { Services } from './services.js';
import type { GameId } from '../game/game-id.js';

export type ObserveTarget = { readonly game: GameNumber } | { readonly player: Handle };

export interface ObserveInput {
  readonly target: ObserveTarget;
  readonly guildId: string;
  readonly channelId: string;
  /** The user id of who asked. */
  readonly requestedBy: string;
  readonly flip: boolean;
  readonly thread: boolean;
  /** Kibitzes and whispers into the game's thread (as asked, or the server's default). */
  readonly kibitz: boolean;
  /** The engine's evaluation (and arrow) with the post, or null for none. */
  readonly engine: PostEngineChoice | null;
}

/** Why no post can show the engine: off in the settings, or on with no engine program. */
export interface NoEngine {
  readonly kind: 'no-engine';
  readonly status: 'off' | 'not-installed';
}

export type ObserveError =
  | FicsDown
  | NoEngine
  /** The relay refused (the server's cap, FICS's answer...), in its own words. */
  | { readonly kind: 'refused'; readonly message: string };

/** The game now live. */
export interface Observed {
  readonly game: GameId;
  readonly white: string;
  readonly black: string;
}

export type ObserveServices = FicsServices & {
  readonly relay: Pick<Services['relay'], 'watch' | 'watchPlayer' | 'engineStatus'>;
};

/** Null when posts can show the engine. */
export function engineProblem(services: { relay: Pick<Services['relay'], 'engineStatus'> }): NoEngine | null {
  const status = services.relay.engineStatus();
  return status === 'on' ? null : { kind: 'no-engine', status };
}

export async function observe(
  input: ObserveInput,
  services: ObserveServices,
): Promise<Result<Observed, ObserveError>> {
  const noEngine = input.engine === null ? null : engineProblem(services);
  if (noEngine !== null) return err(noEngine);
  const down = await ficsDown(services);
  if (down !== null) return err(down);
  const request = {
    guildId: input.guildId,
    channelId: input.channelId,
    options: { flip: input.flip, thread: input.thread },
    requestedBy: input.requestedBy,
    ...(input.engine === null ? {} : { engine: input.engine }),
    kibitz: input.kibitz,
  };
  // The server's cap and FICS share are taken before FICS is asked (src/relay/relay.ts).
  const result =
    'game' in input.target
      ? await services.relay.watch({ ...request, game: input.target.game })
      : await services.relay.watchPlayer({ ...request, player: input.target.player });
  if (!result.ok) return err({ kind: 'refused', message: result.error.message });
  const { game, white, black } = result.value.snapshot;
  return ok({ game, white, black });
}

/** Who pressed a button or ran a command, as the rules of a live post need them. */
export interface Actor {
  readonly userId: string;
  /** May manage messages in the channel: may change anyone's post. */
  readonly moderator: boolean;
}

/** Who may change a live post (stop it, turn its engine on or off): its requester, or a moderator. */
export function mayChange(actor: Actor, post: Pick<LivePost, 'requestedBy'>): boolean {
  return post.requestedBy === actor.userId || actor.moderator;
}

export type PostError =
  /** The post is not live (ended, stopped, or never was). */
  | { readonly kind: 'not-live' }
  /** Only its requester or a moderator may do this. */
  | { readonly kind: 'not-allowed' };

type PostServices = {
  readonly storage: { readonly livePosts: Pick<Services['storage']['livePosts'], 'get'> };
};

/** The live post with this id. */
export async function livePost(postId: number, services: PostServices): Promise<Result<LivePost, PostError>> {
  const post = Number.isSafeInteger(postId) ? await services.storage.livePosts.get(postId) : null;
  return post === null || post.state !== 'live' ? err({ kind: 'not-live' }) : ok(post);
}

/** Flip: the post's board turned round, for the presser alone (the shared post stays as it is). */
export async function flipped(
  postId: number,
  services: PostServices & { readonly relay: Pick<Services['relay'], 'flippedView'> },
): Promise<Result<LiveMessage, PostError>> {
  const post = await livePost(postId, services);
  if (!post.ok) return post;
  const view = await services.relay.flippedView(post.value.id);
  return view === null ? err({ kind: 'not-live' }) : ok(view);
}

/** Stops a live post, when this actor may. */
export async function stop(
  post: LivePost,
  actor: Actor,
  services: { readonly relay: Pick<Services['relay'], 'stop'> },
): Promise<Result<{ readonly game: GameId }, PostError>> {
  if (!mayChange(actor, post)) return err({ kind: 'not-allowed' });
  await services.relay.stop(post.id);
  return ok({ game: post.game });
}

/** Before the Engine and Best move buttons change a post: the live post, when this actor may. */
export async function engineChangeAllowed(
  postId: number,
  actor: Actor,
  services: PostServices & { readonly relay: Pick<Services['relay'], 'engineStatus'> },
): Promise<Result<LivePost, PostError | NoEngine>> {
  const post = await livePost(postId, services);
  if (!post.ok) return post;
  if (!mayChange(actor, post.value)) return err({ kind: 'not-allowed' });
  const noEngine = engineProblem(services);
  return noEngine === null ? post : err(noEngine);
}

/** The Engine and Best move buttons: the post is redrawn at once, its evaluation follows. */
export async function changeEngine(
  post: LivePost,
  next: (choice: PostEngineChoice) => PostEngineChoice,
  services: { readonly relay: Pick<Services['relay'], 'engineChoice' | 'setEngine'> },
): Promise<void> {
  await services.relay.setEngine(post.id, next(services.relay.engineChoice(post.id)));
}
