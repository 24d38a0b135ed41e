// The /observe action and the live post's rules over small fakes: what the relay is asked, and
// the typed errors (engine, FICS down, refusals, who may stop a post). No Discord here.
import { describe, expect, it } from 'vitest';
import { observe, stop, type ObserveInput, type ObserveServices } from '../../src/actions/observe.js';
import { parseGameNumber, parseHandle, orThrow } from '../../src/fics/validate.js';
import type { WatchRequest } from '../../src/relay/open-post.js';
import type { LivePost } from '../../src/storage/index.js';
import { err, ok } from '../../src/result.js';

type ConnectionState = 'online' | 'failed';

function services(
  options: { engine?: 'on' | 'off' | 'not-installed'; fics?: ConnectionState; refuse?: string } = {},
): { services: ObserveServices; asked: (WatchRequest | { player: string })[] } {
  const asked: (WatchRequest | { player: string })[] = [];
  const answer = async () =>
    options.refuse === undefined
      ? ok({ post: {} as LivePost, snapshot: { game: 12, white: 'Alice', black: 'Bobby' } })
      : err({ kind: 'refused' as const, message: options.refuse });
  const fake = {
    fics: {
      status: () => [{ name: 'a', state: options.fics ?? 'online', handle: null, games: [] }],
      on: () => fake.fics,
      off: () => fake.fics,
    },
    config: { fics: { host: 'fics.example', port: 5000 } },
    ficsWaitMs: 0,
    relay: {
      engineStatus: () => options.engine ?? 'on',
      watch: async (request: WatchRequest) => {
        asked.push(request);
        return answer();
      },
      watchPlayer: async (request: { player: string }) => {
        asked.push({ player: request.player });
        return answer();
      },
    },
  };
  return { services: fake as unknown as ObserveServices, asked };
}

const base: ObserveInput = {
  target: { game: orThrow(parseGameNumber(12)) },
  guildId: 'g',
  channelId: 'c',
  requestedBy: 'u',
  flip: true,
  thread: false,
  kibitz: false,
  engine: null,
};

describe('the /observe action', () => {
  it('asks the relay for the game with the options given, and names the game now live', async () => {
    const { services: s, asked } = services();
    const result = await observe({ ...base, kibitz: true, engine: { eval: true, arrow: false } }, s);
    expect(result).toEqual({ ok: true, value: { game: 12, white: 'Alice', black: 'Bobby' } });
    expect(asked).toEqual([
      {
        guildId: 'g',
        channelId: 'c',
        game: 12,
        options: { flip: true, thread: false },
        requestedBy: 'u',
        engine: { eval: true, arrow: false },
        kibitz: true,
      },
    ]);
  });

  it("observes a player's current game by handle", async () => {
    const { services: s, asked } = services();
    await observe({ ...base, target: { player: orThrow(parseHandle('Alice')) } }, s);
    expect(asked).toEqual([{ player: 'Alice' }]);
  });

  it('refuses the engine when it is off or missing, before FICS is asked', async () => {
    for (const engine of ['off', 'not-installed'] as const) {
      const { services: s, asked } = services({ engine });
      const result = await observe({ ...base, engine: { eval: true, arrow: true } }, s);
      expect(result).toEqual({ ok: false, error: { kind: 'no-engine', status: engine } });
      expect(asked).toEqual([]);
    }
  });

  it('says FICS is down (its login refused) without asking the relay', async () => {
    const { services: s, asked } = services({ fics: 'failed' });
    expect(await observe(base, s)).toEqual({
      ok: false,
      error: { kind: 'fics-down', gaveUp: true, host: 'fics.example', port: 5000 },
    });
    expect(asked).toEqual([]);
  });

  it("passes on the relay's refusal in its words", async () => {
    const { services: s } = services({ refuse: 'This server has 5 live games already.' });
    expect(await observe(base, s)).toEqual({
      ok: false,
      error: { kind: 'refused', message: 'This server has 5 live games already.' },
    });
  });
});

describe('stopping a live post', () => {
  const post = { id: 3, game: 12, requestedBy: 'owner' } as LivePost;

  it('is for its requester or a moderator; anyone else is refused and nothing stops', async () => {
    const stopped: number[] = [];
    const relay = { stop: async (id: number) => void stopped.push(id) };
    expect(await stop(post, { userId: 'other', moderator: false }, { relay })).toEqual({
      ok: false,
      error: { kind: 'not-allowed' },
    });
    expect(stopped).toEqual([]);
    expect(await stop(post, { userId: 'owner', moderator: false }, { relay })).toEqual({
      ok: true,
      value: { game: 12 },
    });
    expect(await stop(post, { userId: 'other', moderator: true }, { relay })).toEqual({
      ok: true,
      value: { game: 12 },
    });
    expect(stopped).toEqual([3, 3]);
  });
});
