// What the actions (the commands as use cases) run against: the services src/app.ts starts, with
// no chat platform in them. Each action names the few methods it uses (a `Pick` of these), so a
// test hands it small fakes and a second chat platform hands it the same services.
import type { Renderer } from '../../render/index.js';
import type { ChessLiveFeed } from '../chesslive/feed.js';
import type { ClubPoster } from '../club/poster.js';
import type { TvPoster } from '../club/tv.js';
import type { Config } from '../config.js';
import type { FicsPool } from '../fics/pool.js';
import type { Logger } from '../log.js';
import type { Relay } from '../relay/relay.js';
import type { Storage } from '../storage/index.js';

export interface Services {
  readonly config: Config;
  readonly logger: Logger;
  readonly storage: Storage;
  /** The FICS connections: observe, list games, follow players. */
  readonly fics: FicsPool;
  /** Live posts of games in channels. */
  readonly relay: Relay;
  /** Where boards are drawn: worker threads, so that no render holds up the event loop. */
  readonly renderer: Renderer;
  /** Club auto-posting: follows members, posts waiting games, records results. */
  readonly clubs: ClubPoster;
  /** FICS TV channels: one per guild, the best game in progress. */
  readonly tv: TvPoster;
  /** The configured ChessLive! sources, relayed like FICS games. */
  readonly chesslive: ChessLiveFeed;
  /** How long an action waits for a FICS connection before saying FICS is unreachable. */
  readonly ficsWaitMs: number;
}

/**
 * Called once, before an action waits on FICS (seconds, more while it stalls), after the quick
 * checks and writes: a chat platform that must answer within a deadline (Discord's 3 seconds)
 * answers "working on it" there, so a quick failure is still answered plainly.
 */
export type Acknowledge = () => Promise<void>;
