// Which club channels want a game that has just started: the club's rules (mode, pairings,
// filters) applied to the game, minus the clubs that posted this game already.
import { isChessLive } from '../game/game-id.js';
import type { GameSnapshot } from '../game/snapshot.js';
import type { AutoPostSource, AutoPostTarget } from '../relay/auto-post.js';
import { gameKeyOf } from '../game/game-key.js';
import type { Club, Storage } from '../storage/index.js';
import { decide, isMember } from '../game/club-rules.js';

/** Live posts of clubs name no Discord user: only someone with Manage Messages may stop them. */
export const CLUB_REQUESTER = 'club';

/** The club's post of a game: Black at the bottom when only Black is a member. */
export function clubTarget(club: Club & { channelId: string }, snapshot: GameSnapshot): AutoPostTarget {
  return {
    guildId: club.guildId,
    channelId: club.channelId,
    options: {
      flip: isMember(club, snapshot.black) && !isMember(club, snapshot.white),
      thread: club.thread,
    },
    requestedBy: CLUB_REQUESTER,
  };
}

/** Clubs whose rules take the game and that have not posted it yet. */
export async function clubsWanting(
  snapshot: GameSnapshot,
  storage: Storage,
): Promise<(Club & { channelId: string })[]> {
  // ChessLive! players are names from a file, not FICS handles.
  if (isChessLive(snapshot) || snapshot.ended) return [];
  const key = gameKeyOf(snapshot);
  const wanting: (Club & { channelId: string })[] = [];
  for (const club of await storage.clubs.clubsFor(snapshot.white, snapshot.black)) {
    if (club.channelId === null || decide(club, snapshot) !== 'post') continue;
    if ((await storage.clubs.openGame(club.guildId, key)) === null)
      wanting.push({ ...club, channelId: club.channelId });
  }
  return wanting;
}

export const clubTargets: AutoPostSource = async (snapshot, storage) =>
  (await clubsWanting(snapshot, storage)).map((club) => clubTarget(club, snapshot));
