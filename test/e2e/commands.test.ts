// /games with its menu, /follow, and /position, through the real bot.
import { InteractionResponseType } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SIZE, computeLayout } from '../../render/layout.js';
import { decodePng, expectBoard } from '../render/pixels.js';
import { START_FEN, expectImageShows } from './images.js';
import { World, boardPng, embedOf, fixture, linkButtons, scriptOf } from './harness.js';

let world: World;
beforeAll(async () => {
  world = await World.start({ discord: { rateLimits: { messageEdit: { limit: 10_000, windowMs: 1_000 } } } });
  // Every keystroke here asks FICS afresh, so a game added just before is suggested (the shared
  // list's age bound is test/e2e/keystrokes.test.ts's).
  await world.startBot({ fics: { gamesListMaxAgeMs: 0 } });
});
afterAll(async () => {
  await world.close();
});

describe('/games', () => {
  it('lists the games strongest first, and its menu posts the chosen one here', async () => {
    const san = fixture('fatics_master_seq#0').san;
    const weak = world.fics.addGame({
      white: 'Pawnpusher',
      black: 'Woodshifter',
      whiteRating: '1200',
      blackRating: '1300',
      san,
    });
    const strong = world.fics.addGame({
      white: 'Grandmaster',
      black: 'Champion',
      whiteRating: '2100',
      blackRating: '1900',
      san,
    });
    const middle = world.fics.addGame({
      white: 'Clubplayer',
      black: 'Expert',
      whiteRating: '1700',
      blackRating: '1800',
      san,
    });

    const reply = await world.command('games').reply();
    expect(reply.ephemeral).toBe(true);
    const embed = embedOf(reply);
    expect(embed.title).toBe('FICS games (3 of 3)');
    expect(embed.description.split('\n').map((line) => /^\*\*(\d+)\*\*/.exec(line)?.[1])).toEqual(
      [strong, middle, weak].map(String),
    );

    const menu = (
      reply.components[0] as { components: { custom_id: string; options: { value: string }[] }[] }
    ).components[0]!;
    expect(menu.options.map((o) => o.value)).toEqual([strong, middle, weak].map(String));
    const picked = await world.fake.selectMenu(reply.message!.id, menu.custom_id, [String(middle)]).reply();
    expect(picked.ephemeral).toBe(true);
    expect(picked.content).toBe(
      `Game ${middle}, Clubplayer vs Expert, is live here: the board updates as they move.`,
    );
    const post = world.livePosts().at(-1)!;
    expect(embedOf(post).title).toBe(`Game ${middle}: Clubplayer (1700) vs Expert (1800)`);
    await expectImageShows(boardPng(post), START_FEN);
    expect(world.fics.observers(middle)).toHaveLength(1);
    expect(world.fics.observers(strong)).toHaveLength(0);
    for (const game of [weak, strong, middle]) world.fics.endGame(game);
  });
});

describe('/observe player autocomplete', () => {
  it('is answered, with no game on the server (one sentence from the server) and with games', async () => {
    const typed = (text: string) =>
      world.fake.autocomplete(world.guildId, world.channelId, 'observe', { player: text }, 'player').reply();
    expect((await typed('')).choices).toEqual([]);
    // /games too is answered at once, not after the command timeout.
    expect((await world.command('games').reply()).content).toBe('No game on FICS matches that right now.');
    const game = world.fics.addGame(scriptOf(fixture('lasker_flag#0'), { white: 'Anand', black: 'Aronian' }));
    expect((await typed('a')).choices).toEqual([
      { name: 'Anand', value: 'Anand' },
      { name: 'Aronian', value: 'Aronian' },
    ]);
    world.fics.endGame(game);
  });
});

describe('/follow', () => {
  it("posts the followed player's next game here, with their colour at the bottom", async () => {
    const channel = world.fake.createChannel(world.guildId, { name: 'carlsen-fans' });
    const reply = await world
      .command('follow', { player: 'Carlsen' }, { user: world.fake.owner }, channel.id)
      .reply();
    expect(reply.ephemeral).toBe(true);
    // Carlsen is not logged in: followed all the same, and told so (not "no such player").
    expect(reply.content).toBe(
      'Following Carlsen: their games are posted here live. Carlsen is not logged in to FICS now: their next game will be posted here.',
    );
    expect(world.livePosts(channel.id)).toEqual([]);

    const game = world.fics.addGame(
      scriptOf(fixture('fatics_master_seq#3'), { white: 'Nepo', black: 'Carlsen' }),
    );
    const post = await world.fake.waitFor(() => world.livePosts(channel.id)[0], 'the followed game');
    expect(embedOf(post).title).toBe(`Game ${game}: Nepo (1500) vs Carlsen (1450)`);
    await expectImageShows(boardPng(post), START_FEN, 'black');

    world.fics.playMove(game);
    const edited = await world.waitForMessage(post.id, (m) => m.revisions.length === 2, 'the first move');
    await expectImageShows(boardPng(edited), world.fics.game(game)!.fen, 'black');
    world.fics.endGame(game);
  });
});

describe('/position', () => {
  const fen = 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3';

  it('draws a FEN, turned round on request, with the FEN as text', async () => {
    for (const flip of [false, true]) {
      const reply = await world.command('position', { fen, flip }).reply();
      expect(reply.ephemeral).toBe(false);
      expect(reply.content).toBe(`\`${fen}\``);
      expect(reply.files.map((f) => f.filename)).toEqual(['position.png']);
      await expectImageShows(reply.files[0]!.bytes, fen, flip ? 'black' : 'white');
      expect(linkButtons(reply)).toEqual([
        {
          label: 'Analyse on lichess',
          url: `https://lichess.org/analysis/standard/${fen.replaceAll(' ', '_')}`,
        },
      ]);
    }
  });

  it('draws a Style 12 line as FICS sent it', async () => {
    const line =
      '<12> rnbqkb-r pppppppp -----n-- -------- ----P--- -------- PPPPKPPP RNBQ-BNR B -1 0 0 1 1 0 7 Newton Einstein 1 2 12 39 39 119 122 2 K/e1-e2 (0:06) Ke2 0';
    const drawn = 'rnbqkb1r/pppppppp/5n2/8/4P3/8/PPPPKPPP/RNBQ1BNR b kq - 0 2';
    const reply = await world.command('position', { style12: line }).reply();
    expect(reply.content).toBe(`\`${drawn}\``);
    const img = await decodePng(reply.files[0]!.bytes);
    const layout = computeLayout(DEFAULT_SIZE, { footer: false, holdings: false });
    expectBoard(img, layout.panel.board, drawn, 'white');
  });

  it("answers after Discord's 3 seconds when the drawing is late, having deferred first", async () => {
    // The server's theme is read before drawing; hold that read past the 3 s window (by the fake's
    // clock): only an answer deferred before the read is still accepted (10062 otherwise).
    const settings = world.running.context.storage.guildSettings;
    const read = settings.get.bind(settings);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let reads = 0;
    settings.get = async (guildId) => {
      reads += 1;
      await held;
      return read(guildId);
    };
    try {
      const interaction = world.command('position', { fen });
      const callback = await interaction.callback();
      expect(callback.type).toBe(InteractionResponseType.DeferredChannelMessageWithSource);
      await world.fake.waitFor(() => (reads === 1 ? true : undefined), 'the settings read');
      world.fake.advanceClock(4_000);
      release();
      const reply = await interaction.reply();
      expect(reply.content).toBe(`\`${fen}\``);
      await expectImageShows(reply.files[0]!.bytes, fen, 'white');
    } finally {
      settings.get = read;
      release();
    }
  });
});

describe('autocomplete on every game and handle option', () => {
  it('suggests live games, finished games, followed handles, club members and current players', async () => {
    const owner = { user: world.fake.owner };
    const suggest = (command: string, option: string, typed: string) =>
      world.fake
        .autocomplete(world.guildId, world.channelId, command, { [option]: typed }, option, owner)
        .reply()
        .then((r) => r.choices ?? []);
    const game = world.fics.addGame(scriptOf(fixture('lasker_flag#0'), { white: 'Kramnik', black: 'Leko' }));
    expect((await world.command('observe', { game }).reply()).content).toMatch(/is live here/);
    const named = { name: `${game}: Kramnik vs Leko`, value: game };
    expect(await suggest('unobserve', 'game', '')).toContainEqual(named);
    expect(await suggest('unobserve', 'game', `${game}9`)).toEqual([]);
    // Earlier games of this world may share the number: the number is what matters here.
    expect((await suggest('pgn', 'game', String(game))).map((c) => c.value)).toContain(game);
    // Players of the server's current games, as for /observe player:.
    expect(await suggest('follow', 'player', 'kr')).toEqual([{ name: 'Kramnik', value: 'Kramnik' }]);
    expect(await suggest('games', 'player', 'L')).toEqual([{ name: 'Leko', value: 'Leko' }]);
    // What this channel follows, and the club's members.
    expect((await world.command('follow', { player: 'Topalov' }, owner).reply()).ephemeral).toBe(true);
    expect(await suggest('unfollow', 'player', 't')).toEqual([{ name: 'Topalov', value: 'Topalov' }]);
    expect((await world.command('club add', { handle: 'Svidler' }, owner).reply()).ephemeral).toBe(true);
    expect(await suggest('club remove', 'handle', 'S')).toEqual([{ name: 'Svidler', value: 'Svidler' }]);
    world.fics.endGame(game);
  });
});
