// The discord.js client and REST handle, pointed at DISCORD_API_BASE when set (the fake).
import { Client, GatewayIntentBits, REST } from 'discord.js';
import type { DiscordConfig } from '../config.js';

export function createClient(config: DiscordConfig): Client {
  return new Client({
    // Guilds brings guild, channel, role and thread caches (for permission checks); the bot
    // reads no message content and needs no privileged intents.
    intents: [GatewayIntentBits.Guilds],
    // Player handles and game text must never ping anyone.
    allowedMentions: { parse: [] },
    ...(config.apiBase !== null ? { rest: { api: config.apiBase } } : {}),
  });
}

export function createRest(config: DiscordConfig): REST {
  return new REST(config.apiBase !== null ? { api: config.apiBase } : {}).setToken(config.token);
}
