// /clip and the final post's Clip button, from the fake FICS to the fake Discord through the real
// bot: a live game's clip from the relay, a finished one's from storage after a restart, each GIF's
// frames and delays read back from its bytes.
import { GifReader } from 'omggif';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_CLIP_MOVES } from '../../src/actions/clip.js';
import type { BotReply } from '../fake-discord/index.js';
import { World, embedOf, shuffleScript } from './harness.js';
import { gameId } from '../support/fics-values.js';

/** Each move's time on the fake server, by half-move (the first two take none). */
const TIMES_MS = [1_000, 6_000, 9_000, 20_000];
const moveTimeMs = (ply: number): number => TIMES_MS[ply % 4]!;

let w: World | null = null;
afterEach(async () => {
  await w?.close();
  w = null;
});

/** The one GIF of a reply, its frame delays in ms. */
function gifDelays(reply: BotReply): number[] {
  expect(reply.files.map((f) => f.filename)).toHaveLength(1);
  const gif = reply.files[0]!;
  expect(gif.filename).toMatch(/\.gif$/);
  const reader = new GifReader(gif.bytes);
  return [...Array(reader.numFrames()).keys()].map((i) => reader.frameInfo(i).delay * 10);
}

/**
 * Moves `from` to `to` as the clip should show them: a position per half-move, each for a quarter
 * of the next move's time within 0.3-3 s, the last for 4 s.
 */
function expectedDelays(from: number, to: number, lastPly = Infinity): number[] {
  const first = (from - 1) * 2;
  const last = Math.min(lastPly, to * 2);
  const delays: number[] = [];
  for (let ply = first; ply < last; ply++) delays.push(Math.min(3_000, Math.max(300, moveTimeMs(ply) / 4)));
  return [...delays, 4_000];
}

describe('/clip', () => {
  it('clips a live game from the relay, a finished one from storage, and the final post’s button its last moves', async () => {
    const world = (w = await World.start({ dbFile: true }));
    const game = world.fics.addGame(
      shuffleScript(30, { moveTimeMs, result: '1-0', reason: 'Mirror resigns' }),
    );
    await world.startBot();
    expect((await world.command('observe', { game }).reply()).ephemeral).toBe(true);
    const post = world.livePosts()[0]!;

    // Live: 12 half-moves played, moves 2 to 5 asked for.
    world.fics.playMoves(game, 12);
    await world.fake.waitFor(
      () => world.running.context.relay.snapshot(gameId(game))?.san.length === 12 || undefined,
      'twelve half-moves relayed',
    );
    const live = await world.command('clip', { game, from: 2, to: 5 }).reply();
    expect(live.ephemeral).toBe(false);
    expect(live.content).toBe(
      `Game ${game}, Shuffler vs Mirror (live): moves 2 to 5, 9 positions at the pace they were played. A clip shows at most ${MAX_CLIP_MOVES} moves.`,
    );
    expect(gifDelays(live)).toEqual(expectedDelays(2, 5));
    expect(live.files[0]!.description).toMatch(
      /^Animation of moves 2 to 5 of the game Shuffler against Mirror/,
    );

    // Argument errors: told to the asker alone, saying what was wrong.
    const past = await world.command('clip', { game, from: 9 }).reply();
    expect([past.ephemeral, past.content]).toEqual([
      true,
      `No clip of game ${game}: from 9 is past its end: it has moves 1 to 6.`,
    ]);
    const backwards = await world.command('clip', { game, from: 4, to: 3 }).reply();
    expect([backwards.ephemeral, backwards.content]).toEqual([
      true,
      `No clip of game ${game}: from (4) is after to (3).`,
    ]);
    const unknown = await world.command('clip', { game: 999 }).reply();
    expect(unknown.ephemeral).toBe(true);
    expect(unknown.content).toMatch(/^Kibitz has no game 999: /);

    // The end: the final post's Clip button gives the presser the last 10 moves (6 to 15).
    world.fics.playAll(game);
    const final = await world.waitForMessage(post.id, (m) => embedOf(m).footer !== null, 'the final edit');
    const pressed = await world.fake.button(final.id, 'clip:1').reply();
    expect(pressed.ephemeral).toBe(true);
    expect(pressed.content).toMatch(/: moves 6 to 15, 21 positions /);
    expect(gifDelays(pressed)).toEqual(expectedDelays(6, 15));

    // After a restart the relay has no snapshot of it: the clip is made from the stored PGN's clocks.
    await world.stopBot();
    await world.startBot();
    expect(world.running.context.relay.snapshot(gameId(game))).toBeUndefined();
    const stored = await world.command('clip', { game, from: 2, to: 4 }).reply();
    expect(stored.ephemeral).toBe(false);
    expect(stored.content).toMatch(
      new RegExp(`^Game ${game}, Shuffler vs Mirror: moves 2 to 4, 7 positions`),
    );
    expect(gifDelays(stored)).toEqual(expectedDelays(2, 4));
  });
});
