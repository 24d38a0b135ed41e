// Which club channels want a game that has just started: the club's rules (mode, pairings,
// filters) applied to the game, minus the clubs that posted this game already.
import { isChessLive } from '../game/game-id.js';
import type { GameSnapshot } from '../game/snapshot.js';
import type { AutoPostSource, AutoPostTarget } from '../relay/auto-post.js';
import { gameKeyOf } from '../relay/game-key.js';
import type { Club, Storage } from '../storage/index.js';
import { decide, isMember } from './rules.js';

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
export function clubsWanting(snapshot: GameSnapshot, storage: Storage): (Club & { channelId: string })[] {
  // ChessLive! players are names from a file, not FICS handles.
  if (isChessLive(snapshot) || snapshot.ended) return [];
  const key = gameKeyOf(snapshot);
  return storage.clubs
    .clubsFor(snapshot.white, snapshot.black)
    .filter((club): club is Club & { channelId: string } => club.channelId !== null)
    .filter(
      (club) => decide(club, snapshot) === 'post' && storage.clubs.openGame(club.guildId, key) === null,
    );
}

export const clubTargets: AutoPostSource = (snapshot, storage) =>
  clubsWanting(snapshot, storage).map((club) => clubTarget(club, snapshot));
