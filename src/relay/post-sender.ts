// Sending a post's edits: per post one LatestWins (latest position wins) taking its turns from the
// bot-wide scheduler, each edit drawn when its turn comes, and an edit refused for its size sent
// again with fewer files, so that the result and the final board are never lost to an attachment.
import type { GameSnapshot } from '../game/snapshot.js';
import type { Logger } from '../log.js';
import { errorMessage } from '../result.js';
import type { LivePost, LivePostRepository } from '../storage/live-posts.js';
import type { EngineView } from './evaluations.js';
import type { BoardImages } from './images.js';
import { LatestWins, Refused } from './latest-wins.js';
import type { LiveAttachment, LiveMessage } from './message.js';
import type { PostPort } from './ports.js';
import type { EditScheduler, TurnRequest } from './schedule.js';

/** One edit of a post: a game position, or a message made already (ended while offline). */
export type Edit =
  | {
      snapshot: GameSnapshot;
      /** PGN and GIF on the final edit. */
      files: LiveAttachment[] | null;
      /** The last edit of a stopped post: it says so and loses its buttons. */
      stopped?: boolean;
      /** A button's answer or a new post's catch-up: it goes before ordinary moves. */
      urgent?: boolean;
      /** The GIF after a final edit: it waits its turn like a move. */
      later?: boolean;
    }
  | { message: LiveMessage };

/** A game's end, a stop, a button's answer: before every ordinary move (schedule.ts). */
function isUrgent(edit: Edit): boolean {
  if ('message' in edit) return true;
  return (edit.files !== null && edit.later !== true) || edit.stopped === true || edit.urgent === true;
}

/** Footer of a post someone stopped. */
export const STOPPED_FOOTER = 'Stopped: this board no longer updates.';

export interface PostSendersOptions {
  livePosts: Pick<LivePostRepository, 'get' | 'setMessage' | 'touch' | 'setPair'>;
  port: Pick<PostPort, 'edit'>;
  images: BoardImages;
  scheduler: EditScheduler;
  logger: Logger;
  /** What a post shows of the engine for a position; nothing when absent. */
  engineView: (snapshot: GameSnapshot, postId: number) => EngineView | undefined;
  /** A live board's message as shown now (the outage footer, outage.ts). */
  shown: (message: LiveMessage, snapshot: GameSnapshot) => LiveMessage;
  /** An edit went out, after `ms` (its picture and Discord's answer included). */
  edited: (postId: number, ms: number) => void;
  /** Discord refused the post for good; its sender has stopped. */
  refused: (postId: number, refusal: Refused) => void;
  /** Runs a database write; a refused one is logged and false. */
  recorded: (what: string, write: () => Promise<unknown>) => Promise<boolean>;
  closed: () => boolean;
}

export class PostSenders {
  private readonly senders = new Map<number, LatestWins<Edit>>();
  /** Each post's rate-limit bucket (its message's channel), known from its first send. */
  private readonly bucketOf = new Map<number, string>();
  /** Posts whose final edit went without a file Discord refused for its size. */
  private readonly cutFinals = new Set<number>();

  constructor(private readonly options: PostSendersOptions) {}

  /** Queues an edit of a post, replacing any not sent yet. */
  push(postId: number, edit: Edit): void {
    this.sender(postId).push(edit);
  }

  /** Takes a post's sender out (its last edit goes through it): no edit is pushed to it after. */
  take(postId: number): LatestWins<Edit> {
    const sender = this.sender(postId);
    this.senders.delete(postId);
    return sender;
  }

  /** Drops a post's sender and what it has not sent (a post that ends without a last edit). */
  drop(postId: number): void {
    this.senders.get(postId)?.close();
    this.senders.delete(postId);
  }

  /** Whether the post's final edit had to go without a file (and forgets it): its GIF would be refused too. */
  finalWasCut(postId: number): boolean {
    return this.cutFinals.delete(postId);
  }

  /** The post is over: its bucket is forgotten. */
  forget(postId: number): void {
    this.bucketOf.delete(postId);
  }

  /** Edits waiting out a rate limit would otherwise go on after the bot has stopped. */
  close(): void {
    for (const sender of this.senders.values()) sender.close();
    this.senders.clear();
  }

  async idle(): Promise<void> {
    await Promise.all([...this.senders.values()].map((s) => s.idle()));
  }

  private sender(postId: number): LatestWins<Edit> {
    let sender = this.senders.get(postId);
    if (sender === undefined) {
      const { scheduler, logger } = this.options;
      const bucket = (): string | null => this.bucketOf.get(postId) ?? null;
      /** The post's last turn request: an edit turning urgent while it waits moves it up. */
      let request: TurnRequest | null = null;
      sender = new LatestWins<Edit>(
        {
          send: (edit) => this.send(postId, edit),
          urgent: isUrgent,
          hasten: () => {
            if (request !== null) scheduler.restand(request);
          },
          turn: (standing, go, signal) => scheduler.run((request = { bucket, standing, signal }), go),
          onError: (error) => logger.warn({ postId, error: errorMessage(error) }, 'edit failed'),
          onRefused: (refusal) => {
            this.senders.delete(postId);
            this.options.refused(postId, refusal);
          },
        },
        scheduler,
      );
      this.senders.set(postId, sender);
    }
    return sender;
  }

  private async send(postId: number, edit: Edit): Promise<void> {
    const { livePosts } = this.options;
    // A final edit that waited out a rate limit may wake after close().
    if (this.options.closed()) return;
    const post = await livePosts.get(postId);
    if (post === null || post.messageId === null || post.messageChannelId === null) return;
    // Refused for good (Relay.refused): not even a final edit goes, it would be refused again.
    if (post.endReason !== null) return;
    this.bucketOf.set(postId, post.messageChannelId);
    const started = performance.now();
    let shown: LiveMessage;
    if ('message' in edit) shown = edit.message;
    else {
      const message = await this.options.images.message(
        edit.snapshot,
        post.options,
        edit.files ?? [],
        this.options.engineView(edit.snapshot, post.id),
      );
      shown = edit.stopped
        ? { ...message, live: false, footer: STOPPED_FOOTER }
        : this.options.shown(message, edit.snapshot);
    }
    await this.editFitting(post, shown, 'later' in edit && edit.later === true);
    this.options.edited(post.id, performance.now() - started);
    await recordPair(this.options.recorded, livePosts, post, shown);
    await this.options.recorded('note an edit', () => livePosts.touch(post.id));
  }

  /**
   * Sends an edit; one refused for its size goes again without its last file (the clock chart,
   * then the PGN): the result and the final board are never lost to an attachment. The GIF's
   * edit (`gifEdit`) refused for its size is given up: the final edit before it stays.
   */
  private async editFitting(post: LivePost, shown: LiveMessage, gifEdit: boolean): Promise<void> {
    let message = shown;
    for (;;) {
      try {
        const moved = await this.options.port.edit(post.id, post.messageChannelId!, post.messageId!, message);
        if (moved)
          await this.options.livePosts.setMessage(post.id, {
            messageChannelId: post.messageChannelId!,
            messageId: moved.continuedIn,
            threadId: post.threadId,
          });
        return;
      } catch (error) {
        if (!(error instanceof Refused) || !error.detail.tooLarge || message.files.length === 0) throw error;
        const dropped = message.files.at(-1)!;
        if (gifEdit) {
          this.options.logger.warn(
            { postId: post.id, bytes: dropped.data.length, code: error.detail.code },
            'GIF refused as too large: the final edit stays without it',
          );
          return;
        }
        this.cutFinals.add(post.id);
        this.options.logger.warn(
          { postId: post.id, file: dropped.name, bytes: dropped.data.length, code: error.detail.code },
          'edit refused as too large: sending it again without one file',
        );
        message = { ...message, files: message.files.slice(0, -1) };
      }
    }
  }
}

/**
 * A message sent with pictures replaces them all: the post's stored pair follows whether it showed
 * a partner board (a write only when that changes, about once per bughouse post), so that an edit
 * keeping the pictures later keeps its embed without reading the message back.
 */
export async function recordPair(
  recorded: PostSendersOptions['recorded'],
  livePosts: Pick<LivePostRepository, 'setPair'>,
  post: LivePost,
  sent: LiveMessage,
): Promise<void> {
  const pair = sent.partner !== undefined;
  if (sent.image === null || post.options.pair === pair) return;
  await recorded('record a partner board', () => livePosts.setPair(post.id, pair));
}
