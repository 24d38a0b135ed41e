// Which game a post shows, across restarts: a server reuses game numbers, so the players are part
// of it (the tracker's own keys do not survive a restart).
import type { GameSnapshot } from './snapshot.js';

/** Stable across restarts: number and players. */
export function gameKeyOf(snapshot: GameSnapshot): string {
  return `${snapshot.game}:${snapshot.white}:${snapshot.black}`;
}
