// The discord.js client and REST handle, pointed at DISCORD_API_BASE when set (the fake).
import { Client, GatewayIntentBits, Options, REST } from 'discord.js';
import type { DiscordConfig } from '../config.js';
import { bufferedRequest } from './buffered-request.js';

export function createClient(config: DiscordConfig): Client {
  return new Client({
    // Guilds brings guild, channel, role and thread caches (for permission checks); the bot
    // reads no message content and needs no privileged intents.
    intents: [GatewayIntentBits.Guilds],
    // Player handles and game text must never ping anyone.
    allowedMentions: { parse: [] },
    // Live posts are edited by id and never read back: a message cache (200 per channel by
    // default) would only grow, by every game posted, for days (npm run soak measured it).
    makeCache: Options.cacheWithLimits({ ...Options.DefaultMakeCacheSettings, MessageManager: 0 }),
    rest: {
      ...restBase(config),
      // Live boards are edited latest-wins (relay/latest-wins.ts): were discord.js to hold an edit
      // until its rate limit passed, the position it then sent would be an old one. It says so
      // at once instead, and the relay sends the newest position when the limit allows.
      // A 429 with no wait at all (Discord's edge refusing a banned IP sends no Retry-After) would
      // make discord.js retry at once, forever, on any route: it is thrown instead, and the caller
      // backs off (live-port.ts) while the governor pauses edits bot-wide (governor.ts).
      rejectOnRateLimit: (limit) =>
        limit.retryAfter <= 0 || (limit.method.toUpperCase() === 'PATCH' && limit.route === LIVE_EDIT_ROUTE),
    },
  });
}

/** discord.js's name for the rate-limit bucket of channel message edits. */
const LIVE_EDIT_ROUTE = '/channels/:id/messages/:id';

/**
 * discord.js resends a request that met a 5xx, a timeout (AbortError) or ECONNRESET at once, up to
 * `retries` times (3 by default: a 503 meets 4 tries in ms). Discord asks for a wait before a
 * retry, so none is resent here: each caller waits and tries again itself (live-port.ts: posts and
 * edits after 1 s, doubling), or fails and says so (a command's reply, GET /gateway/bot). 429s
 * are not counted in `retries`: discord.js waits their Retry-After.
 */
export const REST_RETRIES = 0;

/**
 * What every REST handle of the bot shares: the API base (the fake's, in tests), no resends, and
 * answers read into a buffer rather than a stream (buffered-request.ts).
 */
function restBase(config: DiscordConfig): {
  api?: string;
  retries: number;
  makeRequest: typeof bufferedRequest;
} {
  return {
    ...(config.apiBase !== null ? { api: config.apiBase } : {}),
    retries: REST_RETRIES,
    makeRequest: bufferedRequest,
  };
}

export function createRest(config: DiscordConfig): REST {
  return new REST(restBase(config)).setToken(config.token);
}
