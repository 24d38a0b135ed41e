// The guilds the bot is in. Removed from one (GUILD_DELETE, or missing from READY after a
// restart), it ends that guild's live posts and stops acting on its follows and club, which stay
// stored as inactive: added back, the guild finds its set-up as it left it.
import { Events, type Client } from 'discord.js';
import type { Handle } from '../protocol/handle.js';
import type { BotContext } from './context.js';

const REMOVED = 'Kibitz was removed from this server';

/** Every handle a follow or a club needs FICS to watch, by lower-case name. */
async function watched(ctx: BotContext): Promise<Map<string, Handle>> {
  const handles = [...(await ctx.storage.follows.handles()), ...(await ctx.storage.clubs.watchedHandles())];
  return new Map(handles.map((h) => [h.toLowerCase(), h]));
}

/** Ends a guild's live posts and makes its follows and club inactive; unfollows what no one needs. */
export async function guildRemoved(ctx: BotContext, guildId: string): Promise<void> {
  if (!(await ctx.storage.guildSettings.isActive(guildId))) return;
  const before = await watched(ctx);
  await ctx.storage.guildSettings.setInactive(guildId);
  const after = await watched(ctx);
  const live = await ctx.storage.livePosts.countLiveInGuild(guildId);
  ctx.logger.info(
    { guildId, livePosts: live },
    'removed from a guild: its live posts end, its set-up is kept inactive',
  );
  await ctx.relay.endGuild(guildId, REMOVED);
  for (const [name, handle] of before) {
    if (after.has(name)) continue;
    await ctx.fics
      .unfollow(handle)
      .catch((error: unknown) => ctx.logger.warn({ err: error, handle }, 'FICS unfollow failed'));
  }
}

/** Back in a guild it had been removed from: its follows and club apply again. */
export async function guildAdded(ctx: BotContext, guildId: string): Promise<void> {
  const before = await watched(ctx);
  if (!(await ctx.storage.guildSettings.setActive(guildId))) return;
  ctx.logger.info({ guildId }, 'added back to a guild: its follows and club apply again');
  for (const [name, handle] of await watched(ctx)) {
    if (before.has(name)) continue;
    await ctx.fics
      .follow(handle)
      .catch((error: unknown) => ctx.logger.warn({ err: error, handle }, 'FICS follow failed'));
  }
}

/**
 * Follows the client's guild events, and right after READY treats every guild with stored set-up
 * that Discord no longer lists as removed (the bot was removed while it was not running).
 * `owns` limits this to the guilds of this shard.
 */
export async function watchGuilds(client: Client<true>, ctx: BotContext, owns: (guildId: string) => boolean) {
  const log = (error: unknown): void => ctx.logger.error({ err: error }, 'guild membership change failed');
  // discord.js emits GuildUnavailable, not GuildDelete, for an outage: this is a removal.
  client.on(Events.GuildDelete, (guild) => void guildRemoved(ctx, guild.id).catch(log));
  client.on(Events.GuildCreate, (guild) => void guildAdded(ctx, guild.id).catch(log));
  for (const guildId of await ctx.storage.guildSettings.guildsWithSetUp()) {
    if (owns(guildId) && !client.guilds.cache.has(guildId)) await guildRemoved(ctx, guildId);
  }
}
