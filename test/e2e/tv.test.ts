// FICS TV through the real bot (fake Discord, fake FICS, real SQLite and renders): the TV channel
// shows the best game in progress, gets its final edit when it ends, switches to the next best
// with a "Now showing" note, and after a restart switches from a game that ended while it was down.
import { afterEach, expect, it } from 'vitest';
import type { GameScript } from '../fake-fics/game.js';
import { boardPosts, notices, postOf as clubPostOf, titleHas } from '../club/posts.js';
import { World, embedOf, shuffleScript } from './harness.js';

let w: World | null = null;
afterEach(async () => {
  await w?.close();
  w = null;
});

function game(white: string, whiteRating: string, black: string, blackRating: string): GameScript {
  return shuffleScript(40, {
    white,
    black,
    whiteRating,
    blackRating,
    rated: true,
    type: 'blitz',
    initialMinutes: 3,
    incrementSec: 0,
    result: '1-0',
    reason: `${black} resigns`,
  });
}

/** The board post of these players, waited for as long as a loaded machine may need. */
const postOf = (world: World, white: string, black: string) =>
  clubPostOf(world, white, black, world.channelId, 15_000);

/** Waits for a plain note in the channel. */
function noted(world: World, text: string): Promise<true> {
  return world.fake.waitFor(() => notices(world).includes(text) || undefined, `the note "${text}"`, 15_000);
}

it('switches to the next best game when the shown one ends, and after a restart', async () => {
  const world = (w = await World.start({
    dbFile: true,
    discord: { rateLimits: { messageEdit: { limit: 10_000, windowMs: 1_000 } } },
  }));
  const top = world.fics.addGame(game('Alice', '2100', 'Bob', '2050'));
  // Strong on one side only: a mismatch ranks below an even 1900 game.
  world.fics.addGame(game('Strong', '2500', 'Weak', '1100'));
  const next = world.fics.addGame(game('Carol', '1950', 'Dave', '1900'));
  await world.startBot();

  const reply = await world.command('tv start', {}, { user: world.fake.owner }).reply();
  expect(reply.ephemeral).toBe(true);
  expect(reply.content).toBe(
    `The TV is on in <#${world.channelId}> (chess). Now showing: Alice (2100) vs Bob (2050), blitz 3+0.`,
  );
  const first = await postOf(world, 'Alice', 'Bob');
  await noted(world, 'Now showing: Alice (2100) vs Bob (2050), blitz 3+0');

  // The shown game ends: its post gets its final edit, then the next best game is posted anew.
  world.fics.endGame(top, '1-0', 'Bob resigns');
  const ended = await world.waitForMessage(first.id, (m) => embedOf(m).footer !== null, 'the final edit');
  expect(embedOf(ended).footer).toBe('1-0 · Bob resigns');
  expect(ended.attachments.map((a) => a.filename)).toContain(`game-${top}.pgn`);
  const second = await postOf(world, 'Carol', 'Dave');
  expect(second.id).not.toBe(first.id);
  await noted(world, 'Now showing: Carol (1950) vs Dave (1900), blitz 3+0');
  const show = await world.command('tv show', {}, { user: world.fake.owner }).reply();
  expect(show.content).toBe(`The TV is in <#${world.channelId}> (chess): game ${next}, Carol vs Dave.`);

  // Down for a while: the shown game ends meanwhile and a better one starts.
  await world.relayIdle();
  await world.stopBot();
  world.fics.endGame(next, '1-0', 'Dave resigns');
  world.fics.addGame(game('Erin', '2000', 'Frank', '2000'));
  await world.startBot();
  await world.waitForMessage(
    second.id,
    (m) => embedOf(m).footer === 'ended while offline',
    'the offline end of the shown game',
  );
  await postOf(world, 'Erin', 'Frank');
  await noted(world, 'Now showing: Erin (2000) vs Frank (2000), blitz 3+0');
  // One TV board at a time, in order; the mismatch never shown.
  expect(boardPosts(world).map((m) => embedOf(m).title.replace(/^Game \d+: /, ''))).toEqual([
    expect.stringMatching(/^Alice/),
    expect.stringMatching(/^Carol/),
    expect.stringMatching(/^Erin/),
  ]);
  expect(boardPosts(world).some((m) => titleHas(m, 'Strong', 'Weak'))).toBe(false);
  const stored = await world.running.context.storage.tv.get(world.guildId);
  const live = await world.running.context.storage.livePosts.listLive();
  expect(live.map((p) => p.id)).toEqual([stored?.postId]);

  // Off: its board stops, and no other game is posted.
  expect((await world.command('tv stop', {}, { user: world.fake.owner }).reply()).content).toBe(
    'The TV is off; its board stopped.',
  );
  expect(await world.running.context.storage.livePosts.listLive()).toEqual([]);
});

it('a server at its live-game limit: the TV says it waits, and posts nothing', async () => {
  const world = (w = await World.start({
    discord: { rateLimits: { messageEdit: { limit: 10_000, windowMs: 1_000 } } },
  }));
  const other = world.fics.addGame(game('Gina', '1500', 'Hank', '1500'));
  world.fics.addGame(game('Alice', '2100', 'Bob', '2050'));
  await world.startBot({ env: { KIBITZ_MAX_LIVE_PER_GUILD: '1' } });
  expect((await world.command('observe', { game: other }).reply()).content).toMatch(/is live here/);

  const reply = await world.command('tv start', { min_rating: 2000 }, { user: world.fake.owner }).reply();
  expect(reply.content).toBe(
    `The TV is on in <#${world.channelId}> (chess, both players 2000+), but it waits for room: This server already relays as many live games as its limit allows.`,
  );
  expect(notices(world)).toEqual([
    'FICS TV waits for room: This server already relays as many live games as its limit allows. It looks again every 60 s.',
  ]);
  expect(boardPosts(world).some((m) => titleHas(m, 'Alice', 'Bob'))).toBe(false);
});
