// The games side, as the relay, the web page, the fleet and clubs consume it: the FICS pool, the
// ChessLive! files or the fleet's feed, each a GameFeed.
import type { Handle } from '../protocol/handle.js';
import type { GameId } from './game-id.js';
import type { GameSnapshot } from './snapshot.js';
import type { TrackerUpdate } from './tracker.js';

/**
 * The games side: what the relay needs from the FICS pool. `Id` and `S` narrow it for one source
 * (the FICS side takes and tells of FICS game numbers only).
 */
export interface GameFeed<Id extends GameId = GameId, S extends GameSnapshot = GameSnapshot> {
  /** `holder` = the guild that wants the game: it counts in that guild's share from now. */
  observeGame(game: Id, holder?: string, kept?: boolean): Promise<Id>;
  /** The game a player plays now, observed for `holder` as above; resolves with its number. */
  observePlayer?(handle: Handle, holder?: string): Promise<Id>;
  /** With a holder, gives back that guild's claim (the game stays observed for the others). */
  unobserve(game: Id, holder?: string): Promise<void>;
  snapshot(game: GameId): S | undefined;
  on(event: 'update', listener: (update: TrackerUpdate<S>) => void): unknown;
  off(event: 'update', listener: (update: TrackerUpdate<S>) => void): unknown;
}
