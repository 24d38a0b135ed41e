// FICS TV settings in both stores: one TV per guild, its post, and the guilds the bot left.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { migrations, openStorage, type Storage } from '../../src/storage/index.js';
import { backends } from './backends.js';

for (const backend of backends) {
  describe(backend.name, () => {
    let storage: Storage | undefined;
    afterEach(async () => {
      await storage?.close();
      storage = undefined;
    });
    afterAll(() => backend.cleanUp());

    async function open(): Promise<Storage> {
      const opened = await openStorage(await backend.fresh(), { now: () => 1_000 });
      if (!opened.ok) throw new Error(opened.error);
      storage = opened.value;
      return storage;
    }

    it('is migration 4; one TV per guild, moved or refiltered in place, its post forgotten', async () => {
      const s = await open();
      expect(s.schemaVersion).toBe(migrations.length);
      expect(migrations[3]!.description).toMatch(/^FICS TV/);
      expect(await s.tv.get('g1')).toBeNull();
      await s.tv.set({ guildId: 'g1', channelId: 'c1', variant: 'chess', minRating: 0, createdBy: 'u1' });
      await s.tv.setPost('g1', 41);
      expect(await s.tv.byPost(41)).toMatchObject({ guildId: 'g1', channelId: 'c1', postId: 41 });
      await s.tv.set({
        guildId: 'g1',
        channelId: 'c2',
        variant: 'crazyhouse',
        minRating: 1800,
        createdBy: 'u2',
      });
      expect(await s.tv.get('g1')).toEqual({
        guildId: 'g1',
        channelId: 'c2',
        variant: 'crazyhouse',
        minRating: 1800,
        postId: null,
        createdBy: 'u2',
      });
      expect(await s.tv.byPost(41)).toBeNull();
      await s.tv.set({ guildId: 'g2', channelId: 'c3', variant: 'any', minRating: 0, createdBy: 'u3' });
      expect((await s.tv.list()).map((tv) => tv.guildId)).toEqual(['g1', 'g2']);
      // A TV is set-up of its guild; one that removed the bot keeps it stored, not acted on.
      expect(await s.guildSettings.guildsWithSetUp()).toEqual(expect.arrayContaining(['g1', 'g2']));
      await s.guildSettings.setInactive('g2');
      expect((await s.tv.list()).map((tv) => tv.guildId)).toEqual(['g1']);
      expect(await s.tv.delete('g1')).toBe(true);
      expect(await s.tv.delete('g1')).toBe(false);
      expect(await s.tv.list()).toEqual([]);
    });
  });
}
