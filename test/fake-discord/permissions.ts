// Discord's permission computation (base permissions from roles, then channel overwrites in the
// order @everyone, roles, member), as the server does it for app_permissions and for refusing
// REST calls. Threads take their parent channel's overwrites.
import { PermissionFlagsBits } from 'discord.js';
import type { FakeState } from './model.js';

export const ALL_PERMISSIONS = Object.values(PermissionFlagsBits).reduce((all, bit) => all | bit, 0n);

/** The permissions a typical new server gives @everyone. */
export const DEFAULT_EVERYONE_PERMISSIONS =
  PermissionFlagsBits.ViewChannel |
  PermissionFlagsBits.SendMessages |
  PermissionFlagsBits.SendMessagesInThreads |
  PermissionFlagsBits.CreatePublicThreads |
  PermissionFlagsBits.EmbedLinks |
  PermissionFlagsBits.AttachFiles |
  PermissionFlagsBits.AddReactions |
  PermissionFlagsBits.ReadMessageHistory |
  PermissionFlagsBits.UseApplicationCommands;

/** What the bot's own managed role grants unless a test says otherwise: all Kibitz needs. */
export const DEFAULT_BOT_PERMISSIONS =
  PermissionFlagsBits.ViewChannel |
  PermissionFlagsBits.SendMessages |
  PermissionFlagsBits.SendMessagesInThreads |
  PermissionFlagsBits.CreatePublicThreads |
  PermissionFlagsBits.EmbedLinks |
  PermissionFlagsBits.AttachFiles |
  PermissionFlagsBits.ReadMessageHistory |
  PermissionFlagsBits.UseApplicationCommands;

/** Guild-wide permissions of a member (no channel overwrites). */
export function basePermissions(state: FakeState, guildId: string, userId: string): bigint {
  const guild = state.requireGuild(guildId);
  if (guild.ownerId === userId) return ALL_PERMISSIONS;
  const member = guild.members.get(userId);
  // Not (or no longer) in the guild, like a bot removed from it: no access at all.
  if (member === undefined) return 0n;
  let permissions = guild.roles.get(guild.id)?.permissions ?? 0n;
  for (const roleId of member.roles) permissions |= guild.roles.get(roleId)?.permissions ?? 0n;
  return permissions & PermissionFlagsBits.Administrator ? ALL_PERMISSIONS : permissions;
}

/** A member's permissions in a channel (or thread), overwrites applied. */
export function channelPermissions(state: FakeState, channelId: string, userId: string): bigint {
  const channel = state.requireChannel(channelId);
  const base = basePermissions(state, channel.guildId, userId);
  if (base === ALL_PERMISSIONS) return ALL_PERMISSIONS;
  const source = channel.thread && channel.parentId ? state.requireChannel(channel.parentId) : channel;
  const guild = state.requireGuild(channel.guildId);
  const memberRoles = new Set(guild.members.get(userId)?.roles ?? []);
  let permissions = base;
  const everyone = source.overwrites.find((o) => o.type === 0 && o.id === guild.id);
  if (everyone) permissions = (permissions & ~everyone.deny) | everyone.allow;
  let allow = 0n;
  let deny = 0n;
  for (const overwrite of source.overwrites) {
    if (overwrite.type === 0 && overwrite.id !== guild.id && memberRoles.has(overwrite.id)) {
      allow |= overwrite.allow;
      deny |= overwrite.deny;
    }
  }
  permissions = (permissions & ~deny) | allow;
  const own = source.overwrites.find((o) => o.type === 1 && o.id === userId);
  if (own) permissions = (permissions & ~own.deny) | own.allow;
  return permissions;
}
