// The /settings action over plain services: what it checks, what it stores, what it reports.
import { describe, expect, it } from 'vitest';
import { settings, type SettingsServices } from '../../src/actions/settings.js';
import type { GuildSettings, GuildSettingsPatch } from '../../src/storage/index.js';
import type { ThemeName } from '../../render/theme.js';

/** Settings kept in a map; `fail` makes every write throw as a refusing database would. */
function services(fail = false) {
  const stored = new Map<string, GuildSettings>();
  const themed: [string, ThemeName | null][] = [];
  const get = (guildId: string): GuildSettings =>
    stored.get(guildId) ?? { guildId, maxLiveGames: null, theme: null, kibitz: null };
  const s: SettingsServices = {
    guildSettings: {
      get: (guildId) => Promise.resolve(get(guildId)),
      update: (guildId, patch: GuildSettingsPatch) => {
        if (fail) return Promise.reject(new Error('SQLITE_READONLY'));
        const next = { ...get(guildId), ...patch };
        stored.set(guildId, next);
        return Promise.resolve(next);
      },
    },
    livePosts: {
      setThemeInGuild: (guildId, theme) => {
        themed.push([guildId, theme]);
        return Promise.resolve(2);
      },
    },
  };
  return { s, stored, themed };
}

describe('settings action', () => {
  it('shows the defaults for a server that set nothing', async () => {
    const { s } = services();
    expect(await settings(s, { guildId: 'g', change: 'show' })).toEqual({
      ok: true,
      value: { theme: 'brown', kibitz: false, livePostsRedrawn: 0 },
    });
  });

  it("stores a theme and gives it to the server's live posts", async () => {
    const { s, stored, themed } = services();
    expect(await settings(s, { guildId: 'g', change: 'theme', theme: 'grey' })).toEqual({
      ok: true,
      value: { theme: 'grey', kibitz: false, livePostsRedrawn: 2 },
    });
    expect(stored.get('g')?.theme).toBe('grey');
    expect(themed).toEqual([['g', 'grey']]);
  });

  it('refuses a theme it does not have, naming the ones it has, and stores nothing', async () => {
    const { s, stored, themed } = services();
    const result = await settings(s, { guildId: 'g', change: 'theme', theme: 'marble' });
    expect(result).toEqual({
      ok: false,
      error: { kind: 'unknown-theme', theme: 'marble', themes: ['brown', 'blue', 'green', 'grey', 'purple'] },
    });
    expect(stored.size).toBe(0);
    expect(themed).toEqual([]);
  });

  it('stores the kibitz default', async () => {
    const { s, stored } = services();
    expect(await settings(s, { guildId: 'g', change: 'kibitz', kibitz: true })).toMatchObject({
      ok: true,
      value: { kibitz: true },
    });
    expect(stored.get('g')?.kibitz).toBe(true);
  });

  it('reports a refused write instead of hiding it', async () => {
    const { s, themed } = services(true);
    expect(await settings(s, { guildId: 'g', change: 'theme', theme: 'blue' })).toEqual({
      ok: false,
      error: { kind: 'not-saved', detail: 'SQLITE_READONLY' },
    });
    expect(themed).toEqual([]);
  });
});
