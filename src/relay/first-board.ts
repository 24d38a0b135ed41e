// A game's first board after `observe`: the observe reply carries it, but a slow server may send
// it just after, so it is awaited for a while from the feed's updates.
import type { GameFeed } from '../game/feed.js';
import type { GameSnapshot } from '../game/snapshot.js';
import type { TrackerUpdate } from '../game/tracker.js';
import type { GameId } from '../game/game-id.js';

/** How long to wait for the first board after `observe` unless told. */
const FIRST_BOARD_TIMEOUT_MS = 10_000;

/** The game's board as the feed has it now, or the first one it sends within `timeoutMs`. */
export function awaitFirstBoard(
  feed: Pick<GameFeed, 'snapshot' | 'on' | 'off'>,
  game: GameId,
  timeoutMs = FIRST_BOARD_TIMEOUT_MS,
): Promise<GameSnapshot> {
  const now = feed.snapshot(game);
  if (now !== undefined) return Promise.resolve(now);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      feed.off('update', wait);
      reject(new Error(`Game ${game} sent no board.`));
    }, timeoutMs);
    const wait = (update: TrackerUpdate): void => {
      if (update.type === 'needs' || update.type === 'undecoded' || update.snapshot.game !== game) return;
      clearTimeout(timer);
      feed.off('update', wait);
      resolve(update.snapshot);
    };
    feed.on('update', wait);
  });
}
