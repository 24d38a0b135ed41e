// Keystrokes cost FICS almost nothing: every autocomplete reads one shared games list, refreshed at
// most every few seconds with one `games` request in flight, so 300 suggestions send a handful of
// commands and another user's /observe does not queue behind them. Real bot, fake Discord and FICS.
import { afterEach, describe, expect, it } from 'vitest';
import { GAMES_LIST_MAX_AGE_MS } from '../../src/fics/games-cache.js';
import type { BotReply } from '../fake-discord/index.js';
import { World, shuffleScript } from './harness.js';

let w: World | null = null;
afterEach(async () => {
  await w?.close();
  w = null;
});

const KEYSTROKES = 300;
/** Users typing at once, each keystroke sent when the last one's suggestions came. */
const TYPISTS = 10;
/** A bound on the wait, not a speed check: the machine may be shared. */
const REPLY_WAIT_MS = 30_000;

describe('autocomplete keystrokes', () => {
  it(`${KEYSTROKES} suggestions send FICS a handful of games commands; /observe is not held up`, async () => {
    const world = (w = await World.start());
    const game = world.fics.addGame(shuffleScript(60, { white: 'Carlsen', black: 'Caruana' }));
    await world.startBot();
    const gamesSent = (): number => world.fics.commands().filter((c) => /^(\d+ )?games$/.test(c)).length;
    const before = gamesSent();
    const started = Date.now();
    const typist = async (): Promise<BotReply[]> => {
      const answers: BotReply[] = [];
      for (let i = 0; i < KEYSTROKES / TYPISTS; i++) {
        const typed = 'Carlsen'.slice(0, 1 + (i % 7));
        answers.push(
          await world.fake
            .autocomplete(world.guildId, world.channelId, 'observe', { player: typed }, 'player')
            .reply(REPLY_WAIT_MS),
        );
      }
      return answers;
    };
    const typing = Promise.all(Array.from({ length: TYPISTS }, typist));
    const observe = world.command('observe', { game }).reply(REPLY_WAIT_MS);
    const answers = (await typing).flat();
    const elapsed = Date.now() - started;
    expect(answers).toHaveLength(KEYSTROKES);
    expect(answers.every((a) => a.choices?.some((c) => c.value === 'Carlsen'))).toBe(true);
    expect((await observe).content).toMatch(new RegExp(`^Game ${game}, Carlsen vs Caruana, is live here`));
    const sent = gamesSent() - before;
    // One request per list age the keystrokes spanned, plus the one they started with.
    expect(sent).toBeGreaterThanOrEqual(1);
    expect(sent).toBeLessThanOrEqual(1 + Math.ceil(elapsed / GAMES_LIST_MAX_AGE_MS));
    console.info(
      `figure: ${KEYSTROKES} autocompletes in ${elapsed} ms sent FICS ${sent} games command(s) (measured, not asserted)`,
    );
  });
});
