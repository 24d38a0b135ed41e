// /tv's use case: its options checked where they enter, the TV service asked only with a good filter.
import { describe, expect, it } from 'vitest';
import { runTv, type TvServices } from '../../src/actions/tv.js';
import type { TvFilter } from '../../src/game/tv-score.js';

function services(): TvServices & { asked: TvFilter[] } {
  const asked: TvFilter[] = [];
  return {
    asked,
    tv: {
      turnOn: (_guildId, _channelId, filter) => {
        asked.push(filter);
        return Promise.resolve({ kind: 'waiting', why: 'nothing', detail: 'none' });
      },
      turnOff: () => Promise.resolve(true),
      show: () => Promise.resolve(null),
    },
  };
}

const on = (variant: string | null, minRating: number | null) =>
  ({ kind: 'on', guildId: 'g', channelId: 'c', variant, minRating, requestedBy: 'u' }) as const;

describe('runTv', () => {
  it('turns the TV on with chess and no minimum unless told otherwise', async () => {
    const s = services();
    expect(await runTv(on(null, null), s)).toMatchObject({
      kind: 'on',
      filter: { variant: 'chess', minRating: 0 },
    });
    expect(await runTv(on('crazyhouse', 1800), s)).toMatchObject({ kind: 'on' });
    expect(s.asked).toEqual([
      { variant: 'chess', minRating: 0 },
      { variant: 'crazyhouse', minRating: 1800 },
    ]);
  });

  it('refuses a variant or a rating it does not know, asking nothing of the TV', async () => {
    const s = services();
    expect(await runTv(on('fischerandom', null), s)).toEqual({
      kind: 'invalid',
      error:
        'Unknown variant "fischerandom": pick one of chess, crazyhouse, bughouse, atomic, wild, suicide, losers, any.',
    });
    for (const rating of [-1, 4001, 1.5])
      expect(await runTv(on(null, rating), s)).toEqual({
        kind: 'invalid',
        error: 'The minimum rating must be a whole number from 0 to 4000.',
      });
    expect(s.asked).toEqual([]);
  });

  it('turns it off and shows it', async () => {
    const s = services();
    expect(await runTv({ kind: 'off', guildId: 'g' }, s)).toEqual({ kind: 'off', wasOn: true });
    expect(await runTv({ kind: 'show', guildId: 'g' }, s)).toEqual({ kind: 'shown', tv: null, post: null });
  });
});
