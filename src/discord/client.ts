// The discord.js client and REST handle, pointed at DISCORD_API_BASE when set (the fake).
import { Client, GatewayIntentBits, Options, REST } from 'discord.js';
import type { DiscordConfig } from '../config.js';

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
      ...(config.apiBase !== null ? { api: config.apiBase } : {}),
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

export function createRest(config: DiscordConfig): REST {
  return new REST(config.apiBase !== null ? { api: config.apiBase } : {}).setToken(config.token);
}
