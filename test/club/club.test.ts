// Club auto-posting through the real bot: fake Discord, fake FICS, real SQLite and renders. A club
// gets exactly the games its rules want, once each, across a FICS reconnect and a bot restart.
import { afterEach, describe, expect, it } from 'vitest';
import { World, buttonIds, embedOf, shuffleScript } from '../e2e/harness.js';
import type { GameScript } from '../fake-fics/game.js';
import { boardPosts, notices, postOf, titleHas } from './posts.js';

let w: World | null = null;
afterEach(async () => {
  await w?.close();
  w = null;
});

async function startWorld(dbFile = false): Promise<World> {
  // Edits as fast as the games move: this is about which games are posted, not rate limits.
  w = await World.start({
    dbFile,
    discord: { rateLimits: { messageEdit: { limit: 10_000, windowMs: 1_000 } } },
  });
  return w;
}

/** Runs `/club <sub>` as the server owner (Manage Server) and returns the ephemeral answer. */
async function club(world: World, sub: string, options: Record<string, string | number | boolean> = {}) {
  const reply = await world.command(`club ${sub}`, options, { user: world.fake.owner }).reply();
  expect(reply.ephemeral).toBe(true);
  return reply.content;
}

function game(white: string, black: string, extra: Partial<GameScript> = {}): GameScript {
  return shuffleScript(40, {
    white,
    black,
    result: '1/2-1/2',
    reason: 'Game drawn by repetition',
    ...extra,
  });
}

/** The game was observed for the club, found unwanted, and let go. */
async function released(world: World, number: number): Promise<void> {
  await world.fics.waitFor(
    () =>
      world.fics.commands().some((c) => c.endsWith(`unobserve ${number}`)) &&
      world.fics.observers(number).length === 0,
    `game ${number} observed and let go`,
    15_000,
  );
}

describe('club posting', () => {
  it('posts games between members once each, across a FICS reconnect and a bot restart', async () => {
    const world = await startWorld(true);
    await world.startBot();
    expect(await club(world, 'channel')).toBe(`Club games are posted in <#${world.channelId}>.`);
    for (const handle of ['Alice', 'Bob', 'Carol', 'Dave']) {
      expect(await club(world, 'add', { handle })).toBe(`${handle} is a club member now.`);
    }
    expect(await club(world, 'mode', { mode: 'members' })).toBe('Posting only games between two members.');

    const g1 = world.fics.addGame(game('Alice', 'Bob'));
    const g2 = world.fics.addGame(game('Alice', 'Xavier'));
    const post1 = await postOf(world, 'Alice', 'Bob');
    expect(embedOf(post1).title).toBe(`Game ${g1}: Alice (++++) vs Bob (++++)`);
    // Alice is followed, so her game with a non-member is observed, then let go.
    await released(world, g2);
    world.fics.playMoves(g1, 2);
    await world.waitForMessage(post1.id, (m) => embedOf(m).description.endsWith('1. Nf3 Nf6'), 'two moves');

    // The connection drops; a game between members starts while Kibitz is away (its notice is lost).
    world.fics.drop();
    const g3 = world.fics.addGame(game('Carol', 'Dave'));
    const post3 = await postOf(world, 'Carol', 'Dave');
    world.fics.playMove(g1);
    await world.waitForMessage(post1.id, (m) => embedOf(m).description.endsWith('2. Ng1'), 'a move after');
    expect(boardPosts(world).map((m) => m.id)).toEqual([post1.id, post3.id]);

    // A restart on the same database: the same messages go on, nothing is posted twice.
    await world.relayIdle();
    await world.stopBot();
    world.fics.playMoves(g1, 2);
    const posted = world.fake.requestsTo('POST', '/channels/:channel_id/messages').length;
    await world.startBot();
    await world.waitForMessage(
      post1.id,
      (m) => embedOf(m).description.endsWith('2. Ng1 Ng8 3. Nf3'),
      'caught up',
    );
    world.fics.playMove(g3);
    await world.waitForMessage(post3.id, (m) => embedOf(m).description.endsWith('1. Nf3'), 'game 3 goes on');
    world.fics.endGame(g1);
    const final = await world.waitForMessage(post1.id, (m) => embedOf(m).footer !== null, 'the result');
    expect(embedOf(final).footer).toBe('½-½ · Game drawn by repetition');
    expect(final.attachments.map((a) => a.filename)).toContain(`game-${g1}.pgn`);
    expect(world.fake.requestsTo('POST', '/channels/:channel_id/messages')).toHaveLength(posted);

    // A rematch gets the freed number: same number, same players, a new game and a new post.
    const g4 = world.fics.addGame(game('Alice', 'Bob'));
    expect(g4).toBe(g1);
    const post4 = await world.fake.waitFor(
      () => boardPosts(world).find((m) => titleHas(m, 'Alice', 'Bob') && m.id !== post1.id),
      'the rematch',
      15_000,
    );
    expect(boardPosts(world).map((m) => m.id)).toEqual([post1.id, post3.id, post4.id]);
    expect(world.fics.observers(g2)).toEqual([]);

    const results = await club(world, 'results');
    const link = `https://discord.com/channels/${world.guildId}/${world.channelId}/${post1.id}`;
    expect(results).toBe(
      `Club games finished in the last 7 days:\n• Alice vs Bob: ½-½ · Game drawn by repetition · ${link}`,
    );
  });

  it('does not post a stopped game again when a reconnect finds it', async () => {
    const world = await startWorld();
    await world.startBot();
    await club(world, 'channel');
    await club(world, 'add', { handle: 'Alice' });
    const g = world.fics.addGame(game('Alice', 'Xavier'));
    const post = await postOf(world, 'Alice', 'Xavier');
    world.fics.playMoves(g, 3);
    await world.waitForMessage(post.id, (m) => embedOf(m).description.endsWith('2. Ng1'), 'three moves');
    const stop = buttonIds(post).find((id) => id.startsWith('stop:'))!;
    // A club post names no member who asked for it: a moderator stops it.
    const stopped = await world.fake.button(post.id, stop, { user: world.fake.owner }).reply();
    expect(stopped.content).toBe(`Stopped relaying game ${g}.`);
    await released(world, g);

    // After the reconnect Alice (followed for the club) is found playing it again: let go again.
    world.fics.drop();
    await world.fics.waitFor(
      () => world.fics.commands().filter((c) => c.endsWith(`unobserve ${g}`)).length === 2,
      'the game observed again and let go',
      15_000,
    );
    expect(boardPosts(world).map((m) => m.id)).toEqual([post.id]);
  });

  it('in pairings mode posts only the listed pairings, either colour', async () => {
    const world = await startWorld();
    await world.startBot();
    await club(world, 'channel');
    expect(await club(world, 'pairings', { list: 'Alice-' })).toBe(
      '"Alice-" is not a pairing: write two FICS handles joined by "-", e.g. Alice-Bob, Carol-Dave.',
    );
    expect(await club(world, 'pairings', { list: 'Alice-Bob, Carol-Dave' })).toBe(
      'Pairings: Alice-Bob, Carol-Dave. They count once the mode is "pairings" (`/club mode`).',
    );
    expect(await club(world, 'mode', { mode: 'pairings' })).toBe(
      'Posting only games between listed pairings.',
    );

    const reversed = world.fics.addGame(game('Bob', 'Alice'));
    const crossed = world.fics.addGame(game('Alice', 'Carol'));
    const strangers = world.fics.addGame(game('Erin', 'Frank'));
    const second = world.fics.addGame(game('Carol', 'Dave'));
    await postOf(world, 'Bob', 'Alice');
    await postOf(world, 'Carol', 'Dave');
    await released(world, crossed);
    expect(world.fics.observers(strangers)).toEqual([]);
    expect(boardPosts(world).map((m) => embedOf(m).title)).toEqual([
      `Game ${reversed}: Bob (++++) vs Alice (++++)`,
      `Game ${second}: Carol (++++) vs Dave (++++)`,
    ]);
    expect(await club(world, 'list')).toBe(
      [
        `**Channel:** <#${world.channelId}>`,
        '**Mode:** only games between listed pairings',
        '**Filter:** rated and unrated games, every type',
        '**Pairings:** Alice-Bob, Carol-Dave',
        '**Members (0):** none yet (`/club add`)',
      ].join('\n'),
    );
  });

  it('filters by rating and type', async () => {
    const world = await startWorld();
    await world.startBot();
    await club(world, 'channel');
    await club(world, 'add', { handle: 'Alice' });
    expect(await club(world, 'filter', { types: 'blitz, bullet' })).toBe(
      '"bullet" is not a FICS game type. Use some of: lightning, blitz, standard, untimed, wild, crazyhouse, bughouse, suicide, atomic, losers (or "all").',
    );
    expect(await club(world, 'filter', { rated: true, types: 'blitz' })).toBe(
      'Posting rated games of blitz.',
    );

    const unrated = world.fics.addGame(game('Alice', 'Yvonne', { rated: false, type: 'blitz' }));
    const standard = world.fics.addGame(game('Alice', 'Zoe', { rated: true, type: 'standard' }));
    const wanted = world.fics.addGame(game('Xenia', 'Alice', { rated: true, type: 'blitz' }));
    const post = await postOf(world, 'Xenia', 'Alice');
    expect(embedOf(post).description.split('\n')[0]).toBe('rated blitz 60+0');
    await released(world, unrated);
    await released(world, standard);
    expect(boardPosts(world)).toHaveLength(1);
    expect(world.fics.observers(wanted)).toHaveLength(1);
  });

  it('says once that the limit is reached, and posts waiting games as room frees', async () => {
    const world = await startWorld();
    await world.startBot({ env: { KIBITZ_MAX_LIVE_PER_GUILD: '1' } });
    await club(world, 'channel');
    for (const handle of ['Alice', 'Bob', 'Carol', 'Dave']) await club(world, 'add', { handle });

    const g1 = world.fics.addGame(game('Alice', 'Xa'));
    const post1 = await postOf(world, 'Alice', 'Xa');
    const g2 = world.fics.addGame(game('Bob', 'Xb'));
    const g3 = world.fics.addGame(game('Carol', 'Xc'));
    const notice = await world.fake.waitFor(() => notices(world)[0], 'the limit notice', 15_000);
    expect(notice).toBe(
      'This server relays as many live games as its limit allows, so club games now wait: each is posted here as soon as a live game ends.',
    );
    // Both wait unobserved (the server's share of FICS is its limit, 1), and the notice is not repeated.
    await world.fake.waitFor(
      () => (world.running.context.fics.waitingHolders().length === 2 ? true : undefined),
      'both games to wait',
      15_000,
    );
    expect(world.fics.observers(g2)).toEqual([]);
    expect(world.fics.observers(g3)).toEqual([]);
    await world.running.context.clubs.idle();
    expect(notices(world)).toHaveLength(1);
    expect(boardPosts(world)).toHaveLength(1);

    world.fics.endGame(g1, '1-0', 'Xa resigns');
    await world.waitForMessage(
      post1.id,
      (m) => embedOf(m).footer === '1-0 · Xa resigns',
      'the end of game 1',
    );
    const post2 = await postOf(world, 'Bob', 'Xb');
    world.fics.playMove(g2);
    await world.waitForMessage(post2.id, (m) => embedOf(m).description.endsWith('1. Nf3'), 'game 2 live');
    world.fics.endGame(g2);
    await postOf(world, 'Carol', 'Xc');
    expect(notices(world)).toHaveLength(1);

    // Nothing waits any more: the next time the limit is hit, the channel hears it again.
    world.fics.addGame(game('Dave', 'Xd'));
    await world.fake.waitFor(() => notices(world)[1], 'a second notice', 15_000);
    // The players of each post (an ended game's title also gives its result).
    const players = (title: string) => title.replace(/ \(\+\+\+\+\)/g, '').replace(/ · .*$/, '');
    expect(boardPosts(world).map((m) => players(embedOf(m).title))).toEqual([
      `Game ${g1}: Alice vs Xa`,
      `Game ${g2}: Bob vs Xb`,
      `Game ${g3}: Carol vs Xc`,
    ]);
  });

  it('needs Manage Server', async () => {
    const world = await startWorld();
    await world.startBot();
    const reply = await world.command('club add', { handle: 'Alice' }).reply();
    expect(reply.ephemeral).toBe(true);
    expect(reply.content).toBe('Running the club needs the Manage Server permission.');
    expect(await world.running.context.storage.clubs.members(world.guildId)).toEqual([]);
  });
});

describe('long pairings', () => {
  it('look up at most 25 new handles, say so, and turn game notices on once', async () => {
    const world = await startWorld();
    await world.startBot();
    const letters = (i: number): string =>
      [2, 1, 0].map((p) => 'abcdefghijklmnopqrstuvwxyz'[Math.floor(i / 26 ** p) % 26]).join('');
    const pairs = Array.from({ length: 100 }, (_, i) => `W${letters(i)}-B${letters(i)}`);
    await club(world, 'channel');
    await club(world, 'mode', { mode: 'pairings' });
    const before = world.fics.commands().length;
    const reply = await club(world, 'pairings', { list: pairs.join(',') });
    expect(reply).toContain('175 new handles past the first 25 are followed for their next game');
    const sent = world.fics.commands().slice(before);
    expect(sent.filter((c) => /^(\d+ )?observe [A-Za-z]+$/.test(c))).toHaveLength(25);
    expect(sent.filter((c) => /^(\d+ )?set gin 1$/.test(c))).toHaveLength(1);
  });
});
