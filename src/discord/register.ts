// Slash-command registration over REST: to one guild (instant; for development) or globally.
// PUT replaces the whole list, so registering is idempotent and removes stale commands.
import { DiscordAPIError, Routes } from 'discord.js';
import type { REST, RESTPostAPIChatInputApplicationCommandsJSONBody } from 'discord.js';
import { err, errorMessage, ok, type Result } from '../result.js';

export interface RegistrationTarget {
  applicationId: string;
  /** Register in this guild only; globally when null. */
  guildId: string | null;
}

/** How many commands were registered, and where (`globally`, `in guild <id>`). */
export type RegisterResult = Result<{ count: number; scope: string }>;

export async function registerCommands(
  rest: REST,
  target: RegistrationTarget,
  bodies: readonly RESTPostAPIChatInputApplicationCommandsJSONBody[],
): Promise<RegisterResult> {
  const scope = target.guildId === null ? 'globally' : `in guild ${target.guildId}`;
  const route =
    target.guildId === null
      ? Routes.applicationCommands(target.applicationId)
      : Routes.applicationGuildCommands(target.applicationId, target.guildId);
  try {
    const registered = (await rest.put(route, { body: bodies.map(numericPermissions) })) as unknown[];
    return ok({ count: registered.length, scope });
  } catch (error) {
    return err(`registering ${bodies.length} commands ${scope} failed: ${explain(error, target)}`);
  }
}

/**
 * Discord's published schema types `default_member_permissions` in a request as an integer
 * (discord.js writes the bit set as a string, which its docs also show): send the schema's type.
 */
function numericPermissions(
  body: RESTPostAPIChatInputApplicationCommandsJSONBody,
): RESTPostAPIChatInputApplicationCommandsJSONBody | Record<string, unknown> {
  const permissions = body.default_member_permissions;
  return typeof permissions === 'string'
    ? { ...body, default_member_permissions: Number(permissions) }
    : body;
}

/** The application id behind the token (GET /applications/@me). */
export async function fetchApplicationId(rest: REST): Promise<Result<string>> {
  try {
    const application = (await rest.get(Routes.currentApplication())) as { id?: unknown };
    return typeof application.id === 'string'
      ? ok(application.id)
      : err('Discord answered GET /applications/@me without an id');
  } catch (error) {
    return err(`cannot read the application behind DISCORD_TOKEN: ${explain(error, null)}`);
  }
}

function explain(error: unknown, target: RegistrationTarget | null): string {
  if (error instanceof DiscordAPIError) {
    if (error.status === 401) return 'Discord rejected DISCORD_TOKEN (401); reset it in the developer portal';
    if (target?.guildId != null && (error.code === 50001 || error.code === 10004)) {
      return `the bot is not in guild ${target.guildId} (DISCORD_GUILD_ID); invite it there first`;
    }
    return `${error.message} (HTTP ${error.status}, code ${String(error.code)})`;
  }
  return errorMessage(error);
}
