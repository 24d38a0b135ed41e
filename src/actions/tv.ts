// /tv as a use case: turn a guild's FICS TV on (a channel and a filter), off, or say what it shows.
// Plain inputs in, a plain result out; commands/tv.ts is the Discord side.
import type { TvOutcome, TvPoster } from '../club/tv.js';
import { MAX_TV_RATING, TV_VARIANTS, type TvFilter, type TvVariant } from '../game/tv-score.js';
import type { LivePost, TvChannel } from '../storage/index.js';

export interface TvServices {
  tv: Pick<TvPoster, 'turnOn' | 'turnOff' | 'show'>;
}

export type TvRequest =
  | {
      kind: 'on';
      guildId: string;
      channelId: string;
      /** As typed or chosen; `chess` when absent. */
      variant: string | null;
      minRating: number | null;
      requestedBy: string;
    }
  | { kind: 'off'; guildId: string }
  | { kind: 'show'; guildId: string };

export type TvResult =
  | { kind: 'invalid'; error: string }
  | { kind: 'on'; channelId: string; filter: TvFilter; outcome: TvOutcome }
  | { kind: 'off'; wasOn: boolean }
  | { kind: 'shown'; tv: TvChannel | null; post: LivePost | null };

/** The filter from the options, or why not: the variant one of TV_VARIANTS, the rating 0 to 4000. */
export function parseTvFilter(variant: string | null, minRating: number | null): TvFilter | string {
  const chosen = variant ?? 'chess';
  if (!(TV_VARIANTS as readonly string[]).includes(chosen))
    return `Unknown variant "${chosen.slice(0, 40)}": pick one of ${TV_VARIANTS.join(', ')}.`;
  const rating = minRating ?? 0;
  if (!Number.isSafeInteger(rating) || rating < 0 || rating > MAX_TV_RATING)
    return `The minimum rating must be a whole number from 0 to ${MAX_TV_RATING}.`;
  return { variant: chosen as TvVariant, minRating: rating };
}

export async function runTv(request: TvRequest, services: TvServices): Promise<TvResult> {
  switch (request.kind) {
    case 'on': {
      const filter = parseTvFilter(request.variant, request.minRating);
      if (typeof filter === 'string') return { kind: 'invalid', error: filter };
      const outcome = await services.tv.turnOn(
        request.guildId,
        request.channelId,
        filter,
        request.requestedBy,
      );
      return { kind: 'on', channelId: request.channelId, filter, outcome };
    }
    case 'off':
      return { kind: 'off', wasOn: await services.tv.turnOff(request.guildId) };
    case 'show': {
      const shown = await services.tv.show(request.guildId);
      return { kind: 'shown', tv: shown?.tv ?? null, post: shown?.post ?? null };
    }
  }
}
