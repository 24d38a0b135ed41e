// The REST routes the fake answers, in the shapes discord.js 14 expects. Permission checks and
// error codes follow Discord's: 10003 Unknown Channel, 10008 Unknown Message, 10015 Unknown
// Webhook, 10062 Unknown interaction, 40060 already acknowledged, 50001 Missing Access, 50005
// another user's message, 50013 Missing Permissions, 160004 thread already exists.
import {
  ApplicationCommandType,
  ChannelType,
  GatewayDispatchEvents,
  InteractionResponseType,
  InteractionType,
  MessageType,
  PermissionFlagsBits,
} from 'discord.js';
import type { Gateway } from './gateway.js';
import type { UploadedFile } from './http.js';
import { ApiError } from './http.js';
import type { InteractionRecord } from './interactions.js';
import { createMessage, editMessage, formError } from './messages.js';
import type { MessagePayload } from './messages.js';
import type { ApiUser, FakeChannel, FakeMessage, FakeState, RegisteredCommand } from './model.js';
import {
  MESSAGE_FLAG_EPHEMERAL,
  MESSAGE_FLAG_LOADING,
  TEXT_CHANNEL_TYPES,
  THREAD_TYPES,
  apiChannel,
  apiGuild,
  apiMember,
  apiMessage,
  apiRole,
} from './model.js';
import { channelPermissions } from './permissions.js';
import type { RateLimitConfig } from './rate-limits.js';

export interface World {
  readonly state: FakeState;
  readonly gateway: Gateway;
  readonly bot: ApiUser;
  readonly applicationId: string;
  readonly interactionResponseWindowMs: number;
  readonly interactionTokenLifetimeMs: number;
  origin(): string;
  readonly interactions: ReadonlyMap<string, InteractionRecord>;
  changed(): void;
}

export interface RouteRequest {
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  files: UploadedFile[];
}

export interface RouteResponse {
  status: number;
  /** JSON body; omitted for 204. */
  body?: unknown;
}

export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  template: string;
  /** Needs `Authorization: Bot <token>` (interaction callbacks and webhooks do not). */
  auth: boolean;
  bucket: keyof RateLimitConfig;
  handle(request: RouteRequest): RouteResponse;
}

/** How long Discord remembers a message's nonce for `enforce_nonce` ("the past few minutes"). */
export const NONCE_WINDOW_MS = 5 * 60_000;

const ok = (body: unknown, status = 200): RouteResponse => ({ status, body });
const noContent: RouteResponse = { status: 204 };

export function routes(world: World): Route[] {
  const { state } = world;
  const message = (m: FakeMessage): unknown => apiMessage(state, world.origin(), m);
  // Messages sent with `enforce_nonce`, by author and nonce, oldest first (pruned to the window).
  const nonces = new Map<string, { messageId: string; at: number }>();
  const route = (
    method: Route['method'],
    template: string,
    handle: Route['handle'],
    options: { auth?: boolean; bucket?: keyof RateLimitConfig } = {},
  ): Route => ({ method, template, handle, auth: options.auth ?? true, bucket: options.bucket ?? 'default' });

  // ---- lookups that fail the way Discord fails --------------------------------------------------

  const channelFor = (id: string | undefined): FakeChannel => {
    const channel = id === undefined ? undefined : state.channels.get(id);
    if (!channel) throw new ApiError(404, 10003, 'Unknown Channel');
    return channel;
  };
  const botPermissions = (channel: FakeChannel): bigint =>
    channelPermissions(state, channel.id, world.bot.id);
  const requireView = (channel: FakeChannel): bigint => {
    const permissions = botPermissions(channel);
    if ((permissions & PermissionFlagsBits.ViewChannel) === 0n)
      throw new ApiError(403, 50001, 'Missing Access');
    return permissions;
  };
  const requirePermission = (permissions: bigint, bit: bigint): void => {
    if ((permissions & bit) === 0n) throw new ApiError(403, 50013, 'Missing Permissions');
  };
  const messageIn = (channel: FakeChannel, id: string | undefined): FakeMessage => {
    const found = id === undefined ? undefined : state.messages.get(id);
    if (
      !found ||
      found.deleted ||
      found.channelId !== channel.id ||
      (found.flags & MESSAGE_FLAG_EPHEMERAL) !== 0
    ) {
      throw new ApiError(404, 10008, 'Unknown Message');
    }
    return found;
  };
  const requireApplication = (id: string | undefined): void => {
    if (id !== world.applicationId) {
      throw new ApiError(403, 20012, 'You are not authorized to perform this action on this application');
    }
  };
  const requireGuild = (id: string | undefined) => {
    const guild = id === undefined ? undefined : state.guilds.get(id);
    if (!guild) throw new ApiError(404, 10004, 'Unknown Guild');
    return guild;
  };
  const webhookInteraction = (params: Record<string, string>): InteractionRecord => {
    requireApplication(params.application_id);
    const record = [...world.interactions.values()].find((r) => r.token === params.interaction_token);
    if (!record || record.callback === null) throw new ApiError(404, 10015, 'Unknown Webhook');
    if (world.state.now() - record.createdAt > world.interactionTokenLifetimeMs) {
      throw new ApiError(401, 50027, 'Invalid Webhook Token');
    }
    return record;
  };
  const webhookMessage = (record: InteractionRecord, id: string | undefined): FakeMessage => {
    const messageId = id === '@original' ? record.originalMessageId : id;
    const own =
      messageId !== null &&
      (messageId === record.originalMessageId || record.followUpIds.includes(messageId ?? ''));
    const found = own && messageId ? state.messages.get(messageId) : undefined;
    if (!found || found.deleted) throw new ApiError(404, 10008, 'Unknown Message');
    return found;
  };
  const payload = (body: unknown): MessagePayload =>
    body !== null && typeof body === 'object' ? (body as MessagePayload) : {};

  // ---- commands ---------------------------------------------------------------------------------

  const putCommands = (key: string, body: unknown, guildId: string | undefined): RouteResponse => {
    if (!Array.isArray(body)) throw formError('_root', 'BASE_TYPE_ARRAY', 'Must be an array.');
    const previous = state.commands.get(key) ?? [];
    const seen = new Set<string>();
    const next = body.map((raw: Record<string, unknown>, index) => {
      const name = raw?.name;
      const type = typeof raw?.type === 'number' ? raw.type : ApplicationCommandType.ChatInput;
      if (typeof name !== 'string' || !/^[-_\p{Ll}\p{Lo}\p{N}]{1,32}$/u.test(name)) {
        throw formError(
          `${index}.name`,
          'APPLICATION_COMMAND_INVALID_NAME',
          `Command name is invalid: ${String(name)}`,
        );
      }
      const description = raw.description;
      if (
        type === ApplicationCommandType.ChatInput &&
        (typeof description !== 'string' || description.length < 1 || description.length > 100)
      ) {
        throw formError(
          `${index}.description`,
          'BASE_TYPE_BAD_LENGTH',
          'Must be between 1 and 100 in length.',
        );
      }
      if (seen.has(name))
        throw formError(`${index}.name`, 'APPLICATION_COMMANDS_DUPLICATE_NAME', `Duplicate name: ${name}`);
      seen.add(name);
      const kept = previous.find((c) => c.name === name);
      const command: RegisteredCommand = {
        default_member_permissions: null,
        nsfw: false,
        contexts: null,
        integration_types: [0],
        ...raw,
        id: kept?.id ?? state.ids.next(),
        application_id: world.applicationId,
        ...(guildId !== undefined ? { guild_id: guildId } : {}),
        version: state.ids.next(),
        name,
        description: typeof description === 'string' ? description : '',
        type,
      };
      return command;
    });
    state.commands.set(key, next);
    world.changed();
    return ok(next);
  };

  // ---- interaction callbacks ------------------------------------------------------------------------

  const interactionCallback = (request: RouteRequest): RouteResponse => {
    const record = world.interactions.get(request.params.interaction_id ?? '');
    if (!record || record.token !== request.params.interaction_token) {
      throw new ApiError(404, 10062, 'Unknown interaction');
    }
    if (record.callback !== null)
      throw new ApiError(400, 40060, 'Interaction has already been acknowledged.');
    if (world.state.now() - record.createdAt > world.interactionResponseWindowMs) {
      throw new ApiError(404, 10062, 'Unknown interaction');
    }
    const body = payload(request.body) as { type?: unknown; data?: unknown };
    const data = (body.data ?? null) as Record<string, unknown> | null;
    const isComponent = record.type === InteractionType.MessageComponent;
    const isAutocomplete = record.type === InteractionType.ApplicationCommandAutocomplete;
    const newReply = (extraFlags: number, messagePayload: MessagePayload, files: UploadedFile[]) =>
      createMessage(
        state,
        {
          channelId: record.channelId,
          guildId: record.guildId,
          author: world.bot,
          type:
            record.type === InteractionType.ApplicationCommand
              ? MessageType.ChatInputCommand
              : MessageType.Default,
          interaction: { id: record.id, type: record.type, user: record.user },
          webhookId: world.applicationId,
        },
        messagePayload,
        files,
        extraFlags,
      );
    const invalid = (): never => {
      throw formError(
        'type',
        'INTERACTION_RESPONSE_TYPE_INVALID',
        `Invalid response type ${String(body.type)} here.`,
      );
    };
    switch (body.type) {
      case InteractionResponseType.ChannelMessageWithSource:
        if (isAutocomplete) invalid();
        record.originalMessageId = newReply(0, payload(data), request.files).id;
        break;
      case InteractionResponseType.DeferredChannelMessageWithSource: {
        if (isAutocomplete) invalid();
        const flags = typeof data?.flags === 'number' ? data.flags & MESSAGE_FLAG_EPHEMERAL : 0;
        record.originalMessageId = newReply(MESSAGE_FLAG_LOADING | flags, {}, []).id;
        break;
      }
      case InteractionResponseType.DeferredMessageUpdate: {
        if (!isComponent || record.sourceMessageId === null) return invalid();
        record.originalMessageId = record.sourceMessageId;
        record.sourceRevisionsAtCallback = state.requireMessage(record.sourceMessageId).revisions.length;
        break;
      }
      case InteractionResponseType.UpdateMessage: {
        if (!isComponent || record.sourceMessageId === null) return invalid();
        editMessage(state, state.requireMessage(record.sourceMessageId), payload(data), request.files);
        record.originalMessageId = record.sourceMessageId;
        break;
      }
      case InteractionResponseType.ApplicationCommandAutocompleteResult: {
        if (!isAutocomplete) invalid();
        const choices = data?.choices;
        if (!Array.isArray(choices))
          throw formError('data.choices', 'BASE_TYPE_REQUIRED', 'This field is required');
        break;
      }
      case InteractionResponseType.Modal:
        if (isAutocomplete) invalid();
        break;
      default:
        invalid();
    }
    record.callback = { type: body.type as number, data, files: request.files, at: Date.now() };
    world.changed();
    if (request.query.get('with_response') !== 'true') return noContent;
    const original =
      record.originalMessageId === null ? undefined : state.messages.get(record.originalMessageId);
    return ok({
      interaction: {
        id: record.id,
        type: record.type,
        response_message_id: original?.id,
        response_message_loading: original ? (original.flags & MESSAGE_FLAG_LOADING) !== 0 : undefined,
        response_message_ephemeral: original ? (original.flags & MESSAGE_FLAG_EPHEMERAL) !== 0 : undefined,
      },
      resource: { type: body.type, ...(original ? { message: message(original) } : {}) },
    });
  };

  // ---- the table ------------------------------------------------------------------------------------

  return [
    route('GET', '/gateway', () => ok({ url: `${world.origin().replace(/^http/, 'ws')}/gateway` }), {
      auth: false,
    }),
    route('GET', '/gateway/bot', () =>
      ok({
        url: `${world.origin().replace(/^http/, 'ws')}/gateway`,
        shards: 1,
        session_start_limit: {
          total: 1000,
          remaining: 999,
          reset_after: 86_400_000,
          max_concurrency: world.gateway.maxConcurrency,
        },
      }),
    ),
    route('GET', '/users/@me', () => ok({ ...world.bot, verified: true, mfa_enabled: false, flags: 0 })),
    route('GET', '/applications/@me', () =>
      ok({
        id: world.applicationId,
        name: world.bot.username,
        icon: null,
        description: '',
        bot_public: true,
        bot_require_code_grant: false,
        verify_key: '0'.repeat(64),
        flags: 0,
        team: null,
        bot: world.bot,
        approximate_guild_count: state.guilds.size,
      }),
    ),

    route('GET', '/applications/:application_id/commands', ({ params }) => {
      requireApplication(params.application_id);
      return ok(state.commands.get('') ?? []);
    }),
    route('PUT', '/applications/:application_id/commands', ({ params, body }) => {
      requireApplication(params.application_id);
      return putCommands('', body, undefined);
    }),
    route('GET', '/applications/:application_id/guilds/:guild_id/commands', ({ params }) => {
      requireApplication(params.application_id);
      requireGuild(params.guild_id);
      return ok(state.commands.get(params.guild_id ?? '') ?? []);
    }),
    route('PUT', '/applications/:application_id/guilds/:guild_id/commands', ({ params, body }) => {
      requireApplication(params.application_id);
      const guild = requireGuild(params.guild_id);
      return putCommands(guild.id, body, guild.id);
    }),

    route('GET', '/guilds/:guild_id', ({ params }) => ok(apiGuild(requireGuild(params.guild_id)))),
    route('GET', '/guilds/:guild_id/channels', ({ params }) => {
      const guild = requireGuild(params.guild_id);
      return ok(
        state
          .channelsOf(guild.id)
          .filter((c) => !c.thread)
          .map(apiChannel),
      );
    }),
    route('GET', '/guilds/:guild_id/roles', ({ params }) =>
      ok([...requireGuild(params.guild_id).roles.values()].map(apiRole)),
    ),
    route('GET', '/guilds/:guild_id/members/:user_id', ({ params }) => {
      const userId = params.user_id === '@me' ? world.bot.id : (params.user_id ?? '');
      const member = requireGuild(params.guild_id).members.get(userId);
      if (!member) throw new ApiError(404, 10007, 'Unknown Member');
      return ok(apiMember(state, member));
    }),

    route('GET', '/channels/:channel_id', ({ params }) => {
      const channel = channelFor(params.channel_id);
      requireView(channel);
      return ok(apiChannel(channel));
    }),
    route('GET', '/channels/:channel_id/messages', ({ params, query }) => {
      const channel = channelFor(params.channel_id);
      requirePermission(requireView(channel), PermissionFlagsBits.ReadMessageHistory);
      const limit = Math.min(100, Math.max(1, Number(query.get('limit') ?? 50) || 50));
      const list = state
        .messagesIn(channel.id)
        .filter((m) => (m.flags & MESSAGE_FLAG_EPHEMERAL) === 0)
        .reverse()
        .slice(0, limit);
      return ok(list.map(message));
    }),
    route(
      'POST',
      '/channels/:channel_id/messages',
      ({ params, body, files }) => {
        const channel = channelFor(params.channel_id);
        if (!TEXT_CHANNEL_TYPES.has(channel.type))
          throw new ApiError(400, 50008, 'Cannot send messages in a non-text channel');
        const permissions = requireView(channel);
        requirePermission(
          permissions,
          channel.thread ? PermissionFlagsBits.SendMessagesInThreads : PermissionFlagsBits.SendMessages,
        );
        if (files.length > 0) requirePermission(permissions, PermissionFlagsBits.AttachFiles);
        if (channel.thread?.locked) throw new ApiError(400, 50083, 'Thread is archived');
        if (channel.thread) channel.thread.archived = false;
        const input = payload(body);
        // "If true and nonce is present, it will be checked for uniqueness in the past few
        // minutes. If another message was created by the same author with the same nonce, that
        // message will be returned and no new message will be created."
        const now = state.now();
        for (const [key, sent] of nonces) {
          if (sent.at > now - NONCE_WINDOW_MS) break;
          nonces.delete(key);
        }
        const nonceKey =
          input.enforce_nonce === true && (typeof input.nonce === 'string' || typeof input.nonce === 'number')
            ? `${world.bot.id}\u0000${input.nonce}`
            : null;
        const earlier = nonceKey === null ? undefined : nonces.get(nonceKey);
        const same = earlier === undefined ? undefined : state.messages.get(earlier.messageId);
        if (same !== undefined && !same.deleted) return ok(message(same));
        // Only interaction replies can be ephemeral.
        const flags = typeof input.flags === 'number' ? input.flags & ~MESSAGE_FLAG_EPHEMERAL : 0;
        const created = createMessage(
          state,
          {
            channelId: channel.id,
            guildId: channel.guildId,
            author: world.bot,
            type: MessageType.Default,
            interaction: null,
            webhookId: null,
          },
          { ...input, flags },
          files,
        );
        if (nonceKey !== null) {
          // Re-inserted at the end, so that the map stays oldest first.
          nonces.delete(nonceKey);
          nonces.set(nonceKey, { messageId: created.id, at: now });
        }
        world.changed();
        return ok(message(created));
      },
      { bucket: 'messageCreate' },
    ),
    route('GET', '/channels/:channel_id/messages/:message_id', ({ params }) => {
      const channel = channelFor(params.channel_id);
      requirePermission(requireView(channel), PermissionFlagsBits.ReadMessageHistory);
      return ok(message(messageIn(channel, params.message_id)));
    }),
    route(
      'PATCH',
      '/channels/:channel_id/messages/:message_id',
      ({ params, body, files }) => {
        const channel = channelFor(params.channel_id);
        const permissions = requireView(channel);
        const target = messageIn(channel, params.message_id);
        if (target.author.id !== world.bot.id)
          throw new ApiError(403, 50005, 'Cannot edit a message authored by another user');
        if (files.length > 0) requirePermission(permissions, PermissionFlagsBits.AttachFiles);
        editMessage(state, target, payload(body), files);
        world.changed();
        return ok(message(target));
      },
      { bucket: 'messageEdit' },
    ),
    route('DELETE', '/channels/:channel_id/messages/:message_id', ({ params }) => {
      const channel = channelFor(params.channel_id);
      const permissions = requireView(channel);
      const target = messageIn(channel, params.message_id);
      if (target.author.id !== world.bot.id)
        requirePermission(permissions, PermissionFlagsBits.ManageMessages);
      target.deleted = true;
      world.changed();
      return noContent;
    }),

    route('POST', '/channels/:channel_id/threads', ({ params, body }) => {
      const parent = channelFor(params.channel_id);
      const input = payload(body) as { name?: unknown; type?: unknown; auto_archive_duration?: unknown };
      // API v10: without a starting message the thread is private unless the type says otherwise.
      const type = typeof input.type === 'number' ? input.type : ChannelType.PrivateThread;
      if (!THREAD_TYPES.has(type))
        throw formError('type', 'BASE_TYPE_CHOICES', `Value must be a thread type.`);
      const thread = startThread(parent, input.name, input.auto_archive_duration, type, state.ids.next());
      return ok(apiChannel(thread), 201);
    }),
    route('POST', '/channels/:channel_id/messages/:message_id/threads', ({ params, body }) => {
      const parent = channelFor(params.channel_id);
      const starter = messageIn(parent, params.message_id);
      if (starter.threadId !== null)
        throw new ApiError(400, 160004, 'A thread has already been created for this message');
      const input = payload(body) as { name?: unknown; auto_archive_duration?: unknown };
      const type =
        parent.type === ChannelType.GuildAnnouncement
          ? ChannelType.AnnouncementThread
          : ChannelType.PublicThread;
      // A thread started from a message has the message's id.
      const thread = startThread(parent, input.name, input.auto_archive_duration, type, starter.id);
      starter.threadId = thread.id;
      return ok(apiChannel(thread), 201);
    }),

    route('POST', '/interactions/:interaction_id/:interaction_token/callback', interactionCallback, {
      auth: false,
    }),
    route(
      'POST',
      '/webhooks/:application_id/:interaction_token',
      ({ params, query, body, files }) => {
        const record = webhookInteraction(params);
        const input = payload(body);
        const flags = typeof input.flags === 'number' ? input.flags & MESSAGE_FLAG_EPHEMERAL : 0;
        const created = createMessage(
          state,
          {
            channelId: record.channelId,
            guildId: record.guildId,
            author: world.bot,
            type: MessageType.Default,
            interaction: { id: record.id, type: record.type, user: record.user },
            webhookId: world.applicationId,
          },
          input,
          files,
          flags,
        );
        record.followUpIds.push(created.id);
        world.changed();
        return query.get('wait') === 'false' ? noContent : ok(message(created));
      },
      { auth: false },
    ),
    route(
      'GET',
      '/webhooks/:application_id/:interaction_token/messages/:message_id',
      ({ params }) => ok(message(webhookMessage(webhookInteraction(params), params.message_id))),
      { auth: false },
    ),
    route(
      'PATCH',
      '/webhooks/:application_id/:interaction_token/messages/:message_id',
      ({ params, body, files }) => {
        const target = webhookMessage(webhookInteraction(params), params.message_id);
        editMessage(state, target, payload(body), files);
        world.changed();
        return ok(message(target));
      },
      { auth: false },
    ),
    route(
      'DELETE',
      '/webhooks/:application_id/:interaction_token/messages/:message_id',
      ({ params }) => {
        webhookMessage(webhookInteraction(params), params.message_id).deleted = true;
        world.changed();
        return noContent;
      },
      { auth: false },
    ),
  ];

  function startThread(
    parent: FakeChannel,
    name: unknown,
    autoArchive: unknown,
    type: ChannelType,
    id: string,
  ): FakeChannel {
    if (parent.type !== ChannelType.GuildText && parent.type !== ChannelType.GuildAnnouncement) {
      throw new ApiError(400, 50024, 'Cannot execute action on this channel type');
    }
    const permissions = requireView(parent);
    requirePermission(
      permissions,
      type === ChannelType.PrivateThread
        ? PermissionFlagsBits.CreatePrivateThreads
        : PermissionFlagsBits.CreatePublicThreads,
    );
    if (typeof name !== 'string' || name.length < 1 || name.length > 100) {
      throw formError('name', 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.');
    }
    const now = Date.now();
    const thread: FakeChannel = {
      id,
      guildId: parent.guildId,
      type,
      name,
      position: 0,
      parentId: parent.id,
      overwrites: [],
      topic: null,
      thread: {
        ownerId: world.bot.id,
        archived: false,
        locked: false,
        autoArchiveDuration: typeof autoArchive === 'number' ? autoArchive : 1440,
        createdAt: now,
      },
      lastMessageId: null,
      messageCount: 0,
    };
    state.channels.set(thread.id, thread);
    world.gateway.dispatch({
      t: GatewayDispatchEvents.ThreadCreate,
      d: { ...apiChannel(thread), newly_created: true },
    });
    world.changed();
    return thread;
  }
}

/** The route's major parameter: what Discord keys its buckets by besides the route. */
export function majorParameter(params: Record<string, string>): string {
  return (
    params.channel_id ??
    params.guild_id ??
    (params.interaction_token !== undefined
      ? `${params.application_id ?? params.interaction_id}:${params.interaction_token}`
      : 'global')
  );
}
