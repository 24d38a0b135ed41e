// FICS out of reach: live boards stop moving, and should not look current meanwhile. A connection
// that drops and comes back within seconds is normal (a reconnect): only an outage longer than
// that is announced, and the all-clear comes as soon as one connection is online again.
import { isChessLive } from '../game/game-id.js';
import { gameKeyOf } from '../game/game-key.js';
import type { GameSnapshot } from '../game/snapshot.js';
import type { Logger } from '../log.js';
import type { LivePost, LivePostRepository } from '../storage/live-posts.js';
import type { LiveMessage } from './message.js';
import type { GameId } from '../game/game-id.js';

/** What the watch needs of the FICS pool. */
export interface OutageSource {
  status(): { state: string }[];
  on(event: 'state', listener: () => void): unknown;
  off(event: 'state', listener: () => void): unknown;
}

/** How long FICS must be unreachable before live posts say so. */
export const OUTAGE_NOTICE_MS = 5_000;

/**
 * Calls `onChange(true)` once no connection has been online for `delayMs`, and `onChange(false)`
 * as soon as one is again. Returns a function that stops watching.
 */
export function watchOutage(
  source: OutageSource,
  onChange: (down: boolean) => void,
  delayMs = OUTAGE_NOTICE_MS,
): () => void {
  let down = false;
  let timer: NodeJS.Timeout | undefined;
  const online = (): boolean => source.status().some((c) => c.state === 'online');
  const changed = (): void => {
    if (online()) {
      clearTimeout(timer);
      timer = undefined;
      if (down) onChange((down = false));
    } else if (!down && timer === undefined) {
      timer = setTimeout(() => {
        timer = undefined;
        if (!online()) onChange((down = true));
      }, delayMs);
    }
  };
  source.on('state', changed);
  return () => {
    clearTimeout(timer);
    source.off('state', changed);
  };
}

/** Footer of a live FICS post while FICS is out of reach. */
export const WAITING_FOOTER = 'Waiting for FICS… this board may be behind.';

export interface OutageFooterOptions {
  livePosts: Pick<LivePostRepository, 'listLive'>;
  snapshot: (game: GameId) => GameSnapshot | undefined;
  logger: Logger;
  /** A post a redraw may go to (live, shown, this process's). */
  shows: (post: LivePost) => boolean;
  redraw: (postId: number, snapshot: GameSnapshot) => void;
}

/** Live FICS boards during an outage: they say so in their footer, and lose it once it is over. */
export class OutageFooter {
  private down = false;

  constructor(private readonly options: OutageFooterOptions) {}

  /** A live board's message as it shows now: WAITING_FOOTER on FICS boards while FICS is down. */
  shown(message: LiveMessage, snapshot: GameSnapshot): LiveMessage {
    const waiting = this.down && message.live && !isChessLive(snapshot);
    return waiting ? { ...message, footer: WAITING_FOOTER } : message;
  }

  /** FICS went out of reach (for a while) or came back: every live FICS board is redrawn. */
  async set(down: boolean): Promise<void> {
    if (down === this.down) return;
    this.down = down;
    this.options.logger.info(
      { down },
      down ? 'FICS out of reach: live boards say so' : 'FICS back: live boards current again',
    );
    for (const post of await this.options.livePosts.listLive()) {
      const snapshot = this.options.snapshot(post.game);
      if (post.messageId === null || !this.options.shows(post)) continue;
      if (snapshot === undefined || snapshot.ended || isChessLive(snapshot)) continue;
      if (gameKeyOf(snapshot) === post.gameKey) this.options.redraw(post.id, snapshot);
    }
  }
}
