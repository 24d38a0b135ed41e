// The pool: games spread over connections within the limits, registered and guest logins,
// followed players, bughouse partner boards, the games list.
import { describe, expect, it } from 'vitest';
import { FicsCapacityError, FicsCommandError } from '../../src/fics/errors.js';
import { makeSnapshotPgn } from '../../src/game/pgn.js';
import type { GameSnapshot } from '../../src/game/snapshot.js';
import { liveMessage } from '../../src/relay/message.js';
import { bughouseFixture, fixture, fixtureGames, poolOn, scriptOf, startFake, withoutId } from './harness.js';
import { gameId, gameNumber, handle } from '../support/fics-values.js';

/** Distinct players for game i, so every game is its own. */
function players(i: number): { white: string; black: string } {
  const tag = (n: number): string => String.fromCharCode(65 + Math.floor(n / 26), 65 + (n % 26));
  return { white: `White${tag(i)}`, black: `Black${tag(i)}` };
}

describe('spreading games over connections', () => {
  it('40 observed games go over two connections (30 + 10) and all end complete', async () => {
    const fake = await startFake({ dialect: 'fatics', maxObserved: 30 });
    const scripts = Array.from({ length: 40 }, (_, i) => {
      const source = fixtureGames.filter((g) => g.variant === 'chess')[i % 5]!;
      return { ...scriptOf(source, players(i)), san: source.san.slice(0, 12) };
    });
    const numbers = scripts.map((s) => fake.addGame(s));
    const h = poolOn(fake, { maxConnections: 2 });
    await h.pool.start();
    await Promise.all(numbers.map((n) => h.pool.observeGame(gameNumber(n))));

    expect(h.pool.status().map((c) => c.games.length)).toEqual([30, 10]);
    expect(fake.loggedIn().map((s) => s.observed.length)).toEqual([30, 10]);
    for (const n of numbers) fake.playAll(n);
    const ends = await Promise.all(numbers.map((n) => h.ended(n)));
    ends.forEach((end, i) => {
      expect(end.san).toEqual(scripts[i]!.san);
      expect(end.complete).toBe(true);
    });
    // No game was observed on both connections.
    expect(
      new Set(
        fake
          .commands()
          .filter((c) => /observe \d+$/.test(c))
          .map(withoutId),
      ).size,
    ).toBe(40);
  });

  it('refuses a game beyond every connection with a typed error that says what to do', async () => {
    const fake = await startFake({ dialect: 'fatics' });
    const numbers = [0, 1, 2].map((i) => fake.addGame({ ...scriptOf(fixture('lasker_flag#0'), players(i)) }));
    const h = poolOn(fake, { maxConnections: 1, maxGamesPerConnection: 2 });
    await h.pool.start();
    await h.pool.observeGame(gameNumber(numbers[0]!));
    await h.pool.observeGame(gameNumber(numbers[1]!));
    const refused = h.pool.observeGame(gameNumber(numbers[2]!));
    await expect(refused).rejects.toBeInstanceOf(FicsCapacityError);
    await expect(refused).rejects.toThrow(/raise FICS_MAX_CONNECTIONS/);
    expect(fake.commands().map(withoutId)).not.toContain(`observe ${numbers[2]}`);
  });

  it('learns a server limit lower than 30 from "You are already observing the maximum number of games."', async () => {
    const fake = await startFake({ dialect: 'lasker', maxObserved: 3 });
    const numbers = [0, 1, 2, 3, 4].map((i) => fake.addGame(scriptOf(fixture('lasker_flag#0'), players(i))));
    const h = poolOn(fake, { maxConnections: 2 });
    await h.pool.start();
    for (const n of numbers) await h.pool.observeGame(gameNumber(n));
    expect(fake.loggedIn().map((s) => s.observed.length)).toEqual([3, 2]);
    expect(h.pool.status().map((c) => c.games.length)).toEqual([3, 2]);
  });
});

describe('logins', () => {
  it('uses the registered account for the first connection and guests for the others', async () => {
    const fake = await startFake({ dialect: 'lasker', accounts: { Kibitzer: 'sesame' }, maxObserved: 1 });
    const numbers = [0, 1].map((i) => fake.addGame(scriptOf(fixture('lasker_flag#0'), players(i))));
    const h = poolOn(fake, { user: 'Kibitzer', password: 'sesame' });
    await h.pool.start();
    for (const n of numbers) await h.pool.observeGame(gameNumber(n));
    expect(fake.loggedIn().map((s) => s.name)).toEqual([
      'Kibitzer',
      expect.stringMatching(/^Guest[A-Z]{4}$/),
    ]);
    // The password went to the server once and never into the log.
    expect(fake.received.filter((r) => r.line === 'sesame')).toHaveLength(1);
    expect(JSON.stringify(h.logger.records)).not.toContain('sesame');
  });
});

describe('following players', () => {
  it("observes a followed player's current game, and their next game when it starts", async () => {
    const fake = await startFake({ dialect: 'fatics' });
    fake.addPlayer('Alice');
    const h = poolOn(fake);
    await h.pool.start();
    expect(await h.pool.follow(handle('Alice'))).toBeNull();
    expect(fake.commands().map(withoutId)).toContain('set gin 1');
    // Logged in and idle, or not logged in: followed either way, and the answer tells which.
    expect(await h.pool.followPlayer(handle('Alice'))).toEqual({ game: null, online: true });
    expect(await h.pool.followPlayer(handle('Ghost'))).toEqual({ game: null, online: false });

    fake.addGame(scriptOf(fixture('lasker_flag#0'), { white: 'Bob', black: 'Carol' }));
    const next = fake.addGame(scriptOf(fixture('lasker_flag#0'), { white: 'Dave', black: 'Alice' }));
    await fake.waitFor(() => fake.observers(next).length === 1, "Alice's new game to be observed");
    fake.playAll(next);
    const end = await h.ended(next);
    expect(end.black).toBe('Alice');
    expect(end.complete).toBe(true);
    // Only Alice's game was observed.
    expect(
      fake
        .commands()
        .filter((c) => /observe \d+$/.test(c))
        .map(withoutId),
    ).toEqual([`observe ${next}`]);

    const now = fake.addGame(scriptOf(fixture('lasker_flag#0'), { white: 'Erin', black: 'Frank' }));
    fake.playMoves(now, 3);
    expect(await h.pool.follow(handle('Frank'))).toBe(now);
  });
});

describe('following players in a fleet', () => {
  it('leaves a followed game to observeFollowed, holding nothing when another machine observes it', async () => {
    const fake = await startFake({ dialect: 'fatics' });
    fake.addPlayer('Alice');
    const asked: [number, readonly string[]][] = [];
    const h = poolOn(fake, {
      wantedBy: () => ['guild-1'],
      limitOf: () => 1,
      // Another machine holds the lease: nothing is observed here.
      observeFollowed: (game, holders) => {
        asked.push([game, holders]);
        return Promise.resolve();
      },
    });
    await h.pool.start();
    await h.pool.follow(handle('Alice'));
    const next = fake.addGame(scriptOf(fixture('lasker_flag#0'), { white: 'Dave', black: 'Alice' }));
    // The share it claimed for the game comes back once the fleet says another machine has it.
    await fake.waitFor(
      () => asked.length === 1 && h.pool.hasRoom('guild-1'),
      'the fleet to be asked, and the share given back',
    );
    expect(asked).toEqual([[next, ['guild-1']]]);
    expect(fake.commands().filter((c) => /observe \d+$/.test(c))).toEqual([]);
  });
});

describe('following players when every connection is full', () => {
  it('observes a followed game as soon as a place comes free, and drops one that ended meanwhile', async () => {
    const fake = await startFake({ dialect: 'fatics' });
    fake.addPlayer('Alice');
    const h = poolOn(fake, { maxConnections: 1, maxGamesPerConnection: 1 });
    await h.pool.start();
    fake.addPlayer('Frank');
    expect(await h.pool.follow(handle('Alice'))).toBeNull();
    expect(await h.pool.follow(handle('Frank'))).toBeNull();
    const busy = fake.addGame(scriptOf(fixture('lasker_flag#0'), { white: 'Bob', black: 'Carol' }));
    await h.pool.observeGame(gameNumber(busy));
    const waits = (): number => h.logger.records.filter((r) => r.message.includes('waits for a free')).length;

    // Both followed games find the only place taken; Frank's ends before a place frees.
    const frank = fake.addGame(scriptOf(fixture('lasker_flag#0'), { white: 'Frank', black: 'Erin' }));
    await fake.waitFor(() => waits() === 1, "Frank's game to wait");
    const alice = fake.addGame(scriptOf(fixture('lasker_flag#0'), { white: 'Dave', black: 'Alice' }));
    await fake.waitFor(() => waits() === 2, "Alice's game to wait");
    fake.endGame(frank);
    expect(fake.observers(alice)).toEqual([]);
    fake.playAll(busy);
    await h.ended(busy);
    await fake.waitFor(() => fake.observers(alice).length === 1, "Alice's game to be observed");
    fake.playAll(alice);
    const end = await h.ended(alice);
    expect(end.black).toBe('Alice');
    expect(end.complete).toBe(true);
    expect(h.errors).toEqual([]);
  });
});

describe('bughouse', () => {
  it('observing one board observes its partner board (<g1> pt=) and both histories complete', async () => {
    const fake = await startFake({ dialect: 'fatics' });
    const [a, b] = bughouseFixture.boards;
    const tc = { initialMinutes: bughouseFixture.initialMinutes, incrementSec: bughouseFixture.incrementSec };
    const script = (board: typeof a) => ({
      white: board!.white,
      black: board!.black,
      san: board!.san,
      ...tc,
    });
    const [ga, gb] = fake.addBughouse(script(a), script(b));
    const h = poolOn(fake);
    await h.pool.start();
    await h.pool.observeGame(gameNumber(ga));
    await fake.waitFor(() => fake.observers(gb).length === 1, 'the partner board to be observed');
    await h.snapshotWhen(gb, () => true, 'the partner board');
    for (const [board] of bughouseFixture.sequence) fake.playMove(board === 0 ? ga : gb);
    fake.endGame(ga, a!.result as '1-0', a!.reason);
    fake.endGame(gb, b!.result as '0-1', b!.reason);
    const [endA, endB] = await Promise.all([h.ended(ga), h.ended(gb)]);
    expect(endA.variant).toBe('bughouse');
    expect(endA.partnerGame).toBe(gb);
    expect(endA.san).toEqual(a!.san);
    expect(endB.san).toEqual(b!.san);
    expect(endA.complete && endB.complete).toBe(true);
  });
});

describe('both boards of a bughouse game from one observe, before any piece is passed', () => {
  const boards = () => {
    const [a, b] = bughouseFixture.boards;
    const tc = { initialMinutes: bughouseFixture.initialMinutes, incrementSec: bughouseFixture.incrementSec };
    return [a!, b!].map((board) => ({ white: board.white, black: board.black, san: board.san, ...tc }));
  };

  for (const [server, options] of [
    ['lasker (no pobserve, no header: the move list names the variant)', { dialect: 'lasker' }],
    ['FatICS (no pobserve, <g1> pt=0)', { dialect: 'fatics' }],
    ['a server with pobserve (freechess.org)', { dialect: 'fatics', pobserve: true }],
    // "pobserve: Command has failed.": the games list at once, not after the command's timeout.
    ['the FICS 1.6.2 lineage (unknown commands "have failed")', { dialect: 'uhlin' }],
  ] as const) {
    it(server, async () => {
      const fake = await startFake(options);
      const [a, b] = boards();
      const [ga, gb] = fake.addBughouse(a!, b!);
      const h = poolOn(fake, { commandTimeoutMs: 60_000 });
      await h.pool.start();
      await h.pool.observeGame(gameNumber(ga));
      await fake.waitFor(() => fake.observers(gb).length === 1, 'the partner board to be observed');
      const paired = await h.snapshotWhen(ga, (s) => s.partnerGame === gb, 'board A paired');
      expect(paired.san).toEqual([]);
      expect(paired.variant).toBe('bughouse');
      expect((await h.snapshotWhen(gb, (s) => s.partnerGame === ga, 'board B paired')).san).toEqual([]);
      const sent = fake.commands().map(withoutId);
      expect(sent.filter((c) => c.startsWith('pobserve'))).toEqual([`pobserve ${a!.white}`]);
      expect(sent.includes('games')).toBe(!('pobserve' in options));
      expect(h.errors).toEqual([]);
    });
  }

  it('lets the partner board go when the board it was observed for is unobserved', async () => {
    const fake = await startFake({ dialect: 'fatics' });
    const [a, b] = boards();
    const [ga, gb] = fake.addBughouse(a!, b!);
    const h = poolOn(fake);
    await h.pool.start();
    await h.pool.observeGame(gameNumber(ga), 'guild');
    await h.snapshotWhen(ga, (s) => s.partnerGame === gb, 'board A paired');
    await h.pool.unobserve(gameNumber(ga), 'guild');
    await fake.waitFor(() => fake.observers(gb).length === 0, 'the partner board to be let go');
    expect(fake.observers(ga)).toEqual([]);
    expect(h.errors).toEqual([]);
  });

  it('answers /games on a server with no game in progress at once (both servers say only one sentence)', async () => {
    for (const dialect of ['lasker', 'fatics'] as const) {
      const fake = await startFake({ dialect });
      const h = poolOn(fake, { commandTimeoutMs: 60_000 });
      await h.pool.start();
      // Unrecognised, this would wait the 60 s and fail the test's own time limit first.
      expect(await Promise.all([h.pool.listGames(), h.pool.listGames()])).toEqual([[], []]);
    }
  });
});

describe('a reply Kibitz does not recognise', () => {
  it('does not hold the same command sent after it (lasker, no block mode)', async () => {
    let games = 0;
    const fake = await startFake({
      dialect: 'lasker',
      answer: (command) =>
        command === 'games' && ++games === 1 ? ['Counting the games, please wait.'] : undefined,
    });
    fake.addGame(scriptOf(fixture('lasker_flag#0'), { white: 'Alice', black: 'Bob' }));
    const h = poolOn(fake, { commandTimeoutMs: 60_000 });
    await h.pool.start();
    const first = h.pool.listGames();
    await fake.waitFor(() => games === 1, 'the first games to be answered oddly');
    // Unshared, the first would take the second's answer and leave it the 60 s to wait.
    const [a, b] = await Promise.all([first, h.pool.listGames()]);
    expect(a.map((r) => r.white)).toEqual(['Alice']);
    expect(b).toEqual(a);
  });
});

describe('one title whatever the way in', () => {
  it('lasker: a game observed from move 1 (no header) and one joined late read the same', async () => {
    const fake = await startFake({ dialect: 'lasker' });
    const first = fake.addGame(scriptOf(fixture('lasker_flag#0'), { white: 'Alice', black: 'Bob' }));
    const late = fake.addGame(scriptOf(fixture('lasker_flag#0'), { white: 'Carol', black: 'Dave' }));
    fake.playMoves(late, 6);
    const h = poolOn(fake);
    await h.pool.start();
    // By player (as /observe player: and /follow do) and by number.
    await h.pool.observePlayer(handle('Alice'));
    await h.pool.observeGame(gameNumber(late));
    const kind = (s: GameSnapshot): string =>
      liveMessage(s, { name: 'x.png', data: Buffer.alloc(0) }).lines[0]!;
    const a = await h.snapshotWhen(first, (s) => s.type !== null && s.needs === null, 'the first game named');
    const b = await h.snapshotWhen(late, (s) => s.type !== null && s.needs === null, 'the late game named');
    expect(kind(a)).toBe('unrated lightning 1+0');
    expect(kind(b)).toBe(kind(a));
    // The PGN names the server actually used, not always freechess.org.
    expect(makeSnapshotPgn(a)).toContain('[Site "127.0.0.1"]');
  });
});

describe('games list and requests', () => {
  it('lists the games on the server, filtered', async () => {
    const fake = await startFake({ dialect: 'lasker' });
    fake.addGame({ ...scriptOf(fixture('lasker_flag#0'), { white: 'Alice', black: 'Bob' }), rated: true });
    fake.addGame({ ...scriptOf(fixture('lasker_crazyhouse#1'), { white: 'Carol', black: 'Dave' }) });
    const h = poolOn(fake);
    await h.pool.start();
    const all = await h.pool.listGames();
    expect(all.map((r) => [r.game, r.white, r.black, r.type, r.rated])).toEqual([
      [1, 'Alice', 'Bob', 'lightning', true],
      [2, 'Carol', 'Dave', 'crazyhouse', false],
    ]);
    expect((await h.pool.listGames({ rated: true })).map((r) => r.game)).toEqual([1]);
    expect((await h.pool.listGames({ types: ['crazyhouse'] })).map((r) => r.game)).toEqual([2]);
    expect((await h.pool.listGames({ player: handle('dave') })).map((r) => r.game)).toEqual([2]);
  });

  it('unobserves a game: no more updates for it, and the server stops sending', async () => {
    const fake = await startFake({ dialect: 'fatics' });
    const n = fake.addGame(scriptOf(fixture('lasker_flag#0')));
    const h = poolOn(fake);
    await h.pool.start();
    await h.pool.observeGame(gameNumber(n));
    fake.playMoves(n, 2);
    await h.snapshotWhen(n, (s) => s.san.length === 2, '2 moves');
    await h.pool.unobserve(gameNumber(n));
    expect(fake.observers(n)).toEqual([]);
    expect(h.pool.snapshot(gameId(n))).toBeUndefined();
    await expect(h.pool.moves(gameNumber(n))).rejects.toBeInstanceOf(FicsCommandError);
  });

  it('reports a game number that names no game', async () => {
    const fake = await startFake({ dialect: 'lasker' });
    const h = poolOn(fake);
    await h.pool.start();
    await expect(h.pool.observeGame(gameNumber(77))).rejects.toMatchObject({ code: 'noSuchGame' });
    await expect(h.pool.observePlayer(handle('Nobody'))).rejects.toMatchObject({ code: 'notLoggedIn' });
    expect(h.pool.status()[0]!.games).toEqual([]);
  });
});
