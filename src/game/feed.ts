// The games side, as the relay, the web page, the fleet and clubs consume it: the FICS pool, the
// ChessLive! files or the fleet's feed, each a GameFeed.
import type { Handle } from '../protocol/handle.js';
import type { GameSnapshot } from './snapshot.js';
import type { TrackerUpdate } from './tracker.js';

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
