// Fair shares of the pool's observation places: the rule itself, then the pool against the fake
// FICS server (claims taken before FICS is asked, followed games served fairly when a place
// frees, repeated game notices observed once).
import { describe, expect, it } from 'vitest';
import { FicsShareError } from '../../src/fics/errors.js';
import { Shares } from '../../src/fics/shares.js';
import { fixture, poolOn, scriptOf, startFake, withoutId } from './harness.js';
import { gameNumber, handle } from '../support/fics-values.js';

const observes = (commands: string[]): string[] =>
  commands.map(withoutId).filter((c) => /^observe \d+$/.test(c));

describe('the share rule', () => {
  it('leaves one share free for a newcomer, and never goes under one game', () => {
    const shares = new Shares();
    // Alone: floor(60 / 2).
    expect(shares.limit('a', 60, [])).toBe(30);
    for (let game = 1; game <= 30; game++) shares.claim('a', game);
    expect(shares.hasRoom('a', 60, [])).toBe(false);
    // A second server: floor(60 / 3) each; the first holds more than that and gets nothing more.
    expect(shares.limit('b', 60, [])).toBe(20);
    expect(shares.hasRoom('b', 60, [])).toBe(true);
    expect(shares.limit('a', 60, ['b'])).toBe(20);
    expect(new Shares().limit('x', 3, ['p', 'q', 'r', 's'])).toBe(1);
  });

  it("takes the holder's own limit when it is lower, and counts reservations", () => {
    const shares = new Shares({ limitOf: (holder) => (holder === 'small' ? 2 : 100) });
    expect(shares.limit('small', 60, [])).toBe(2);
    const place = shares.reserve('small');
    shares.claim('small', 7);
    expect(shares.hasRoom('small', 60, [])).toBe(false);
    place.settle(null);
    expect(shares.hasRoom('small', 60, [])).toBe(true);
  });

  it('keeps a game held by two holders until both let go', () => {
    const shares = new Shares();
    shares.claim('a', 5);
    shares.claim('b', 5);
    expect(shares.release('a', 5)).toBe(1);
    expect(shares.holders(5)).toEqual(['b']);
    expect(shares.release('b', 5)).toBe(0);
    expect(shares.holdings('b')).toBe(0);
  });
});

describe('the pool with holders', () => {
  it('checks and takes the share before FICS answers: concurrent asks cannot all pass', async () => {
    const fake = await startFake({ dialect: 'fatics', replyDelayMs: 100 });
    const games = Array.from({ length: 8 }, (_, i) =>
      fake.addGame(scriptOf(fixture('lasker_flag#0'), { white: `W${'ABCDEFGH'[i]}`, black: 'Foe' })),
    );
    const h = poolOn(fake, { maxConnections: 1, maxGamesPerConnection: 8 });
    await h.pool.start();
    const results = await Promise.allSettled(
      games.map((game) => h.pool.observeGame(gameNumber(game), 'guild')),
    );
    // floor(8 / 2) = 4 places for a server alone.
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(4);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(refused.every((r) => r.reason instanceof FicsShareError)).toBe(true);
    expect(observes(fake.commands())).toHaveLength(4);
    // A failed observe gives its claim back.
    await expect(h.pool.observeGame(gameNumber(999), 'other')).rejects.toThrow(/no such game/i);
    expect(h.pool.hasRoom('other')).toBe(true);
  });

  it('serves a waiting game of the server holding least first, not the older games of a greedy one', async () => {
    const fake = await startFake({ dialect: 'fatics' });
    const followers: Record<string, string> = {};
    const handles = ['AnnA', 'AnnB', 'AnnC', 'AnnD', 'BenA', 'BenB'];
    for (const handle of handles) {
      fake.addPlayer(handle);
      followers[handle.toLowerCase()] = handle.startsWith('Ann') ? 'greedy' : 'modest';
    }
    const h = poolOn(fake, {
      maxConnections: 1,
      maxGamesPerConnection: 6,
      wantedBy: (players) => [
        ...new Set(players.map((p) => followers[p.toLowerCase()]).filter((g) => g !== undefined)),
      ],
    });
    await h.pool.start();
    for (const name of handles) await h.pool.follow(handle(name));
    let opponents = 0;
    const start = (white: string): number =>
      fake.addGame(scriptOf(fixture('lasker_flag#0'), { white, black: `Foe${'ABCDEFGHIJ'[opponents++]}` }));
    const observed = (game: number): boolean => fake.observers(game).length === 1;

    // The greedy server alone: floor(6 / 2) = 3 of its four games, the fourth waits.
    const ann = ['AnnA', 'AnnB', 'AnnC', 'AnnD'].map(start);
    await fake.waitFor(() => ann.slice(0, 3).every(observed), "three of Ann's games");
    expect(h.pool.waitingHolders()).toEqual(['greedy']);
    // The modest server: floor(6 / 3) = 2; it holds nothing, so its first game is observed now.
    const benA = start('BenA');
    await fake.waitFor(() => observed(benA), "Ben's first game");
    const benB = start('BenB');
    await fake.waitFor(() => observed(benB), "Ben's second game");
    expect(observed(ann[3]!)).toBe(false);

    // A place frees when Ben's game ends; greedy holds 3, over its share of 2: its waiting game
    // stays waiting, and Ben's next game takes the place.
    fake.playAll(benA);
    await h.ended(benA);
    const benNext = start('BenA');
    await fake.waitFor(() => observed(benNext), "Ben's next game");
    expect(observed(ann[3]!)).toBe(false);
    expect(h.pool.waitingHolders()).toEqual(['greedy']);

    // Greedy's games end until it is under its share: its waiting game is observed at last.
    fake.playAll(ann[0]!);
    fake.playAll(ann[1]!);
    await fake.waitFor(() => observed(ann[3]!), "Ann's waiting game");
    expect(h.pool.waitingHolders()).toEqual([]);
    expect(h.errors).toEqual([]);
  });

  it('forgets a waiting game that ends before a place frees', async () => {
    const fake = await startFake({ dialect: 'fatics' });
    for (const handle of ['AnnA', 'AnnB']) fake.addPlayer(handle);
    const h = poolOn(fake, { maxConnections: 1, maxGamesPerConnection: 2, wantedBy: () => ['club'] });
    await h.pool.start();
    for (const name of ['AnnA', 'AnnB']) await h.pool.follow(handle(name));
    // Alone, floor(2 / 2) = 1 game.
    const first = fake.addGame(scriptOf(fixture('lasker_flag#0'), { white: 'AnnA', black: 'FoeA' }));
    const second = fake.addGame(scriptOf(fixture('lasker_flag#0'), { white: 'AnnB', black: 'FoeB' }));
    await fake.waitFor(() => h.pool.waitingHolders().length === 1, 'the second game to wait');
    fake.endGame(second);
    await fake.waitFor(() => h.pool.waitingHolders().length === 0, 'the ended game forgotten');
    fake.playAll(first);
    await h.ended(first);
    await h.pool.listGames();
    expect(observes(fake.commands())).toEqual([`observe ${first}`]);
  });

  it('100,000 notices of one followed game send one observe', async () => {
    const fake = await startFake({ dialect: 'fatics' });
    fake.addPlayer('Alice');
    // Reading 5 MB of notices takes seconds on a loaded machine: the command bound of the fast
    // harness (2 s) would fail the `games` round trip below on time alone, which is not the subject.
    const h = poolOn(fake, { commandTimeoutMs: 30_000 });
    await h.pool.start();
    await h.pool.follow(handle('Alice'));
    // A game FICS does not have: each observe of it is refused, so nothing else stops a repeat.
    const notice = '{Game 77 (Alice vs. Bob) Creating rated blitz match.}\n';
    fake.sendRaw(notice);
    await fake.waitFor(
      () => h.logger.records.some((r) => r.message.includes('ended before a place came free')),
      'the first observe to be refused',
    );
    fake.sendRaw(notice.repeat(100_000));
    // A round trip after the notices: every one of them has been read when it is answered.
    await h.pool.listGames();
    expect(observes(fake.commands())).toEqual(['observe 77']);
  });
});

describe('game-start notices from a hostile server', () => {
  it('are counted, not logged one by one', async () => {
    const fake = await startFake({ dialect: 'fatics' });
    fake.addPlayer('Alice');
    // Nobody has room: every followed game waits, and each wait once made a log line.
    const h = poolOn(fake, { wantedBy: () => ['full'], limitOf: () => 0 });
    await h.pool.start();
    await h.pool.follow(handle('Alice'));
    const notices = Array.from(
      { length: 1_000 },
      (_, i) => `{Game ${i + 1} (Alice vs. Bob) Creating rated blitz match.}\n`,
    );
    fake.sendRaw(notices.join(''));
    // A round trip after the notices: every one of them has been read when it is answered.
    await h.pool.listGames();
    const waits = h.logger.records.filter((r) => r.message === 'followed game waits for a free FICS place');
    expect(waits.length).toBeGreaterThan(0);
    expect(waits.length).toBeLessThanOrEqual(10);
  });
});
