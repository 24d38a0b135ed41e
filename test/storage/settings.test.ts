// A server's board theme and kibitz default, and a live post's kibitz opt-in and theme, on both
// stores (backends.ts): kept across a reopen, as a restart or another process taking over reads them.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openStorage, type NewLivePost, type Storage } from '../../src/storage/index.js';
import { backends, writeBehind } from './backends.js';
import { gameId } from '../support/fics-values.js';

let opened: Storage[] = [];

afterEach(async () => {
  for (const storage of opened.splice(0)) await storage.close();
});

async function open(where: string): Promise<Storage> {
  const result = await openStorage(where, { now: () => 1_700_000_000_000 });
  if (!result.ok) throw new Error(result.error);
  opened.push(result.value);
  return result.value;
}

async function reopen(where: string, storage: Storage): Promise<Storage> {
  opened = opened.filter((s) => s !== storage);
  await storage.close();
  return open(where);
}

const post = (game: number, options: NewLivePost['options']): NewLivePost => ({
  guildId: 'g',
  channelId: `c${game}`,
  game: gameId(game),
  gameKey: `${game}:Alice:Bob:1700000000`,
  white: 'Alice',
  black: 'Bob',
  options,
  requestedBy: 'u',
});

for (const backend of backends) {
  describe(backend.name, () => {
    afterAll(() => backend.cleanUp());

    it("keeps a server's theme and kibitz default, null until set", async () => {
      const where = await backend.fresh();
      let storage = await open(where);
      expect(await storage.guildSettings.get('g')).toEqual({
        guildId: 'g',
        maxLiveGames: null,
        theme: null,
        kibitz: null,
      });
      await storage.guildSettings.update('g', { theme: 'grey', kibitz: true });
      // One field changed, the other kept.
      await storage.guildSettings.update('g', { maxLiveGames: 4 });
      storage = await reopen(where, storage);
      expect(await storage.guildSettings.get('g')).toEqual({
        guildId: 'g',
        maxLiveGames: 4,
        theme: 'grey',
        kibitz: true,
      });
      expect((await storage.guildSettings.update('g', { kibitz: false, theme: null })).kibitz).toBe(false);
      storage = await reopen(where, storage);
      expect(await storage.guildSettings.get('g')).toMatchObject({ theme: null, kibitz: false });
    });

    it('reads a theme it does not know (a newer version wrote it) as the default', async () => {
      const where = await backend.fresh();
      let storage = await open(where);
      await storage.guildSettings.update('g', { theme: 'blue' });
      await storage.livePosts.create(post(7, { flip: false, thread: false, theme: 'blue' }));
      storage = await reopen(where, storage);
      await storage.close();
      opened = [];
      await writeBehind(where, `UPDATE guild_settings SET theme = 'marble'`);
      await writeBehind(where, `UPDATE live_posts SET theme = 'marble'`);
      storage = await open(where);
      expect((await storage.guildSettings.get('g')).theme).toBeNull();
      expect((await storage.livePosts.listLive())[0]!.options).toEqual({
        flip: false,
        thread: false,
        pair: false,
      });
    });

    it("keeps a live post's kibitz opt-in and theme, and a server's new theme reaches its live posts", async () => {
      const where = await backend.fresh();
      let storage = await open(where);
      await storage.livePosts.create(post(12, { flip: true, thread: true, kibitz: true, theme: 'green' }));
      await storage.livePosts.create(post(13, { flip: false, thread: false }));
      storage = await reopen(where, storage);
      const options = (await storage.livePosts.listLive()).map((p) => p.options);
      expect(options).toEqual([
        { flip: true, thread: true, kibitz: true, theme: 'green', pair: false },
        { flip: false, thread: false, pair: false },
      ]);

      expect(await storage.livePosts.setThemeInGuild('g', 'purple')).toBe(2);
      expect((await storage.livePosts.listLive()).map((p) => p.options.theme)).toEqual(['purple', 'purple']);
      storage = await reopen(where, storage);
      expect((await storage.livePosts.listLive()).map((p) => p.options)).toEqual([
        { flip: true, thread: true, kibitz: true, theme: 'purple', pair: false },
        { flip: false, thread: false, theme: 'purple', pair: false },
      ]);
      await storage.livePosts.setThemeInGuild('g', null);
      storage = await reopen(where, storage);
      expect((await storage.livePosts.listLive()).map((p) => p.options.theme)).toEqual([
        undefined,
        undefined,
      ]);
    });
  });
}
