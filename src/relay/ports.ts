// What the relay needs from either side: games from a feed (the FICS pool, ChessLive! files) and
// a place to post messages (Discord).
import type { Handle } from '../protocol/handle.js';
import type { GameSnapshot } from '../game/snapshot.js';
import type { TrackerUpdate } from '../game/tracker.js';
import type { LiveMessage } from './message.js';

/** The games side: what the relay needs from the FICS pool. */
export interface GameFeed {
  /** `holder` = the guild that wants the game: it counts in that guild's share from now. */
  observeGame(game: number, holder?: string, kept?: boolean): Promise<number>;
  /** The game a player plays now, observed for `holder` as above; resolves with its number. */
  observePlayer?(handle: Handle, holder?: string): Promise<number>;
  /** With a holder, gives back that guild's claim (the game stays observed for the others). */
  unobserve(game: number, holder?: string): Promise<void>;
  snapshot(game: number): GameSnapshot | undefined;
  on(event: 'update', listener: (update: TrackerUpdate) => void): unknown;
  off(event: 'update', listener: (update: TrackerUpdate) => void): unknown;
}

/** Where posts go: the Discord side implements it. */
export interface PostPort {
  /** Posts in the channel (or a new thread of it, when `threadName` is set). */
  post(
    postId: number,
    channelId: string,
    message: LiveMessage,
    threadName: string | null,
  ): Promise<{ messageChannelId: string; messageId: string; threadId: string | null }>;
  /**
   * Rejects with RetryLater while a rate limit holds the edit back. Resolves with a message id
   * when the post continues in a new message from now on (Discord's one-hour edit limit).
   */
  edit(
    postId: number,
    channelId: string,
    messageId: string,
    message: LiveMessage,
  ): Promise<{ continuedIn: string } | void>;
  /** A plain text notice in a channel (e.g. a club's "limit reached"). */
  say(channelId: string, text: string): Promise<void>;
}
