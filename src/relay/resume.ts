// After a restart: every game that still has live posts (of this process's guilds) is observed
// again. A game that is gone or now shows other players ended while the bot was away; when it
// ended just before (its final edit cut off), its stored PGN gives the final edit.
import type { GameSnapshot } from '../game/snapshot.js';
import type { Logger } from '../log.js';
import { errorMessage } from '../result.js';
import type { FinishedGame, LivePost, Storage } from '../storage/index.js';
import { gameKeyOf } from '../game/game-key.js';
import type { GameId } from '../game/game-id.js';

/** What resuming does with each post, in the relay's hands. */
export interface ResumeSteps {
  storage: Storage;
  logger: Logger;
  owns(guildId: string): boolean;
  /** Observes a game for a guild that held it before the restart (whatever its share). */
  observe(game: GameId, guildId: string): Promise<GameSnapshot>;
  /** The game goes on: the post is brought up to date. */
  show(post: LivePost, snapshot: GameSnapshot): void;
  /** The game ended just before the restart: the final edit from its stored PGN. */
  finishStored(post: LivePost, game: FinishedGame): Promise<void>;
  /** The game ended while the bot was away and nothing of its end is known. */
  endedOffline(post: LivePost): Promise<void>;
  release(game: GameId, guildId: string): Promise<void>;
}

export async function resumeLivePosts(steps: ResumeSteps): Promise<void> {
  const posts = (await steps.storage.livePosts.listLive()).filter((post) => steps.owns(post.guildId));
  const games = new Map<GameId, LivePost[]>();
  for (const post of posts) games.set(post.game, [...(games.get(post.game) ?? []), post]);
  // All games at once: one slow or vanished game must not hold up the others' posts.
  await Promise.all([...games].map(([game, waiting]) => resumeGame(steps, game, waiting)));
}

async function resumeGame(steps: ResumeSteps, game: GameId, waiting: LivePost[]): Promise<void> {
  let snapshot: GameSnapshot | null = null;
  const guilds = [...new Set(waiting.map((post) => post.guildId))];
  try {
    // Each guild holds the game again as before the restart, share or not.
    for (const guildId of guilds) snapshot = await steps.observe(game, guildId);
  } catch (error) {
    steps.logger.info({ game, error: errorMessage(error) }, 'game gone after restart');
  }
  for (const post of waiting) {
    const finished = await steps.storage.finishedGames.get(post.gameKey);
    if (snapshot !== null && gameKeyOf(snapshot) === post.gameKey) {
      steps.show(post, snapshot);
    } else if (finished !== null && finished.endedAt >= post.createdAt) {
      await steps.finishStored(post, finished);
    } else {
      await steps.endedOffline(post);
    }
  }
  if (snapshot !== null && waiting.every((p) => gameKeyOf(snapshot) !== p.gameKey)) {
    for (const guildId of guilds) await steps.release(game, guildId);
  }
}
