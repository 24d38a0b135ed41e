// What the relay needs of Discord: a place to post messages. Its games come from a GameFeed
// (src/game/feed.ts).
import type { LiveMessage } from './message.js';

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
