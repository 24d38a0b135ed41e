// /club: a server's chess club. Each change is stored, then FICS follows the handles the clubs
// now watch (and unfollows those nobody needs); games running now are offered afterwards.
import type { ClubGameType, ClubMode, Pairing } from '../game/club-rules.js';
import type { Handle } from '../protocol/handle.js';
import type { Club, ClubGame, ClubSettings } from '../storage/index.js';
import { err, ok, type Result } from '../result.js';
import type { Acknowledge, Services } from './services.js';

export interface ClubServices {
  readonly storage: { readonly clubs: Services['storage']['clubs'] };
  readonly clubs: Pick<Services['clubs'], 'syncFollows' | 'offerObserved'>;
}

/** A club change made: what it did, and what following its handles on FICS gave. */
export interface ClubChanged<T> {
  readonly done: T;
  /** False while the club has no channel: nothing is posted yet. */
  readonly hasChannel: boolean;
  /** Handles FICS did not take, and its error. */
  readonly problems: readonly { readonly handle: string; readonly error: unknown }[];
  /** New handles past the lookups made at once: followed for their next game only. */
  readonly later: number;
}

async function changeClub<T>(
  guildId: string,
  change: () => Promise<T>,
  services: ClubServices,
  acknowledge: Acknowledge,
): Promise<ClubChanged<T>> {
  const before = await services.storage.clubs.watchedHandles();
  const done = await change();
  // Following may wait for FICS.
  await acknowledge();
  const { problems, later } = await services.clubs.syncFollows(before);
  const club = await services.storage.clubs.get(guildId);
  return { done, hasChannel: club.channelId !== null, problems, later };
}

/** After a change was answered: the games being observed now that the club wants are posted. */
export function offerClubGames(guildId: string, services: ClubServices): Promise<void> {
  return services.clubs.offerObserved(guildId);
}

/** Who changes the club, where. */
export interface ClubActor {
  readonly guildId: string;
  /** The user id, kept with the change. */
  readonly by: string;
}

/** Adds a member: `done` is false when they were one already. */
export function addMember(
  actor: ClubActor,
  handle: Handle,
  services: ClubServices,
  acknowledge: Acknowledge,
): Promise<ClubChanged<boolean>> {
  return changeClub(
    actor.guildId,
    () => services.storage.clubs.addMember(actor.guildId, handle, actor.by),
    services,
    acknowledge,
  );
}

export async function removeMember(
  guildId: string,
  handle: Handle,
  services: ClubServices,
  acknowledge: Acknowledge,
): Promise<Result<ClubChanged<void>, { readonly kind: 'not-member' }>> {
  const members = await services.storage.clubs.members(guildId);
  if (!members.some((m) => m.toLowerCase() === handle.toLowerCase())) return err({ kind: 'not-member' });
  return ok(
    await changeClub(
      guildId,
      async () => {
        await services.storage.clubs.removeMember(guildId, handle);
      },
      services,
      acknowledge,
    ),
  );
}

export function getClub(guildId: string, services: ClubServices): Promise<Club> {
  return services.storage.clubs.get(guildId);
}

/** Where club games are posted (the caller checked the bot may post there). */
export function setClubChannel(
  actor: ClubActor,
  place: { readonly channelId: string; readonly thread: boolean },
  services: ClubServices,
  acknowledge: Acknowledge,
): Promise<ClubChanged<void>> {
  return changeClub(
    actor.guildId,
    async () => {
      await services.storage.clubs.update(actor.guildId, place, actor.by);
    },
    services,
    acknowledge,
  );
}

/** Sets the mode; `done` is true when the mode is pairings and none are listed yet. */
export function setClubMode(
  actor: ClubActor,
  mode: ClubMode,
  services: ClubServices,
  acknowledge: Acknowledge,
): Promise<ClubChanged<boolean>> {
  return changeClub(
    actor.guildId,
    async () => {
      await services.storage.clubs.update(actor.guildId, { mode }, actor.by);
      return mode === 'pairings' && (await services.storage.clubs.pairings(actor.guildId)).length === 0;
    },
    services,
    acknowledge,
  );
}

/** Sets the pairings (none clears them); `done` is true when the mode makes them count. */
export function setClubPairings(
  guildId: string,
  pairings: readonly Pairing[],
  services: ClubServices,
  acknowledge: Acknowledge,
): Promise<ClubChanged<boolean>> {
  return changeClub(
    guildId,
    async () => {
      await services.storage.clubs.setPairings(guildId, pairings);
      return (await services.storage.clubs.settings(guildId)).mode === 'pairings';
    },
    services,
    acknowledge,
  );
}

/** Rated games only or not, and the game types; null leaves a setting as it is. */
export function setClubFilter(
  actor: ClubActor,
  filter: { readonly rated: boolean | null; readonly types: readonly ClubGameType[] | null | undefined },
  services: ClubServices,
  acknowledge: Acknowledge,
): Promise<ClubChanged<ClubSettings>> {
  return changeClub(
    actor.guildId,
    () =>
      services.storage.clubs.update(
        actor.guildId,
        {
          ...(filter.rated === null ? {} : { ratedOnly: filter.rated }),
          ...(filter.types === undefined ? {} : { types: filter.types }),
        },
        actor.by,
      ),
    services,
    acknowledge,
  );
}

/** The club's games that finished since `since` (ms since the epoch). */
export function clubResults(guildId: string, since: number, services: ClubServices): Promise<ClubGame[]> {
  return services.storage.clubs.results(guildId, since);
}
