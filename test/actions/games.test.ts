// The /games and /unfollow actions over small fakes.
import { describe, expect, it } from 'vitest';
import { listGames, SHOWN_GAMES, type GamesServices } from '../../src/actions/games.js';
import { unfollow, type UnfollowServices } from '../../src/actions/follow.js';
import type { GamesListRow } from '../../src/fics/games-list.js';
import { orThrow, parseHandle } from '../../src/fics/validate.js';

function row(game: number, whiteRating: string, blackRating: string): GamesListRow {
  return { game, white: `W${game}`, black: `B${game}`, whiteRating, blackRating } as GamesListRow;
}

function games(listed: GamesListRow[] | Error): GamesServices {
  const fake = {
    fics: {
      status: () => [{ name: 'a', state: 'online', handle: null, games: [] }],
      on: () => fake.fics,
      off: () => fake.fics,
      listGames: async () => {
        if (listed instanceof Error) throw listed;
        return listed;
      },
    },
    config: { fics: { host: 'fics.example', port: 5000 } },
    ficsWaitMs: 0,
  };
  return fake as unknown as GamesServices;
}

const all = { type: null, rated: null, player: null };

describe('the /games action', () => {
  it('shows the games with the highest-rated player first, unrated as 0, at most SHOWN_GAMES', async () => {
    const rows = [row(1, '1500', '++++'), row(2, '----', '2100'), row(3, '1800', '1900')];
    for (let g = 10; g < 40; g++) rows.push(row(g, '1000', '1000'));
    const listed = await listGames(all, games(rows));
    expect(listed.ok && listed.value.total).toBe(33);
    expect(listed.ok && listed.value.rows.map((r) => r.game).slice(0, 4)).toEqual([2, 3, 1, 10]);
    expect(listed.ok && listed.value.rows).toHaveLength(SHOWN_GAMES);
  });

  it('says when no game matches, and passes on what FICS threw', async () => {
    expect(await listGames(all, games([]))).toEqual({ ok: false, error: { kind: 'no-games' } });
    const failure = new Error('stalled');
    expect(await listGames(all, games(failure))).toEqual({
      ok: false,
      error: { kind: 'fics-failed', error: failure },
    });
  });
});

describe('the /unfollow action', () => {
  const handle = orThrow(parseHandle('Alice'));
  const acknowledged = async (): Promise<void> => undefined;

  function follows(options: { followed: boolean; elsewhere: number; club: boolean }) {
    const unfollowed: string[] = [];
    const services: UnfollowServices = {
      fics: { unfollow: async (h: string) => void unfollowed.push(h) },
      storage: {
        follows: {
          remove: async () => options.followed,
          listForHandle: async () => Array.from({ length: options.elsewhere }, () => ({}) as never),
        },
        clubs: { watches: async () => options.club },
      },
      logger: { warn: () => undefined },
    } as unknown as UnfollowServices;
    return { services, unfollowed };
  }

  it('lets FICS go of the player only when no channel and no club still wants them', async () => {
    const alone = follows({ followed: true, elsewhere: 0, club: false });
    expect(await unfollow({ channelId: 'c', handle }, alone.services, acknowledged)).toEqual({
      ok: true,
      value: undefined,
    });
    expect(alone.unfollowed).toEqual(['Alice']);
    for (const kept of [
      follows({ followed: true, elsewhere: 1, club: false }),
      follows({ followed: true, elsewhere: 0, club: true }),
    ]) {
      expect((await unfollow({ channelId: 'c', handle }, kept.services, acknowledged)).ok).toBe(true);
      expect(kept.unfollowed).toEqual([]);
    }
  });

  it('says the player was not followed here', async () => {
    const none = follows({ followed: false, elsewhere: 0, club: false });
    expect(await unfollow({ channelId: 'c', handle }, none.services, acknowledged)).toEqual({
      ok: false,
      error: { kind: 'not-followed' },
    });
    expect(none.unfollowed).toEqual([]);
  });
});
