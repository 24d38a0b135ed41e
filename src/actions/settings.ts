// /settings as a use case: a server's board theme and its kibitz default, shown or changed. A
// plain function over the storage it needs; the discord.js adapter is commands/settings.ts.
import { DEFAULT_THEME, isThemeName, THEME_NAMES, type ThemeName } from '../../render/theme.js';
import { err, errorMessage, ok, type Result } from '../result.js';
import type { GuildSettings, GuildSettingsRepository } from '../storage/guild-settings.js';
import type { LivePostRepository } from '../storage/live-posts.js';
import type { Services } from './services.js';

export interface SettingsServices {
  guildSettings: Pick<GuildSettingsRepository, 'get' | 'update'>;
  livePosts: Pick<LivePostRepository, 'setThemeInGuild'>;
}

export type SettingsRequest =
  | { guildId: string; change: 'show' }
  /** A name as the user gave it (checked here). */
  | { guildId: string; change: 'theme'; theme: string }
  | { guildId: string; change: 'kibitz'; kibitz: boolean };

/** What applies now in the server; `livePostsRedrawn`: live posts whose next pictures take a new theme. */
export interface SettingsShown {
  theme: ThemeName;
  kibitz: boolean;
  livePostsRedrawn: number;
}

export type SettingsError =
  | { kind: 'unknown-theme'; theme: string; themes: readonly ThemeName[] }
  | { kind: 'not-saved'; detail: string };

export async function settings(
  services: SettingsServices,
  request: SettingsRequest,
): Promise<Result<SettingsShown, SettingsError>> {
  const { guildId } = request;
  if (request.change === 'theme' && !isThemeName(request.theme))
    return err({ kind: 'unknown-theme', theme: request.theme, themes: THEME_NAMES });
  try {
    switch (request.change) {
      case 'show':
        return ok(shown(await services.guildSettings.get(guildId), 0));
      case 'kibitz':
        return ok(shown(await services.guildSettings.update(guildId, { kibitz: request.kibitz }), 0));
      case 'theme': {
        const theme = request.theme as ThemeName;
        const saved = await services.guildSettings.update(guildId, { theme });
        return ok(shown(saved, await services.livePosts.setThemeInGuild(guildId, theme)));
      }
    }
  } catch (error) {
    return err({ kind: 'not-saved', detail: errorMessage(error) });
  }
}

function shown(saved: GuildSettings, livePostsRedrawn: number): SettingsShown {
  return { theme: saved.theme ?? DEFAULT_THEME, kibitz: saved.kibitz ?? false, livePostsRedrawn };
}

/** A server's settings; the defaults outside a server or when the database cannot say (logged). */
export async function serverSettings(
  services: Pick<Services, 'storage' | 'logger'>,
  guildId: string | null,
): Promise<Pick<GuildSettings, 'theme' | 'kibitz'>> {
  if (guildId === null) return { theme: null, kibitz: null };
  try {
    return await services.storage.guildSettings.get(guildId);
  } catch (error) {
    services.logger.error(
      { err: error, guildId },
      "database read failed: the server's settings are taken as the defaults",
    );
    return { theme: null, kibitz: null };
  }
}
