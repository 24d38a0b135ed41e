// The bot checks its own channel permissions before posting, so the user hears exactly what is
// missing instead of a bare "Missing Permissions" later.
import { PermissionFlagsBits } from 'discord.js';
import type { GuildBasedChannel, PermissionsBitField } from 'discord.js';
import { err, ok, type Result } from '../result.js';

export interface PostingNeeds {
  /** A discussion thread will be created for the game. */
  thread: boolean;
}

interface NamedPermission {
  bit: bigint;
  /** As Discord's settings screens name it. */
  name: string;
}

const POSTING: readonly NamedPermission[] = [
  { bit: PermissionFlagsBits.ViewChannel, name: 'View Channel' },
  { bit: PermissionFlagsBits.SendMessages, name: 'Send Messages' },
  { bit: PermissionFlagsBits.AttachFiles, name: 'Attach Files' },
  { bit: PermissionFlagsBits.EmbedLinks, name: 'Embed Links' },
];

const THREADS: readonly NamedPermission[] = [
  { bit: PermissionFlagsBits.CreatePublicThreads, name: 'Create Public Threads' },
  { bit: PermissionFlagsBits.SendMessagesInThreads, name: 'Send Messages in Threads' },
];

/** Everything the bot may need anywhere: what its invite link asks for. */
export const BOT_PERMISSIONS: bigint = [...POSTING, ...THREADS].reduce(
  (all, p) => all | p.bit,
  PermissionFlagsBits.ReadMessageHistory,
);

/** The OAuth2 link that adds the bot to a server with its slash commands and permissions. */
export function inviteUrl(applicationId: string): string {
  const query = new URLSearchParams({
    client_id: applicationId,
    scope: 'bot applications.commands',
    permissions: BOT_PERMISSIONS.toString(),
  });
  return `https://discord.com/oauth2/authorize?${query.toString()}`;
}

/** Names of the permissions in `needs` that `granted` lacks, in a fixed order. */
export function missingPostingPermissions(granted: bigint, needs: PostingNeeds): string[] {
  const required = needs.thread ? [...POSTING, ...THREADS] : POSTING;
  // Administrator implies everything, as Discord computes it.
  if ((granted & PermissionFlagsBits.Administrator) !== 0n) return [];
  return required.filter((p) => (granted & p.bit) === 0n).map((p) => p.name);
}

/** The permissions the bot lacks in a channel, and the message that tells the user. */
export interface MissingPermissions {
  readonly missing: string[];
  readonly message: string;
}

export type PostingCheck = Result<void, MissingPermissions>;

/** `channelLabel` is how to name the channel to the user, e.g. a `<#id>` mention. */
export function checkPostingPermissions(
  granted: bigint,
  channelLabel: string,
  needs: PostingNeeds,
): PostingCheck {
  const missing = missingPostingPermissions(granted, needs);
  if (missing.length === 0) return ok(undefined);
  return err({
    missing,
    message:
      `I can't post there: in ${channelLabel} I'm missing ${listInEnglish(missing.map((m) => `**${m}**`))}. ` +
      `A server admin can grant ${missing.length === 1 ? 'it' : 'them'} to my role in the channel's Permissions settings.`,
  });
}

/** The bot's own permissions in a cached guild channel, or null when its member is not cached. */
export function botPermissionsIn(channel: GuildBasedChannel): bigint | null {
  const me = channel.guild.members.me;
  if (me === null) return null;
  const permissions: Readonly<PermissionsBitField> | null = channel.permissionsFor(me);
  return permissions === null ? null : permissions.bitfield;
}

function listInEnglish(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1] ?? ''}`;
}
