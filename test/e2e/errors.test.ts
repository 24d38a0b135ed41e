// Every bad argument gets an ephemeral answer that says what was wrong, and nothing a user typed
// reaches FICS unless it is a valid game number or handle.
import { createServer } from 'node:net';
import { PermissionFlagsBits } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { World, fixture, scriptOf } from './harness.js';

let w: World | null = null;
afterEach(async () => {
  await w?.close();
  w = null;
});

/** Every line a Kibitz login and its commands may send, with checked values only. */
const VALID_LINE =
  /^(?:guest|)$|^(?:\d+ )?(?:iset [a-z]+ [01]|set [a-z]+ [\w .-]+|observe (?:\d{1,6}|[A-Za-z]{3,17})|unobserve \d{1,6}|moves \d{1,6}|refresh \d{1,6}|games|date)$/;

const START_WITH_BAD_TURN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1';

async function ephemeral(handle: ReturnType<World['command']>): Promise<string> {
  const reply = await handle.reply();
  expect(reply.ephemeral).toBe(true);
  return reply.content;
}

describe('bad arguments', () => {
  it('each get an ephemeral message saying what is wrong', async () => {
    const world = (w = await World.start());
    const game = world.fics.addGame(scriptOf(fixture('fatics_master_seq#0')));
    world.fics.addPlayer('Idler');
    await world.startBot();
    const say = (name: string, options: Record<string, string | number | boolean> = {}, invoker = {}) =>
      ephemeral(world.command(name, options, invoker));
    const manager = { user: world.fake.owner };

    expect(await say('observe', { game: 999 })).toMatch(/^FICS has no such game \("observe 999"\)/);
    expect(await say('observe', { player: 'Idler' })).toMatch(/^That player is not playing a game right now/);
    expect(await say('observe', { player: 'Nobody' })).toMatch(/^That player is not logged in to FICS/);
    expect(await say('observe', { game, player: 'Idler' })).toMatch(/^Give either `game:`.*not both/);
    expect(await say('observe')).toMatch(/^Give either `game:`/);

    // Text that would be two FICS commands is refused before anything is sent.
    const injection = 'foo\nshout hi';
    const notAHandle = /^"foo\\nshout hi" is not a FICS handle: handles are 3 to 17 letters/;
    expect(await say('observe', { player: injection })).toMatch(notAHandle);
    expect(await say('games', { player: injection })).toMatch(notAHandle);
    expect(await say('follow', { player: injection }, manager)).toMatch(notAHandle);
    expect(await say('observe', { player: 'a;quit' })).toMatch(/is not a FICS handle/);

    expect(await say('position', { fen: 'rnbqkbnr/pppppppp/9/8 w - - 0 1' })).toMatch(
      /^I cannot draw that: invalid FEN "rnbqkbnr\/pppppppp\/9\/8 w - - 0 1": the pieces are wrong: eight ranks from 8 to 1 .*\. A FEN has six fields/,
    );
    // Said in words, never as an internal code.
    const badTurn = await say('position', { fen: START_WITH_BAD_TURN });
    expect(badTurn).toMatch(/: the side to move is neither "w" nor "b"\. A FEN has six fields/);
    expect(badTurn).not.toMatch(/ERR_/);
    expect(await say('position', { style12: '<12> not a board' })).toMatch(
      /^I cannot draw that: not a Style 12 line: \d+ fields, at least 31 expected/,
    );
    expect(await say('position', { fen: '8/8/8/8/8/8/8/8 w - - 0 1', style12: '<12>' })).toMatch(
      /^Give either `fen:`/,
    );

    // Stopping someone else's game needs Manage Messages; following needs Manage Server.
    const live = await world.command('observe', { game }).reply();
    expect(live.content).toMatch(/is live here/);
    const stranger = world.fake.createUser('stranger');
    world.fake.addMember(world.guildId, stranger.id);
    expect(await say('unobserve', { game }, { user: stranger })).toMatch(
      /^Only the member who posted this game, or someone with Manage Messages, can stop it\./,
    );
    expect(await world.running.context.storage.livePosts.listLive()).toHaveLength(1);
    expect(await say('unobserve', { game: game + 1 })).toBe(`Game ${game + 1} is not live in this channel.`);
    expect(await say('follow', { player: 'Magnus' })).toBe(
      'Following players needs the Manage Server permission.',
    );
    expect(await world.running.context.storage.follows.handles()).toEqual([]);
    const moderator = { user: stranger, permissions: PermissionFlagsBits.ManageMessages };
    expect(await say('unobserve', { game }, moderator)).toBe(`Stopped relaying game ${game}.`);

    // No bad command line went out, and no stray post was made.
    const lines = world.fics.received.map((r) => r.line);
    expect(lines.filter((line) => !VALID_LINE.test(line))).toEqual([]);
    expect(lines.join('\n')).not.toMatch(/shout|quit|999\d/);
    expect(world.livePosts()).toHaveLength(1);
  });

  it('names the permission the bot lacks in the channel', async () => {
    const world = (w = await World.start());
    const game = world.fics.addGame(scriptOf(fixture('fatics_master_seq#0')));
    await world.startBot();
    const locked = world.fake.createChannel(world.guildId, { name: 'no-files' });
    world.fake.setOverwrite(locked.id, {
      id: world.fake.botRole(world.guildId).id,
      type: 'role',
      deny: PermissionFlagsBits.AttachFiles,
    });
    const content = await ephemeral(world.command('observe', { game }, {}, locked.id));
    expect(content).toMatch(/^I can't post there: in <#\d+> I'm missing \*\*Attach Files\*\*\./);
    expect(world.fics.commands().filter((c) => c.includes('observe'))).toEqual([]);
    expect(world.livePosts(locked.id)).toEqual([]);
  });
});

describe('FICS unreachable', () => {
  it('defers, then says so instead of waiting for FICS', async () => {
    const world = (w = await World.start());
    const closed = await closedPort();
    await world.startBot({ ficsPort: closed, waitForFics: false });

    const asked = [
      world.command('observe', { game: 12 }),
      world.command('observe', { player: 'Magnus' }),
      world.command('games'),
    ];
    const follow = world.command('follow', { player: 'Magnus' }, { user: world.fake.owner });
    for (const handle of asked) {
      // Deferred within Discord's 3 s (the fake refuses a late answer with 10062) ...
      expect((await handle.callback()).type).toBe(5);
      // ... then told, once the bounded wait for a FICS connection is over.
      expect(await ephemeral(handle)).toBe(
        `Kibitz cannot reach FICS (127.0.0.1:${closed}) right now. It keeps trying: try again in a minute.`,
      );
    }
    // A follow is kept, and said to wait for FICS.
    expect((await follow.reply()).content).toMatch(
      /^Following Magnus here once FICS answers again\. Kibitz cannot reach FICS/,
    );
    expect(await world.running.context.storage.follows.handles()).toEqual(['Magnus']);
    expect(world.livePosts()).toHaveLength(0);
  });
});

describe('Discord failing a new post', () => {
  it('a thread Discord fails to make (500) is asked once: the member is told, nothing stays live', async () => {
    const world = (w = await World.start());
    const game = world.fics.addGame(scriptOf(fixture('fatics_master_seq#0')));
    await world.startBot();
    const THREADS = '/channels/:channel_id/threads';
    world.fake.failNext({ method: 'POST', route: THREADS }, { kind: 'error', status: 500 });
    const reply = await world.command('observe', { game, thread: true }).reply();
    // Not made again at once (a lost answer would have made two threads): the member asks again.
    expect(reply.content).toMatch(/^Could not post the board: /);
    expect(world.fake.requestsTo('POST', THREADS).map((r) => r.status)).toEqual([500]);
    expect(world.livePosts()).toEqual([]);
    expect(await world.running.context.storage.livePosts.listLive()).toEqual([]);
    // The member waits before asking again, as Discord asks (the fake's clock).
    world.fake.advanceClock(250);
    expect((await world.command('observe', { game, thread: true }).reply()).content).not.toMatch(
      /^Could not/,
    );
    expect(world.fake.requestsTo('POST', THREADS).map((r) => r.status)).toEqual([500, 201]);
  });
});

/** A port on 127.0.0.1 that nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}
