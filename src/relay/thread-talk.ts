// Kibitzes and whispers into the threads of the posts that asked for them (`/observe kibitz:` or
// the server's default, kept with the post so that a restart goes on with it), paced per game (said-lines.ts) and sent through the bot-wide scheduler like every edit, so that
// talk never takes Discord's rate from the boards all at once.
import type { Logger } from '../log.js';
import type { PostPort } from './ports.js';
import type { GameFeed } from '../game/feed.js';
import type { SaidInGame } from '../game/tracker.js';
import type { GameSnapshot } from '../game/snapshot.js';
import type { LivePostRepository } from '../storage/live-posts.js';
import { gameKeyOf } from '../game/game-key.js';
import { SaidThrottle } from './said-lines.js';
import type { EditScheduler } from './schedule.js';

/** Where kibitzes come from: the FICS pool (`set kibitz 1`). */
export interface SaidSource {
  on(event: 'said', listener: (said: SaidInGame) => void): unknown;
  off(event: 'said', listener: (said: SaidInGame) => void): unknown;
}

export interface ThreadTalkOptions {
  livePosts: Pick<LivePostRepository, 'listLiveByGame'>;
  feed: Pick<GameFeed, 'snapshot'>;
  port: Pick<PostPort, 'say'>;
  scheduler: EditScheduler;
  logger: Logger;
}

export class ThreadTalk {
  private readonly throttle: SaidThrottle<string[]>;
  /** Lines of every game in the order heard: each waits for the posts read before it. */
  private order: Promise<void> = Promise.resolve();
  readonly listener = (said: SaidInGame): void => {
    this.order = this.order.then(() => this.heard(said));
  };

  constructor(private readonly options: ThreadTalkOptions) {
    this.throttle = new SaidThrottle(options.scheduler, (threads, line) => this.say(threads, line));
  }

  /** The game is over: its folded lines go now and its pacing is dropped. */
  gameEnded(snapshot: GameSnapshot): void {
    this.throttle.forget(gameKeyOf(snapshot));
  }

  private async heard({ game, key, said }: SaidInGame): Promise<void> {
    const snapshot = this.options.feed.snapshot(game);
    if (snapshot === undefined || snapshot.key !== key) return;
    const gameKey = gameKeyOf(snapshot);
    let posts;
    try {
      posts = await this.options.livePosts.listLiveByGame(game);
    } catch (error) {
      this.options.logger.warn({ game, err: error }, 'kibitz not relayed: the live posts could not be read');
      return;
    }
    const threads = posts
      .filter((p) => p.gameKey === gameKey && p.options.kibitz === true && p.threadId !== null)
      .map((p) => p.threadId!);
    if (threads.length > 0) this.throttle.offer(gameKey, said, threads);
  }

  private say(threads: string[], line: string): void {
    const since = this.options.scheduler.now();
    for (const thread of threads) {
      this.options.scheduler
        .run({ bucket: () => thread, standing: () => ({ since, urgent: false }) }, () =>
          this.options.port.say(thread, line),
        )
        .catch((error: Error) =>
          this.options.logger.warn({ thread, error: error.message }, 'kibitz line not sent'),
        );
    }
  }
}
