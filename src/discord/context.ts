// What every command and component handler receives besides the interaction: the services
// src/app.ts starts. Handlers reach them only through this.
import type { Renderer } from '../../render/index.js';
import type { ClubPoster } from '../club/poster.js';
import type { TvPoster } from '../club/tv.js';
import type { Config } from '../config.js';
import type { FicsPool } from '../fics/pool.js';
import type { ChessLiveFeed } from '../chesslive/feed.js';
import type { Relay } from '../relay/relay.js';
import type { Logger } from '../log.js';
import type { Storage } from '../storage/index.js';
import type { CommandRegistry } from './loader.js';

export interface BotContext {
  readonly config: Config;
  readonly logger: Logger;
  readonly storage: Storage;
  /** The loaded slash commands (for /help). */
  readonly commands: CommandRegistry;
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
  /** How long a command waits for a FICS connection before telling the user FICS is unreachable. */
  readonly ficsWaitMs: number;
}
