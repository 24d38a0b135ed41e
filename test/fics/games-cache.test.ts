// The shared games list: one request in flight, none sooner than the list's age allows (a failed
// one neither), the last good list kept for when FICS is slow or down. Time from a test clock.
import { describe, expect, it } from 'vitest';
import { GamesCache } from '../../src/fics/games-cache.js';
import type { GamesListRow } from '../../src/fics/games-list.js';

const row = (game: number): GamesListRow => ({ game }) as GamesListRow;

function cache() {
  let now = 0;
  const asked: { resolve: (rows: GamesListRow[]) => void; reject: (error: Error) => void }[] = [];
  const games = new GamesCache({
    fetch: () => new Promise((resolve, reject) => asked.push({ resolve, reject })),
    now: () => now,
    maxAgeMs: 5_000,
  });
  return { games, asked, advance: (ms: number) => (now += ms) };
}

describe('the shared games list', () => {
  it('sends one request for any number of askers while one is in flight', async () => {
    const { games, asked } = cache();
    const answers = Array.from({ length: 300 }, () => games.rows());
    expect(asked).toHaveLength(1);
    asked[0]!.resolve([row(1)]);
    for (const answer of answers) expect(await answer).toEqual([row(1)]);
  });

  it('answers from the last list until it is older than its age, then asks again', async () => {
    const { games, asked, advance } = cache();
    const first = games.rows();
    asked[0]!.resolve([row(1)]);
    await first;
    advance(4_999);
    expect(await games.rows()).toEqual([row(1)]);
    expect(asked).toHaveLength(1);
    advance(1);
    const second = games.rows();
    expect(asked).toHaveLength(2);
    asked[1]!.resolve([row(2)]);
    expect(await second).toEqual([row(2)]);
  });

  it('does not retry a failed request sooner, and keeps the last good list', async () => {
    const { games, asked, advance } = cache();
    const first = games.rows();
    asked[0]!.resolve([row(1)]);
    await first;
    advance(5_000);
    const failing = games.rows();
    asked[1]!.reject(new Error('FICS is down'));
    await expect(failing).rejects.toThrow('FICS is down');
    await expect(games.rows()).rejects.toThrow('FICS is down');
    expect(asked).toHaveLength(2);
    expect(games.known()).toEqual([row(1)]);
  });
});
