import { afterEach, describe, expect, it } from 'vitest';
import { migrations, openStorage, type NewClubGame, type Storage } from '../../src/storage/index.js';

let storage: Storage;
let clock = 1_000;
afterEach(() => storage?.close());

function open(): Storage {
  const opened = openStorage(':memory:', { now: () => clock });
  if (!opened.ok) throw new Error(opened.error);
  storage = opened.storage;
  return storage;
}

const posted = (over: Partial<NewClubGame> = {}): NewClubGame => ({
  guildId: 'g1',
  channelId: 'c1',
  gameKey: '7:Alice:Bob',
  game: 7,
  white: 'Alice',
  black: 'Bob',
  postId: 1,
  messageChannelId: 'c1',
  messageId: 'm1',
  ...over,
});

describe('clubs in storage', () => {
  it('is migration 2, applied on open', () => {
    const s = open();
    expect(s.schemaVersion).toBe(migrations.length);
    expect(migrations[1]!.description).toMatch(/^clubs/);
  });

  it('keeps settings per guild, with defaults for a guild that set none', () => {
    const s = open();
    expect(s.clubs.settings('g1')).toEqual({
      guildId: 'g1',
      channelId: null,
      thread: false,
      mode: 'all',
      ratedOnly: false,
      types: null,
      capNoticed: false,
    });
    s.clubs.update('g1', { channelId: 'c1', mode: 'members' }, 'u1');
    s.clubs.update('g1', { ratedOnly: true, types: ['blitz', 'standard'] }, 'u2');
    expect(s.clubs.settings('g1')).toMatchObject({
      channelId: 'c1',
      mode: 'members',
      ratedOnly: true,
      types: ['blitz', 'standard'],
    });
    expect(s.clubs.settings('g2').channelId).toBeNull();
    s.clubs.setCapNoticed('g1', true);
    expect(s.clubs.guildsWithCapNotice()).toEqual(['g1']);
  });

  it('members and pairings; which clubs care about a game; which handles to follow', () => {
    const s = open();
    expect(s.clubs.addMember('g1', 'Alice', 'u1')).toBe(true);
    expect(s.clubs.addMember('g1', 'alice', 'u1')).toBe(false);
    s.clubs.addMember('g2', 'Bob', 'u1');
    s.clubs.update('g1', { channelId: 'c1' }, 'u1');
    // g2 has no channel: it cannot post, so it does not care yet.
    expect(s.clubs.clubsFor('ALICE', 'Bob').map((c) => c.guildId)).toEqual(['g1']);
    s.clubs.setPairings('g3', [{ first: 'Carol', second: 'Dave' }]);
    s.clubs.update('g3', { channelId: 'c3', mode: 'pairings' }, 'u1');
    expect(s.clubs.clubsFor('dave', 'Xavier').map((c) => c.guildId)).toEqual(['g3']);
    expect(s.clubs.get('g3').pairings).toEqual([{ first: 'Carol', second: 'Dave' }]);
    expect(s.clubs.watchedHandles()).toEqual(['Alice', 'Bob', 'Carol', 'Dave']);
    expect(s.clubs.watches('carol')).toBe(true);
    s.clubs.update('g3', { mode: 'all' }, 'u1');
    expect(s.clubs.watches('carol')).toBe(false);
    expect(s.clubs.removeMember('g1', 'ALICE')).toBe(true);
    expect(s.clubs.removeMember('g1', 'Alice')).toBe(false);
    expect(s.clubs.members('g1')).toEqual([]);
  });

  it('records a game once while it runs; a game that ended may come again under its key', () => {
    const s = open();
    const first = s.clubs.recordGame(posted());
    expect(first).toMatchObject({ gameKey: '7:Alice:Bob', result: null, endedAt: null, startedAt: 1_000 });
    expect(s.clubs.recordGame(posted({ postId: 2 }))).toBeNull();
    // Another club posts the same game on its own.
    expect(s.clubs.recordGame(posted({ guildId: 'g2', channelId: 'c2', postId: 3 }))).not.toBeNull();
    clock = 2_000;
    expect(s.clubs.finishGame('7:Alice:Bob', '1-0', 'Bob resigns')).toBe(2);
    expect(s.clubs.openGame('g1', '7:Alice:Bob')).toBeNull();
    expect(s.clubs.gameOfPost(1)).toMatchObject({ result: '1-0', reason: 'Bob resigns', endedAt: 2_000 });
    // A rematch under the same number and players is a new game.
    const rematch = s.clubs.recordGame(posted({ postId: 4, messageId: 'm4' }));
    expect(rematch).not.toBeNull();
    clock = 3_000;
    expect(s.clubs.closeGame(rematch!.id, '*', 'ended while Kibitz was offline')).toBe(true);
    expect(s.clubs.closeGame(rematch!.id, '1-0', null)).toBe(false);
    expect(s.clubs.results('g1', 0).map((g) => [g.messageId, g.result, g.endedAt])).toEqual([
      ['m4', '*', 3_000],
      ['m1', '1-0', 2_000],
    ]);
    expect(s.clubs.results('g1', 2_500).map((g) => g.messageId)).toEqual(['m4']);
  });
});

describe('a guild the bot was removed from', () => {
  it('keeps its follows and club stored but out of every lookup that acts on them, until it is back', () => {
    const s = open();
    s.clubs.update('g1', { channelId: 'c1', mode: 'members' }, 'u1');
    s.clubs.addMember('g1', 'Alice', 'u1');
    s.follows.add({ guildId: 'g1', channelId: 'c1', handle: 'Carlsen', createdBy: 'u1' });
    s.follows.add({ guildId: 'g2', channelId: 'c2', handle: 'Nepo', createdBy: 'u1' });
    expect(s.guildSettings.guildsWithSetUp().sort()).toEqual(['g1', 'g2']);

    s.guildSettings.setInactive('g1');
    expect(s.guildSettings.isActive('g1')).toBe(false);
    expect(s.clubs.clubsFor('Alice', 'Bob')).toEqual([]);
    expect(s.clubs.watchedHandles()).toEqual([]);
    expect(s.follows.listForHandle('Carlsen')).toEqual([]);
    expect(s.follows.handles()).toEqual(['Nepo']);
    expect(s.guildSettings.guildsWithSetUp()).toEqual(['g2']);
    // Stored as it was.
    expect(s.clubs.members('g1')).toEqual(['Alice']);
    expect(s.follows.listForGuild('g1').map((f) => f.handle)).toEqual(['Carlsen']);

    expect(s.guildSettings.setActive('g1')).toBe(true);
    expect(s.guildSettings.setActive('g1')).toBe(false);
    expect(s.clubs.clubsFor('Alice', 'Bob').map((c) => c.guildId)).toEqual(['g1']);
    expect(s.clubs.watchedHandles()).toEqual(['Alice']);
    expect(s.follows.handles()).toEqual(['Carlsen', 'Nepo']);
  });
});
