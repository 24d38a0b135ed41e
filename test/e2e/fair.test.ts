// FICS observation places shared fairly between Discord servers, through the real bot: the fake
// Discord with two servers, the fake FICS server, real discord.js, real SQLite.
import { afterEach, describe, expect, it } from 'vitest';
import { World, embedOf, shuffleScript } from './harness.js';

let world: World | null = null;

afterEach(async () => {
  await world?.close();
  world = null;
});

/** Commands registered for the whole application (both servers), as in production. */
const GLOBAL_COMMANDS = { DISCORD_GUILD_ID: '' };

describe('fair shares of FICS between servers', () => {
  it("a server that follows ten playing players leaves room for another server's /observe", async () => {
    world = await World.start();
    const w = world;
    const other = w.fake.createGuild({ name: 'Other Club' });
    const otherChannel = w.fake.createChannel(other.id, { name: 'boards' });
    const players = Array.from({ length: 10 }, (_, i) => `Player${'ABCDEFGHIJ'[i]}`);
    for (const player of players) w.fics.addGame(shuffleScript(40, { white: player, black: `Foe${player}` }));
    const wanted = w.fics.addGame(shuffleScript(40, { white: 'Other', black: 'Game' }));
    // Six places in all and a live-game limit far above them: only the share keeps a server in check.
    await w.startBot({
      env: { ...GLOBAL_COMMANDS, KIBITZ_MAX_LIVE_PER_GUILD: '100', FICS_MAX_CONNECTIONS: '1' },
      fics: { maxGamesPerConnection: 6 },
    });

    const replies: string[] = [];
    for (const player of players) {
      const reply = await w.command('follow', { player }, { user: w.fake.owner }).reply();
      replies.push(reply.content ?? '');
    }
    // Alone, a server may hold floor(6 / (1 + 1)) = 3 of the 6 places.
    const held = replies.filter((r) => r.includes('They are playing game'));
    expect(held).toHaveLength(3);
    const refused = replies.filter((r) => !r.includes('They are playing game'));
    expect(refused[0]).toBe(
      `Following ${players[3]} here, but FICS said: This server already has 3 FICS games live, its share (3) of the 6 games Kibitz can observe for all the servers it is in. Stop one with /unobserve, or try again when one ends.`,
    );
    await w.fake.waitFor(() => (w.livePosts().length === 3 ? true : undefined), 'three posts');

    const reply = await w.fake
      .command(other.id, otherChannel.id, 'observe', { game: wanted }, { user: w.fake.owner })
      .reply();
    expect(reply.content).toBe(
      `Game ${wanted}, Other vs Game, is live here: the board updates as they move.`,
    );
    const post = await w.fake.waitFor(
      () => w.livePosts(otherChannel.id)[0],
      "the other server's post",
      5_000,
    );
    expect(embedOf(post).title).toBe(`Game ${wanted}: Other (++++) vs Game (++++)`);
    const observed = w.fics.loggedIn().flatMap((s) => s.observed);
    expect(observed).toHaveLength(4);
    expect(observed).toContain(wanted);
  });

  it('100 concurrent /observe of different games with FICS answering in 300 ms make at most the cap of posts', async () => {
    // What is checked is the cap, not Discord's 3 s to acknowledge: on a loaded machine 100
    // commands at once are not all deferred within 3 s, and a refused acknowledgement leaves its
    // command with no reply at all (10062), so the window is wide here.
    world = await World.start({
      fics: { replyDelayMs: 300 },
      discord: { interactionResponseWindowMs: 120_000 },
    });
    const w = world;
    const games = Array.from({ length: 100 }, (_, i) =>
      w.fics.addGame(shuffleScript(40, { white: `White${i}`, black: `Black${i}` })),
    );
    await w.startBot({ env: { KIBITZ_MAX_LIVE_PER_GUILD: '10' } });

    // A bound, not a speed check: 100 commands' replies pass through discord.js and the fake on a
    // machine that may be running the whole suite twice (7.9 s alone, over 30 s at load 20-29).
    const replies = await Promise.all(games.map((game) => w.command('observe', { game }).reply(80_000)));
    const live = replies.filter((r) => r.content?.includes('is live here'));
    const capped = replies.filter(
      (r) =>
        r.content === 'This server already relays 10 live games, its limit. Stop one with /unobserve first.',
    );
    expect(live).toHaveLength(10);
    expect(capped).toHaveLength(90);
    expect(w.livePosts()).toHaveLength(10);
    // Refused requests never reached FICS: ten observations, no more.
    expect(w.fics.commands().filter((c) => /\bobserve \d+$/.test(c))).toHaveLength(10);
    expect(w.fics.loggedIn().flatMap((s) => s.observed)).toHaveLength(10);
  }, 100_000);
});
