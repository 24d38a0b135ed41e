import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrations, openStorage, type NewClubGame, type Storage } from '../../src/storage/index.js';
import { backends } from './backends.js';
import { gameId } from '../support/fics-values.js';

const posted = (over: Partial<NewClubGame> = {}): NewClubGame => ({
  guildId: 'g1',
  channelId: 'c1',
  gameKey: '7:Alice:Bob',
  game: gameId(7),
  white: 'Alice',
  black: 'Bob',
  postId: 1,
  messageChannelId: 'c1',
  messageId: 'm1',
  ...over,
});

for (const backend of backends) {
  describe(backend.name, () => {
    let storage: Storage | undefined;
    let clock: number;
    beforeEach(() => (clock = 1_000));
    afterEach(async () => {
      await storage?.close();
      storage = undefined;
    });
    afterAll(() => backend.cleanUp());

    async function open(): Promise<Storage> {
      const opened = await openStorage(await backend.fresh(), { now: () => clock });
      if (!opened.ok) throw new Error(opened.error);
      storage = opened.value;
      return storage;
    }

    describe('clubs in storage', () => {
      it('is migration 2, applied on open', async () => {
        const s = await open();
        expect(s.schemaVersion).toBe(migrations.length);
        expect(migrations[1]!.description).toMatch(/^clubs/);
      });

      it('keeps settings per guild, with defaults for a guild that set none', async () => {
        const s = await open();
        expect(await s.clubs.settings('g1')).toEqual({
          guildId: 'g1',
          channelId: null,
          thread: false,
          mode: 'all',
          ratedOnly: false,
          types: null,
          capNoticed: false,
        });
        await s.clubs.update('g1', { channelId: 'c1', mode: 'members' }, 'u1');
        await s.clubs.update('g1', { ratedOnly: true, types: ['blitz', 'standard'] }, 'u2');
        expect(await s.clubs.settings('g1')).toMatchObject({
          channelId: 'c1',
          mode: 'members',
          ratedOnly: true,
          types: ['blitz', 'standard'],
        });
        expect((await s.clubs.settings('g2')).channelId).toBeNull();
        await s.clubs.setCapNoticed('g1', true);
        expect(await s.clubs.guildsWithCapNotice()).toEqual(['g1']);
      });

      it('members and pairings; which clubs care about a game; which handles to follow', async () => {
        const s = await open();
        expect(await s.clubs.addMember('g1', 'Alice', 'u1')).toBe(true);
        expect(await s.clubs.addMember('g1', 'alice', 'u1')).toBe(false);
        await s.clubs.addMember('g2', 'Bob', 'u1');
        await s.clubs.update('g1', { channelId: 'c1' }, 'u1');
        // g2 has no channel: it cannot post, so it does not care yet.
        expect((await s.clubs.clubsFor('ALICE', 'Bob')).map((c) => c.guildId)).toEqual(['g1']);
        await s.clubs.setPairings('g3', [{ first: 'Carol', second: 'Dave' }]);
        await s.clubs.update('g3', { channelId: 'c3', mode: 'pairings' }, 'u1');
        expect((await s.clubs.clubsFor('dave', 'Xavier')).map((c) => c.guildId)).toEqual(['g3']);
        expect((await s.clubs.get('g3')).pairings).toEqual([{ first: 'Carol', second: 'Dave' }]);
        expect(await s.clubs.watchedHandles()).toEqual(['Alice', 'Bob', 'Carol', 'Dave']);
        expect(await s.clubs.watches('carol')).toBe(true);
        await s.clubs.update('g3', { mode: 'all' }, 'u1');
        expect(await s.clubs.watches('carol')).toBe(false);
        expect(await s.clubs.removeMember('g1', 'ALICE')).toBe(true);
        expect(await s.clubs.removeMember('g1', 'Alice')).toBe(false);
        expect(await s.clubs.members('g1')).toEqual([]);
      });

      it('records a game once while it runs; a game that ended may come again under its key', async () => {
        const s = await open();
        const first = await s.clubs.recordGame(posted());
        expect(first).toMatchObject({
          gameKey: '7:Alice:Bob',
          result: null,
          endedAt: null,
          startedAt: 1_000,
        });
        expect(await s.clubs.recordGame(posted({ postId: 2 }))).toBeNull();
        // Another club posts the same game on its own.
        expect(
          await s.clubs.recordGame(posted({ guildId: 'g2', channelId: 'c2', postId: 3 })),
        ).not.toBeNull();
        clock = 2_000;
        expect(await s.clubs.finishGame('7:Alice:Bob', '1-0', 'Bob resigns')).toBe(2);
        expect(await s.clubs.openGame('g1', '7:Alice:Bob')).toBeNull();
        expect(await s.clubs.gameOfPost(1)).toMatchObject({
          result: '1-0',
          reason: 'Bob resigns',
          endedAt: 2_000,
        });
        // A rematch under the same number and players is a new game.
        const rematch = await s.clubs.recordGame(posted({ postId: 4, messageId: 'm4' }));
        expect(rematch).not.toBeNull();
        clock = 3_000;
        expect(await s.clubs.closeGame(rematch!.id, '*', 'ended while Kibitz was offline')).toBe(true);
        expect(await s.clubs.closeGame(rematch!.id, '1-0', null)).toBe(false);
        expect((await s.clubs.results('g1', 0)).map((g) => [g.messageId, g.result, g.endedAt])).toEqual([
          ['m4', '*', 3_000],
          ['m1', '1-0', 2_000],
        ]);
        expect((await s.clubs.results('g1', 2_500)).map((g) => g.messageId)).toEqual(['m4']);
      });
    });

    describe('a guild the bot was removed from', () => {
      it('keeps its follows and club stored but out of every lookup that acts on them, until it is back', async () => {
        const s = await open();
        await s.clubs.update('g1', { channelId: 'c1', mode: 'members' }, 'u1');
        await s.clubs.addMember('g1', 'Alice', 'u1');
        await s.follows.add({ guildId: 'g1', channelId: 'c1', handle: 'Carlsen', createdBy: 'u1' });
        await s.follows.add({ guildId: 'g2', channelId: 'c2', handle: 'Nepo', createdBy: 'u1' });
        expect((await s.guildSettings.guildsWithSetUp()).sort()).toEqual(['g1', 'g2']);
        // What the FICS pool asks from memory: who wants a player's games.
        expect(s.interest.wantedBy(['carlsen', 'Nepo']).sort()).toEqual(['g1', 'g2']);
        expect(s.interest.wantedBy(['ALICE'])).toEqual(['g1']);

        await s.guildSettings.setInactive('g1');
        expect(await s.guildSettings.isActive('g1')).toBe(false);
        expect(await s.clubs.clubsFor('Alice', 'Bob')).toEqual([]);
        expect(await s.clubs.watchedHandles()).toEqual([]);
        expect(await s.follows.listForHandle('Carlsen')).toEqual([]);
        expect(await s.follows.handles()).toEqual(['Nepo']);
        expect(s.interest.wantedBy(['Carlsen', 'Alice'])).toEqual([]);
        expect(await s.guildSettings.guildsWithSetUp()).toEqual(['g2']);
        // Stored as it was.
        expect(await s.clubs.members('g1')).toEqual(['Alice']);
        expect((await s.follows.listForGuild('g1')).map((f) => f.handle)).toEqual(['Carlsen']);

        expect(await s.guildSettings.setActive('g1')).toBe(true);
        expect(await s.guildSettings.setActive('g1')).toBe(false);
        expect((await s.clubs.clubsFor('Alice', 'Bob')).map((c) => c.guildId)).toEqual(['g1']);
        expect(await s.clubs.watchedHandles()).toEqual(['Alice']);
        expect(await s.follows.handles()).toEqual(['Carlsen', 'Nepo']);
        expect(s.interest.wantedBy(['Alice', 'Carlsen'])).toEqual(['g1']);
      });
    });
  });
}
