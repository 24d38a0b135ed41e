// The fake's in-memory world (guilds, roles, members, channels, threads, messages, commands) and
// its rendering as Discord API JSON. Field lists follow what discord.js 14 reads: a missing field
// there crashes the client, so objects carry the full shape even where tests never look.
import { ChannelType } from 'discord.js';
import { Snowflakes } from './snowflake.js';

export interface ApiUser {
  id: string;
  username: string;
  global_name: string | null;
  discriminator: string;
  avatar: string | null;
  bot?: boolean;
  public_flags?: number;
}

export interface FakeRole {
  id: string;
  name: string;
  permissions: bigint;
  position: number;
  /** Managed roles belong to an integration, here the bot's own role. */
  botId: string | null;
}

export interface FakeMember {
  userId: string;
  roles: string[];
  joinedAt: number;
}

/** A channel permission overwrite: type 0 targets a role, 1 a member. */
export interface Overwrite {
  id: string;
  type: 0 | 1;
  allow: bigint;
  deny: bigint;
}

export interface ThreadInfo {
  ownerId: string;
  archived: boolean;
  locked: boolean;
  autoArchiveDuration: number;
  createdAt: number;
}

export interface FakeChannel {
  id: string;
  guildId: string;
  type: ChannelType;
  name: string;
  position: number;
  parentId: string | null;
  overwrites: Overwrite[];
  topic: string | null;
  /** Set for threads. */
  thread: ThreadInfo | null;
  lastMessageId: string | null;
  messageCount: number;
}

export interface FakeGuild {
  id: string;
  name: string;
  ownerId: string;
  joinedAt: number;
  roles: Map<string, FakeRole>;
  members: Map<string, FakeMember>;
}

export interface FakeAttachment {
  id: string;
  filename: string;
  contentType: string | null;
  description: string | null;
  bytes: Buffer;
}

/** What a message looked like after one write (creation or edit). */
export interface MessageRevision {
  at: number;
  content: string;
  embeds: unknown[];
  components: unknown[];
  attachments: FakeAttachment[];
  flags: number;
}

export interface FakeMessage {
  id: string;
  channelId: string;
  guildId: string | null;
  author: ApiUser;
  content: string;
  embeds: unknown[];
  components: unknown[];
  attachments: FakeAttachment[];
  flags: number;
  /** 0 default, 20 chat-input command reply, 23 context-menu reply (as Discord types them). */
  type: number;
  createdAt: number;
  editedAt: number | null;
  deleted: boolean;
  /** Every state the message had, oldest first: revisions.length - 1 is the number of edits. */
  revisions: MessageRevision[];
  /** Set when the message answers an interaction. */
  interaction: { id: string; type: number; user: ApiUser } | null;
  webhookId: string | null;
  /** Thread started from this message (its id equals the message id). */
  threadId: string | null;
}

export interface RegisteredCommand {
  id: string;
  application_id: string;
  guild_id?: string;
  version: string;
  name: string;
  description: string;
  type: number;
  options?: CommandOptionDefinition[];
  [key: string]: unknown;
}

export interface CommandOptionDefinition {
  type: number;
  name: string;
  description?: string;
  options?: CommandOptionDefinition[];
  autocomplete?: boolean;
  [key: string]: unknown;
}

export const MESSAGE_FLAG_EPHEMERAL = 64;
export const MESSAGE_FLAG_LOADING = 128;

export const TEXT_CHANNEL_TYPES: ReadonlySet<ChannelType> = new Set([
  ChannelType.GuildText,
  ChannelType.GuildAnnouncement,
  ChannelType.PublicThread,
  ChannelType.PrivateThread,
  ChannelType.AnnouncementThread,
  ChannelType.GuildVoice,
]);

export const THREAD_TYPES: ReadonlySet<ChannelType> = new Set([
  ChannelType.PublicThread,
  ChannelType.PrivateThread,
  ChannelType.AnnouncementThread,
]);

export class FakeState {
  readonly ids = new Snowflakes();
  /** The fake's clock for messages (ids, ages); FakeDiscord.advanceClock moves it. */
  now: () => number = Date.now;
  readonly users = new Map<string, ApiUser>();
  readonly guilds = new Map<string, FakeGuild>();
  readonly channels = new Map<string, FakeChannel>();
  readonly messages = new Map<string, FakeMessage>();
  /** Global commands under the key "", guild commands under the guild id. */
  readonly commands = new Map<string, RegisteredCommand[]>();
  /**
   * Embed pictures naming no attachment of their message (`<message id> embeds.N.image:
   * attachment://name`): Discord takes the message but shows no picture in the embed (messages.ts).
   */
  readonly unresolvedPictures: string[] = [];
  /**
   * Attachments an embed showed, kept by an edit that left no embed showing them (`<message id>:
   * name`): Discord shows them as loose files under the message (messages.ts).
   */
  readonly loosePictures: string[] = [];

  requireGuild(id: string): FakeGuild {
    const guild = this.guilds.get(id);
    if (!guild) throw new Error(`fake Discord: no guild ${id}`);
    return guild;
  }

  requireChannel(id: string): FakeChannel {
    const channel = this.channels.get(id);
    if (!channel) throw new Error(`fake Discord: no channel ${id}`);
    return channel;
  }

  requireMessage(id: string): FakeMessage {
    const message = this.messages.get(id);
    if (!message) throw new Error(`fake Discord: no message ${id}`);
    return message;
  }

  requireUser(id: string): ApiUser {
    const user = this.users.get(id);
    if (!user) throw new Error(`fake Discord: no user ${id}`);
    return user;
  }

  channelsOf(guildId: string): FakeChannel[] {
    return [...this.channels.values()].filter((c) => c.guildId === guildId);
  }

  messagesIn(channelId: string): FakeMessage[] {
    return [...this.messages.values()].filter((m) => m.channelId === channelId && !m.deleted);
  }

  /** Registered commands visible in a guild: its own first, then global ones. */
  findCommand(guildId: string | null, name: string): RegisteredCommand | undefined {
    const own = guildId === null ? undefined : this.commands.get(guildId)?.find((c) => c.name === name);
    return own ?? this.commands.get('')?.find((c) => c.name === name);
  }
}

// ---- API JSON ----------------------------------------------------------------------------------

const iso = (ms: number): string => new Date(ms).toISOString();

export function apiRole(role: FakeRole): Record<string, unknown> {
  return {
    id: role.id,
    name: role.name,
    color: 0,
    colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
    hoist: false,
    icon: null,
    unicode_emoji: null,
    position: role.position,
    permissions: role.permissions.toString(),
    managed: role.botId !== null,
    mentionable: false,
    flags: 0,
    ...(role.botId !== null ? { tags: { bot_id: role.botId } } : {}),
  };
}

export function apiMember(state: FakeState, member: FakeMember): Record<string, unknown> {
  return {
    user: state.requireUser(member.userId),
    nick: null,
    avatar: null,
    banner: null,
    roles: member.roles,
    joined_at: iso(member.joinedAt),
    premium_since: null,
    deaf: false,
    mute: false,
    flags: 0,
    pending: false,
    communication_disabled_until: null,
  };
}

export function apiChannel(channel: FakeChannel): Record<string, unknown> {
  const common = {
    id: channel.id,
    type: channel.type,
    guild_id: channel.guildId,
    name: channel.name,
    parent_id: channel.parentId,
    flags: 0,
  };
  if (channel.thread) {
    return {
      ...common,
      owner_id: channel.thread.ownerId,
      last_message_id: channel.lastMessageId,
      message_count: channel.messageCount,
      total_message_sent: channel.messageCount,
      member_count: 1,
      rate_limit_per_user: 0,
      thread_metadata: {
        archived: channel.thread.archived,
        auto_archive_duration: channel.thread.autoArchiveDuration,
        archive_timestamp: iso(channel.thread.createdAt),
        locked: channel.thread.locked,
        create_timestamp: iso(channel.thread.createdAt),
      },
    };
  }
  const placed = {
    ...common,
    position: channel.position,
    permission_overwrites: channel.overwrites.map((o) => ({
      id: o.id,
      type: o.type,
      allow: o.allow.toString(),
      deny: o.deny.toString(),
    })),
  };
  if (channel.type === ChannelType.GuildCategory) return placed;
  if (channel.type === ChannelType.GuildVoice) {
    return { ...placed, bitrate: 64000, user_limit: 0, rtc_region: null, nsfw: false, last_message_id: null };
  }
  return {
    ...placed,
    topic: channel.topic,
    nsfw: false,
    last_message_id: channel.lastMessageId,
    rate_limit_per_user: 0,
    default_auto_archive_duration: 1440,
  };
}

export function apiGuild(guild: FakeGuild): Record<string, unknown> {
  return {
    id: guild.id,
    name: guild.name,
    icon: null,
    splash: null,
    discovery_splash: null,
    banner: null,
    description: null,
    owner_id: guild.ownerId,
    afk_channel_id: null,
    afk_timeout: 300,
    verification_level: 0,
    default_message_notifications: 0,
    explicit_content_filter: 0,
    mfa_level: 0,
    nsfw_level: 0,
    premium_tier: 0,
    premium_subscription_count: 0,
    premium_progress_bar_enabled: false,
    preferred_locale: 'en-US',
    system_channel_id: null,
    system_channel_flags: 0,
    rules_channel_id: null,
    public_updates_channel_id: null,
    safety_alerts_channel_id: null,
    vanity_url_code: null,
    application_id: null,
    widget_enabled: false,
    max_members: 500000,
    max_video_channel_users: 25,
    features: [],
    emojis: [],
    stickers: [],
    roles: [...guild.roles.values()].map(apiRole),
  };
}

/** GUILD_CREATE adds the live parts: members, channels, threads and the lists discord.js clears. */
export function apiGuildCreate(state: FakeState, guild: FakeGuild): Record<string, unknown> {
  const channels = state.channelsOf(guild.id);
  return {
    ...apiGuild(guild),
    joined_at: iso(guild.joinedAt),
    large: false,
    unavailable: false,
    member_count: guild.members.size,
    members: [...guild.members.values()].map((m) => apiMember(state, m)),
    channels: channels.filter((c) => !c.thread).map(apiChannel),
    threads: channels.filter((c) => c.thread).map(apiChannel),
    voice_states: [],
    presences: [],
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
  };
}

export function apiAttachment(
  baseUrl: string,
  channelId: string,
  attachment: FakeAttachment,
): Record<string, unknown> {
  const url = `${baseUrl}/attachments/${channelId}/${attachment.id}/${encodeURIComponent(attachment.filename)}`;
  const size = imageSize(attachment.bytes);
  return {
    id: attachment.id,
    filename: attachment.filename,
    size: attachment.bytes.length,
    url,
    proxy_url: url,
    ...(attachment.contentType !== null ? { content_type: attachment.contentType } : {}),
    ...(attachment.description !== null ? { description: attachment.description } : {}),
    ...(size ? { width: size.width, height: size.height } : {}),
  };
}

export function apiMessage(state: FakeState, baseUrl: string, message: FakeMessage): Record<string, unknown> {
  const thread = message.threadId ? state.channels.get(message.threadId) : undefined;
  return {
    id: message.id,
    channel_id: message.channelId,
    ...(message.guildId !== null ? { guild_id: message.guildId } : {}),
    author: message.author,
    content: message.content,
    timestamp: iso(message.createdAt),
    edited_timestamp: message.editedAt === null ? null : iso(message.editedAt),
    tts: false,
    mention_everyone: false,
    mentions: [],
    mention_roles: [],
    attachments: message.attachments.map((a) => apiAttachment(baseUrl, message.channelId, a)),
    embeds: message.embeds,
    components: message.components,
    pinned: false,
    type: message.type,
    flags: message.flags,
    ...(message.webhookId !== null
      ? { webhook_id: message.webhookId, application_id: message.webhookId }
      : {}),
    ...(message.interaction !== null
      ? {
          interaction_metadata: {
            id: message.interaction.id,
            type: message.interaction.type,
            user: message.interaction.user,
            authorizing_integration_owners:
              message.guildId !== null ? { '0': message.guildId } : { '1': message.interaction.user.id },
          },
        }
      : {}),
    ...(thread ? { thread: apiChannel(thread) } : {}),
  };
}

/** Width and height of a PNG or GIF, as Discord reports for images; null for anything else. */
export function imageSize(bytes: Buffer): { width: number; height: number } | null {
  if (
    bytes.length >= 24 &&
    bytes.readUInt32BE(0) === 0x89504e47 &&
    bytes.toString('latin1', 12, 16) === 'IHDR'
  ) {
    return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  }
  if (bytes.length >= 10 && bytes.toString('latin1', 0, 3) === 'GIF') {
    return { width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
  }
  return null;
}
