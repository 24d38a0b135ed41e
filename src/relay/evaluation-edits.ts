// When evaluations reach the posts: a post's engine choice redraws it at once, and an evaluation
// that arrives goes out in an edit of the posts still showing its position, waiting while their
// recent edits leave no room (EditRoom), so that evaluation-only edits never crowd out moves.
import type { GameSnapshot } from '../game/snapshot.js';
import { gameKeyOf } from '../game/game-key.js';
import type { Logger } from '../log.js';
import type { LivePostRepository } from '../storage/live-posts.js';
import { EditRoom, type LiveEvaluations, type PostEngineChoice } from './evaluations.js';
import type { Edit } from './post-sender.js';
import type { GameId } from '../game/game-id.js';

export interface EvaluationEditsOptions {
  engine: LiveEvaluations;
  livePosts: Pick<LivePostRepository, 'get' | 'listLiveByGame'>;
  snapshot: (game: GameId) => GameSnapshot | undefined;
  logger: Logger;
  /** A post whose final edit is on its way: no evaluation edit goes to it. */
  finishing: (postId: number) => boolean;
  push: (postId: number, edit: Edit) => void;
  closed: () => boolean;
}

export class EvaluationEdits {
  /** Recent edits per post, so that evaluation-only edits leave room for moves. */
  private readonly editRoom = new EditRoom();
  /** Evaluation edits waiting for room, per post. */
  private readonly waits = new Map<number, NodeJS.Timeout>();

  constructor(private readonly options: EvaluationEditsOptions) {
    options.engine.onEvaluated((game, fen) => void this.evaluated(game, fen));
  }

  /** An edit of the post went out now. */
  edited(postId: number): void {
    this.editRoom.note(postId, Date.now());
  }

  forget(postId: number): void {
    this.options.engine.forget(postId);
    this.editRoom.forget(postId);
  }

  close(): void {
    for (const wait of this.waits.values()) clearTimeout(wait);
  }

  /**
   * Sets what a live post shows of the engine and redraws it now; its evaluation follows in a
   * later edit. False when the post is not live.
   */
  async setChoice(postId: number, choice: PostEngineChoice): Promise<boolean> {
    const { engine } = this.options;
    const post = await this.options.livePosts.get(postId);
    if (post === null || post.state !== 'live') return false;
    engine.setChoice(post.id, choice);
    const snapshot = this.options.snapshot(post.game);
    if (snapshot === undefined || gameKeyOf(snapshot) !== post.gameKey) return true;
    this.options.push(post.id, { snapshot, files: null, urgent: true });
    engine.request(snapshot, [post.id]);
    return true;
  }

  /** A game's newest position has its evaluation: the posts that show it are edited. */
  private async evaluated(game: GameId, fen: string): Promise<void> {
    try {
      for (const post of await this.options.livePosts.listLiveByGame(game)) await this.show(post.id, fen);
    } catch (error) {
      this.options.logger.error({ err: error }, 'database read failed: an evaluation is not shown');
    }
  }

  /**
   * One post's evaluation edit, for the position it was made for while the post still shows it;
   * it waits while the post's recent edits leave no room (EditRoom), then looks again.
   */
  private async show(postId: number, fen: string): Promise<void> {
    const post = await this.options.livePosts.get(postId);
    if (this.options.closed() || post === null || post.state !== 'live' || post.messageId === null) return;
    const snapshot = this.options.snapshot(post.game);
    if (
      snapshot === undefined ||
      snapshot.ended ||
      snapshot.fen !== fen ||
      gameKeyOf(snapshot) !== post.gameKey
    )
      return;
    if (this.options.finishing(post.id) || !this.options.engine.choice(post.id).eval) return;
    if (this.waits.has(post.id)) return;
    const waitMs = this.editRoom.waitMs(post.id, Date.now());
    if (waitMs === 0) {
      this.options.push(post.id, { snapshot, files: null });
      return;
    }
    const wait = setTimeout(() => {
      this.waits.delete(post.id);
      this.show(post.id, fen).catch((error: unknown) =>
        this.options.logger.error({ err: error }, 'database read failed: an evaluation is not shown'),
      );
    }, waitMs);
    this.waits.set(post.id, wait);
  }
}
