// A fake Discord on 127.0.0.1 for driving the real discord.js Client in tests: REST on node:http,
// the gateway on ws, one in-memory world. See README.md in this folder.
import { EventEmitter } from 'node:events';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ChannelType,
  ComponentType,
  GatewayCloseCodes,
  GatewayDispatchEvents,
  InteractionType,
} from 'discord.js';
import { Gateway } from './gateway.js';
import type { GatewayLogEntry } from './gateway.js';
import { ApiError, compileRoute, matchRoute, parseBody, pathSegments, readBody } from './http.js';
import type { CompiledRoute, RecordedRequest } from './http.js';
import { InteractionHandle, InteractionRecord, encodeOptions } from './interactions.js';
import type { Invoker, OptionValues } from './interactions.js';
import { MAX_UPLOAD_BYTES } from './messages.js';
import { checkBody } from './schema.js';
import { FakeState, apiChannel, apiGuildCreate, apiMember, apiMessage, apiRole } from './model.js';
import type {
  ApiUser,
  FakeChannel,
  FakeGuild,
  FakeMessage,
  FakeRole,
  Overwrite,
  RegisteredCommand,
} from './model.js';
import { DEFAULT_BOT_PERMISSIONS, DEFAULT_EVERYONE_PERMISSIONS, channelPermissions } from './permissions.js';
import { DEFAULT_RATE_LIMITS, RateLimiter, bucketHash, rateLimitHeaders } from './rate-limits.js';
import type { RateLimitConfig } from './rate-limits.js';
import { majorParameter, routes } from './routes.js';
import type { Route, World } from './routes.js';
import { waitFor } from '../support/wait.js';

export interface FakeDiscordOptions {
  /** The bot token the fake accepts (REST `Authorization: Bot <token>` and gateway IDENTIFY). */
  token?: string;
  botUsername?: string;
  /**
   * GET /gateway/bot's session_start_limit.max_concurrency (Discord: 1, more for large bots): the
   * gateway answers an IDENTIFY with Invalid Session when one of its rate-limit key (shard id %
   * max_concurrency) came less than 5 s before.
   */
  maxConcurrency?: number;
  /** HELLO's heartbeat interval; Discord uses about 41 s. */
  heartbeatIntervalMs?: number;
  rateLimits?: Partial<RateLimitConfig>;
  /** Time the bot has for its first response to an interaction (Discord: 3 s). */
  interactionResponseWindowMs?: number;
  /** How long an interaction token works for webhooks (Discord: 15 min). */
  interactionTokenLifetimeMs?: number;
  /** Default timeout of the waiting helpers. */
  defaultTimeoutMs?: number;
  /**
   * Invalid answers (401, 403, 429 other than `X-RateLimit-Scope: shared`) allowed per window
   * before the IP is banned (Discord: 10,000 per 10 minutes).
   */
  invalidRequestLimit?: number;
  invalidRequestWindowMs?: number;
  /** How long a ban lasts: every request gets a header-less 429 meanwhile. */
  banMs?: number;
  /**
   * Edits of messages older than an hour (by the fake's clock, see `advanceClock`) allowed per
   * window, bot-wide; over it Discord answers 429 with code 30046. Unpublished on Discord: low.
   */
  oldMessageEdits?: { limit: number; windowMs: number };
  /** Whether the 30046 answer carries Retry-After (Discord sends it with or without). */
  oldMessageEditRetryAfter?: boolean;
  /**
   * The least wait, by `retryClock`, before a request on a method and path that was answered 5xx
   * or cut may come again (Discord asks for a wait before a retry: "never retry without a wait").
   * One that comes sooner is served, as Discord would, and listed in `immediateRetries`. 250 ms.
   */
  minRetryWaitMs?: number;
}

/** A request that came again less than `minRetryWaitMs` after the same method and path failed. */
export interface ImmediateRetry {
  method: string;
  path: string;
  /** The failed request: its seq, and its answer (a 5xx; -1 for a cut connection). */
  failedSeq: number;
  failedStatus: number;
  /** The request that came too soon. */
  seq: number;
  /** Time between the failure and its arrival, by `retryClock`. */
  waitedMs: number;
}

/** Discord's edge answer to a banned IP: 429 with no Retry-After and no X-RateLimit-* header. */
export const BLOCKED_BODY = {
  code: 0,
  message:
    'You are being blocked from accessing our API temporarily due to exceeding our rate limits frequently. Please read our docs at https://discord.com/developers/docs/topics/rate-limits to prevent this moving forward.',
} as const;

/** Messages older than this are under Discord's separate edit limit (30046). */
export const OLD_MESSAGE_MS = 60 * 60_000;

/** Which requests a fault applies to. Unset fields match anything. */
export interface RequestMatch {
  method?: string;
  /** Route template, e.g. `/channels/:channel_id/messages/:message_id`. */
  route?: string;
  /** Decoded path (after /api/v10), exact or a pattern. */
  path?: string | RegExp;
  /** Carries a file of this name. */
  file?: string;
}

export type Fault =
  /** 429 with Retry-After and X-RateLimit-* headers; `global` sets X-RateLimit-Global. */
  | { kind: 'rateLimit'; retryAfterMs: number; scope?: 'user' | 'shared' | 'global'; global?: boolean }
  /** Any error status with Discord's JSON error body. */
  | { kind: 'error'; status: number; code?: number; message?: string }
  /** Closes the TCP connection without answering. */
  | { kind: 'reset' }
  /** Handles the request, then closes the connection without answering (the answer lost). */
  | { kind: 'resetAfter' }
  /** A header-less 429 with Discord's "You are being blocked" body (a banned IP). */
  | { kind: 'blocked' };

export interface GuildInit {
  name?: string;
  /** Permissions of the bot's managed role. */
  botPermissions?: bigint;
  everyonePermissions?: bigint;
}

export interface ChannelInit {
  name: string;
  type?: ChannelType;
  parentId?: string | null;
  topic?: string | null;
  overwrites?: Overwrite[];
}

export interface OverwriteInit {
  /** Role id (the guild id is @everyone) or user id. */
  id: string;
  type: 'role' | 'member';
  allow?: bigint;
  deny?: bigint;
}

interface PendingFault {
  match: RequestMatch;
  fault: Fault;
  remaining: number;
}

interface CompiledFakeRoute extends CompiledRoute {
  route: Route;
}

export class FakeDiscord extends EventEmitter {
  readonly token: string;
  readonly bot: ApiUser;
  readonly applicationId: string;
  /** The default interaction user (a plain member: @everyone's permissions). */
  readonly tester: ApiUser;
  /** Owner of every guild the fake creates (has all permissions). */
  readonly owner: ApiUser;
  readonly state = new FakeState();
  /** Every REST request received, in order. */
  readonly requests: RecordedRequest[] = [];
  /** Bugs in the fake itself (answered as 500): a test can assert there are none. */
  readonly internalErrors: Error[] = [];
  readonly defaultTimeoutMs: number;

  readonly #server: Server;
  readonly #gateway: Gateway;
  readonly #routes: CompiledFakeRoute[];
  readonly #limits: RateLimitConfig;
  readonly #limiter = new RateLimiter();
  /** Requests refused for the bot's global limit (50 a second over all its connections). */
  globalLimited = 0;
  readonly #faults: PendingFault[] = [];
  readonly #interactions = new Map<string, InteractionRecord>();
  readonly #responseWindowMs: number;
  readonly #tokenLifetimeMs: number;
  readonly #invalidLimit: number;
  readonly #invalidWindowMs: number;
  readonly #banMs: number;
  readonly #oldEdits: { limit: number; windowMs: number };
  readonly #oldEditRetryAfter: boolean;
  /** When each counted invalid answer went out (pruned to the window). */
  readonly #invalidAt: number[] = [];
  #bannedUntil = 0;
  /** How far the fake's clock is ahead of the real one (message ages, see advanceClock). */
  #clockOffsetMs = 0;
  /** Token the fake accepts (revokeToken changes it). */
  #token: string;
  #origin = '';
  /** Times the IP was banned. */
  bans = 0;
  /**
   * The clock waits before retries are measured by: the fake's own (`now()`) unless a test whose
   * bot waits on a clock of its own (an edit clock) adds that clock's time to it.
   */
  retryClock: () => number = () => this.now();
  readonly #minRetryWaitMs: number;
  /** The last failure (5xx or cut) of each method and path not answered since, by `retryClock`. */
  readonly #failedAt = new Map<string, { seq: number; status: number; at: number }>();
  readonly #immediateRetries: ImmediateRetry[] = [];

  private constructor(options: FakeDiscordOptions) {
    super();
    this.setMaxListeners(0);
    this.token = options.token ?? 'ZmFrZS1ib3Q.fake-token.for-tests-only';
    this.#token = this.token;
    this.#invalidLimit = options.invalidRequestLimit ?? 10_000;
    this.#invalidWindowMs = options.invalidRequestWindowMs ?? 10 * 60_000;
    this.#banMs = options.banMs ?? 60 * 60_000;
    this.#oldEdits = options.oldMessageEdits ?? { limit: 3, windowMs: 60_000 };
    this.#oldEditRetryAfter = options.oldMessageEditRetryAfter ?? false;
    this.#minRetryWaitMs = options.minRetryWaitMs ?? 250;
    this.state.now = () => this.now();
    // The same bound as test/support/wait.ts: a bound on what must happen, not a speed check.
    this.defaultTimeoutMs = options.defaultTimeoutMs ?? 15_000;
    this.#limits = { ...DEFAULT_RATE_LIMITS, ...options.rateLimits };
    this.#responseWindowMs = options.interactionResponseWindowMs ?? 3000;
    this.#tokenLifetimeMs = options.interactionTokenLifetimeMs ?? 15 * 60_000;
    this.bot = this.createUser(options.botUsername ?? 'Kibitz', true);
    this.applicationId = this.bot.id;
    this.owner = this.createUser('owner');
    this.tester = this.createUser('tester');

    this.#gateway = new Gateway({
      token: () => this.#token,
      heartbeatIntervalMs: options.heartbeatIntervalMs ?? 41_250,
      maxConcurrency: positiveInteger(options.maxConcurrency ?? 1, 'maxConcurrency'),
      now: () => this.now(),
      resumeUrl: () => `${this.gatewayUrl}/resume`,
      identify: () => ({
        ready: {
          v: 10,
          user: { ...this.bot, verified: true, mfa_enabled: false, flags: 0, email: null },
          guilds: this.#botGuilds().map((guild) => ({ id: guild.id, unavailable: true })),
          shard: [0, 1],
          application: { id: this.applicationId, flags: 0 },
          private_channels: [],
          presences: [],
          relationships: [],
          guild_join_requests: [],
          user_settings: {},
          geo_ordered_rtc_regions: [],
          _trace: ['fake-discord'],
        },
        guilds: this.#botGuilds().map((guild) => apiGuildCreate(this.state, guild)),
      }),
      onChange: () => this.#changed(),
    });

    const world: World = {
      state: this.state,
      gateway: this.#gateway,
      bot: this.bot,
      applicationId: this.applicationId,
      interactionResponseWindowMs: this.#responseWindowMs,
      interactionTokenLifetimeMs: this.#tokenLifetimeMs,
      origin: () => this.#origin,
      interactions: this.#interactions,
      changed: () => this.#changed(),
    };
    this.#routes = routes(world).map((route) => ({ ...compileRoute(route.template), route }));

    this.#server = createServer((req, res) => void this.#handle(req, res));
    this.#server.on('upgrade', (req: IncomingMessage, socket, head: Buffer) => {
      if (new URL(req.url ?? '/', 'http://x').pathname.startsWith('/gateway')) {
        this.#gateway.handleUpgrade(req, socket, head);
      } else {
        socket.destroy();
      }
    });
  }

  /** Starts a fake on 127.0.0.1 and a free port. */
  static async start(options: FakeDiscordOptions = {}): Promise<FakeDiscord> {
    const fake = new FakeDiscord(options);
    await new Promise<void>((resolve, reject) => {
      fake.#server.once('error', reject);
      fake.#server.listen(0, '127.0.0.1', () => resolve());
    });
    fake.#origin = `http://127.0.0.1:${(fake.#server.address() as AddressInfo).port}`;
    return fake;
  }

  /** `http://127.0.0.1:PORT`. */
  get origin(): string {
    return this.#origin;
  }

  /** What discord.js takes as `rest.api` (it appends `/v10`). */
  get apiBase(): string {
    return `${this.#origin}/api`;
  }

  get gatewayUrl(): string {
    return `${this.#origin.replace(/^http/, 'ws')}/gateway`;
  }

  /** True while a bot session is identified and connected. */
  get connected(): boolean {
    return this.#gateway.connected;
  }

  /** Gateway frames in and out (op codes and event names), for asserting IDENTIFY/RESUME. */
  get gatewayLog(): readonly GatewayLogEntry[] {
    return this.#gateway.log;
  }

  async stop(): Promise<void> {
    await this.#gateway.close();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  // ---- building the world ----------------------------------------------------------------------------

  createUser(username: string, bot = false): ApiUser {
    const user: ApiUser = {
      id: this.state.ids.next(),
      username,
      global_name: bot ? null : username,
      discriminator: bot ? '0001' : '0',
      avatar: null,
      public_flags: 0,
      ...(bot ? { bot: true } : {}),
    };
    this.state.users.set(user.id, user);
    return user;
  }

  /** A guild with @everyone, the bot's managed role, and the bot, owner and tester as members. */
  createGuild(init: GuildInit = {}): FakeGuild {
    const now = Date.now();
    const id = this.state.ids.next(now);
    const botRoleId = this.state.ids.next(now);
    const guild: FakeGuild = {
      id,
      name: init.name ?? 'Chess Club',
      ownerId: this.owner.id,
      joinedAt: now,
      roles: new Map<string, FakeRole>([
        [
          id,
          {
            id,
            name: '@everyone',
            permissions: init.everyonePermissions ?? DEFAULT_EVERYONE_PERMISSIONS,
            position: 0,
            botId: null,
          },
        ],
        [
          botRoleId,
          {
            id: botRoleId,
            name: this.bot.username,
            permissions: init.botPermissions ?? DEFAULT_BOT_PERMISSIONS,
            position: 1,
            botId: this.bot.id,
          },
        ],
      ]),
      members: new Map(),
    };
    guild.members.set(this.bot.id, { userId: this.bot.id, roles: [botRoleId], joinedAt: now });
    guild.members.set(this.owner.id, { userId: this.owner.id, roles: [], joinedAt: now });
    guild.members.set(this.tester.id, { userId: this.tester.id, roles: [], joinedAt: now });
    this.state.guilds.set(id, guild);
    this.#gateway.dispatch({ t: GatewayDispatchEvents.GuildCreate, d: apiGuildCreate(this.state, guild) });
    this.#changed();
    return guild;
  }

  createChannel(guildId: string, init: ChannelInit): FakeChannel {
    this.state.requireGuild(guildId);
    const channel: FakeChannel = {
      id: this.state.ids.next(),
      guildId,
      type: init.type ?? ChannelType.GuildText,
      name: init.name,
      position: this.state.channelsOf(guildId).length,
      parentId: init.parentId ?? null,
      overwrites: init.overwrites ?? [],
      topic: init.topic ?? null,
      thread: null,
      lastMessageId: null,
      messageCount: 0,
    };
    this.state.channels.set(channel.id, channel);
    this.#gateway.dispatch({ t: GatewayDispatchEvents.ChannelCreate, d: apiChannel(channel) });
    this.#changed();
    return channel;
  }

  createRole(guildId: string, name: string, permissions: bigint): FakeRole {
    const guild = this.state.requireGuild(guildId);
    const role: FakeRole = {
      id: this.state.ids.next(),
      name,
      permissions,
      position: guild.roles.size,
      botId: null,
    };
    guild.roles.set(role.id, role);
    this.#gateway.dispatch({
      t: GatewayDispatchEvents.GuildRoleCreate,
      d: { guild_id: guildId, role: apiRole(role) },
    });
    this.#changed();
    return role;
  }

  /** The bot's managed role in a guild (change its permissions with setRolePermissions). */
  botRole(guildId: string): FakeRole {
    const role = [...this.state.requireGuild(guildId).roles.values()].find((r) => r.botId === this.bot.id);
    if (!role) throw new Error(`fake Discord: guild ${guildId} has no bot role`);
    return role;
  }

  setRolePermissions(guildId: string, roleId: string, permissions: bigint): void {
    const role = this.state.requireGuild(guildId).roles.get(roleId);
    if (!role) throw new Error(`fake Discord: guild ${guildId} has no role ${roleId}`);
    role.permissions = permissions;
    this.#gateway.dispatch({
      t: GatewayDispatchEvents.GuildRoleUpdate,
      d: { guild_id: guildId, role: apiRole(role) },
    });
    this.#changed();
  }

  /** Adds or replaces the channel's overwrite for a role or member. */
  setOverwrite(channelId: string, init: OverwriteInit): void {
    const channel = this.state.requireChannel(channelId);
    const overwrite: Overwrite = {
      id: init.id,
      type: init.type === 'role' ? 0 : 1,
      allow: init.allow ?? 0n,
      deny: init.deny ?? 0n,
    };
    channel.overwrites = [...channel.overwrites.filter((o) => o.id !== init.id), overwrite];
    this.#gateway.dispatch({ t: GatewayDispatchEvents.ChannelUpdate, d: apiChannel(channel) });
    this.#changed();
  }

  /** Adds a user to a guild (or replaces their roles). */
  addMember(guildId: string, userId: string, roles: string[] = []): void {
    this.state.requireUser(userId);
    const guild = this.state.requireGuild(guildId);
    const existing = guild.members.get(userId);
    guild.members.set(userId, { userId, roles, joinedAt: existing?.joinedAt ?? Date.now() });
    this.#changed();
  }

  deleteChannel(channelId: string): void {
    const channel = this.state.requireChannel(channelId);
    this.state.channels.delete(channelId);
    this.#gateway.dispatch({
      t: channel.thread ? GatewayDispatchEvents.ThreadDelete : GatewayDispatchEvents.ChannelDelete,
      d: apiChannel(channel),
    });
    this.#changed();
  }

  /** A moderator deletes a message: later edits of it get 404 Unknown Message. */
  deleteMessage(messageId: string): void {
    this.state.requireMessage(messageId).deleted = true;
    this.#changed();
  }

  /** A member's computed permissions in a channel. */
  permissionsFor(channelId: string, userId: string): bigint {
    return channelPermissions(this.state, channelId, userId);
  }

  /**
   * The bot is removed from a guild (kicked, or the guild deleted): GUILD_DELETE, and from then
   * on every request about its channels gets 403 50001 Missing Access.
   */
  removeBot(guildId: string): void {
    const guild = this.state.requireGuild(guildId);
    guild.members.delete(this.bot.id);
    this.#gateway.dispatch({ t: GatewayDispatchEvents.GuildDelete, d: { id: guildId } });
    this.#changed();
  }

  /** The bot is added back (with its managed role): GUILD_CREATE. */
  addBot(guildId: string): void {
    const guild = this.state.requireGuild(guildId);
    const role = this.botRole(guildId);
    guild.members.set(this.bot.id, { userId: this.bot.id, roles: [role.id], joinedAt: Date.now() });
    this.#gateway.dispatch({ t: GatewayDispatchEvents.GuildCreate, d: apiGuildCreate(this.state, guild) });
    this.#changed();
  }

  /**
   * The token is reset in the developer portal: REST answers 401 from now on, and every gateway
   * connection is closed with 4004 Authentication failed (unless `gateway` is false: the
   * connection open already lingers, as it may on Discord).
   */
  revokeToken(options: { gateway?: boolean } = {}): void {
    this.#token = `${this.token}.revoked`;
    if (options.gateway ?? true)
      this.#gateway.closeAll(GatewayCloseCodes.AuthenticationFailed, 'Authentication failed.');
  }

  /** Closes every gateway connection with `code` (4013 Invalid intents, 4014 Disallowed intents...). */
  closeGateway(code: number, reason = 'Closed by the fake.'): void {
    this.#gateway.closeAll(code, reason);
  }

  /**
   * From now on every IDENTIFY is answered by closing with `code` (null: identifies succeed), or
   * with the code `code` gives for the IDENTIFY's shard.
   */
  refuseIdentify(code: number | null | ((shard: number | null) => number | null)): void {
    this.#gateway.refuseIdentify = code;
  }

  /** Holds every READY until `count` IDENTIFYs were let in (a client identifying one by one stalls). */
  holdReady(count: number): void {
    this.#gateway.holdReady(count);
  }

  /** IDENTIFYs answered with Invalid Session: another of their rate-limit key came within 5 s. */
  get refusedIdentifies(): readonly { at: number; shard: number | null }[] {
    return this.#gateway.refusedIdentifies;
  }

  /**
   * Moves the fake's clock (message ages for the one-hour edit limit, interaction windows, the 5 s
   * identify window) forward.
   */
  advanceClock(ms: number): void {
    this.#clockOffsetMs += ms;
    this.#changed();
  }

  /** The fake's clock: real time plus what advanceClock added. */
  now(): number {
    return Date.now() + this.#clockOffsetMs;
  }

  /** Invalid answers (401, 403, 429 not of shared scope) sent in the last `windowMs`. */
  invalidRequests(windowMs = this.#invalidWindowMs): number {
    const since = Date.now() - windowMs;
    return this.#invalidAt.filter((at) => at > since).length;
  }

  /** True while the IP is banned for too many invalid answers. */
  get banned(): boolean {
    return Date.now() < this.#bannedUntil;
  }

  // ---- inspecting -----------------------------------------------------------------------------------

  /** Requests sent again without the wait after a 5xx or a cut connection (see minRetryWaitMs). */
  get immediateRetries(): readonly ImmediateRetry[] {
    return this.#immediateRetries;
  }

  /** The immediate retries so far, forgotten: for a test that makes them on purpose. */
  takeImmediateRetries(): ImmediateRetry[] {
    return this.#immediateRetries.splice(0);
  }

  /** Throws naming every request sent again without its wait (the harnesses call it at the end). */
  assertRetriesWaited(): void {
    const retries = this.#immediateRetries;
    if (retries.length === 0) return;
    const shown = retries
      .slice(0, 5)
      .map(
        (r) => `${r.method} ${r.path} #${r.seq} ${r.waitedMs} ms after #${r.failedSeq} got ${r.failedStatus}`,
      );
    throw new Error(
      `fake Discord: ${retries.length} request(s) sent again less than ${this.#minRetryWaitMs} ms after a 5xx or a cut connection (Discord asks for a wait): ${shown.join('; ')}`,
    );
  }

  message(id: string): FakeMessage | undefined {
    return this.state.messages.get(id);
  }

  /** Messages in a channel or thread, oldest first (deleted ones left out). */
  messagesIn(channelId: string): FakeMessage[] {
    return this.state.messagesIn(channelId);
  }

  /** Registered commands: a guild's, or the global ones without a guild id. */
  commands(guildId?: string): RegisteredCommand[] {
    return this.state.commands.get(guildId ?? '') ?? [];
  }

  /** The API JSON of a message, as discord.js would receive it. */
  apiMessage(message: FakeMessage): Record<string, unknown> {
    return apiMessage(this.state, this.#origin, message);
  }

  requestsTo(method: string, route: string): RecordedRequest[] {
    return this.requests.filter((r) => r.method === method.toUpperCase() && r.route === route);
  }

  /** The first recorded request (past or future) with `seq > after` that satisfies `predicate`. */
  waitForRequest(
    predicate: (request: RecordedRequest) => boolean,
    options: { after?: number; timeoutMs?: number } = {},
  ): Promise<RecordedRequest> {
    const after = options.after ?? 0;
    return this.waitFor(
      () => this.requests.find((r) => r.seq > after && r.status !== 0 && predicate(r)),
      'a matching request',
      options.timeoutMs ?? this.defaultTimeoutMs,
    );
  }

  /**
   * Resolves with the first value of `check` that is neither undefined nor false, checked now, after
   * every change of the fake's state, and every 20 ms (for conditions on the client's side).
   */
  waitFor<T>(
    check: () => T | undefined | false,
    what = 'a condition',
    timeoutMs: number = this.defaultTimeoutMs,
  ): Promise<Exclude<T, undefined | false>> {
    return waitFor(check, `${what} (fake Discord)`, { timeoutMs, intervalMs: 20, wake: this });
  }

  // ---- interactions ---------------------------------------------------------------------------------

  /**
   * A user runs a registered slash command. `name` may include a subcommand: `'follow add'`.
   * Option values are typed as the command's definition says (checked here).
   */
  command(
    guildId: string,
    channelId: string,
    name: string,
    options: OptionValues = {},
    invoker: Invoker = {},
  ): InteractionHandle {
    const [commandName = '', ...path] = name.split(' ');
    const command = this.#registered(guildId, commandName);
    const encoded = encodeOptions(command, path, options, null);
    return this.#inject(
      InteractionType.ApplicationCommand,
      guildId,
      channelId,
      invoker,
      this.#commandData(command, encoded),
      null,
    );
  }

  /** A user types into an autocomplete option: `focused` names it, its value is the text so far. */
  autocomplete(
    guildId: string,
    channelId: string,
    name: string,
    options: OptionValues,
    focused: string,
    invoker: Invoker = {},
  ): InteractionHandle {
    const [commandName = '', ...path] = name.split(' ');
    const command = this.#registered(guildId, commandName);
    const encoded = encodeOptions(command, path, options, focused);
    return this.#inject(
      InteractionType.ApplicationCommandAutocomplete,
      guildId,
      channelId,
      invoker,
      this.#commandData(command, encoded),
      null,
    );
  }

  /** A user presses a button on a message. */
  button(messageId: string, customId: string, invoker: Invoker = {}): InteractionHandle {
    return this.#component(
      messageId,
      customId,
      { custom_id: customId, component_type: ComponentType.Button },
      invoker,
    );
  }

  /** A user picks values in a select menu on a message. */
  selectMenu(
    messageId: string,
    customId: string,
    values: string[],
    invoker: Invoker = {},
    componentType: ComponentType = ComponentType.StringSelect,
  ): InteractionHandle {
    return this.#component(
      messageId,
      customId,
      { custom_id: customId, component_type: componentType, values },
      invoker,
    );
  }

  // ---- faults ---------------------------------------------------------------------------------------

  /** Answers the next `times` requests matching `match` with `fault` instead of handling them. */
  failNext(match: RequestMatch, fault: Fault, times = 1): void {
    this.#faults.push({ match, fault, remaining: times });
  }

  /** Forgets every fault not yet used up. */
  clearFaults(): void {
    this.#faults.length = 0;
  }

  /** Cuts the gateway connection. Resumable: the bot RESUMEs; otherwise it must IDENTIFY again. */
  dropGateway(options: { resumable?: boolean } = {}): void {
    this.#gateway.drop({ resumable: options.resumable ?? true });
  }

  // ---- internals ------------------------------------------------------------------------------------

  #changed(): void {
    this.emit('change');
  }

  /** Guilds the bot is a member of (READY lists only these). */
  #botGuilds(): FakeGuild[] {
    return [...this.state.guilds.values()].filter((guild) => guild.members.has(this.bot.id));
  }

  /** Counts an invalid answer, banning the IP once the window holds too many. */
  #countInvalid(status: number, scope: string | null): void {
    if (status !== 401 && status !== 403 && !(status === 429 && scope !== 'shared')) return;
    const now = Date.now();
    this.#invalidAt.push(now);
    while (this.#invalidAt.length > 0 && this.#invalidAt[0]! <= now - this.#invalidWindowMs)
      this.#invalidAt.shift();
    if (this.#invalidAt.length >= this.#invalidLimit && !this.banned) {
      this.#bannedUntil = now + this.#banMs;
      this.bans += 1;
    }
  }

  /** 30046 when the edit is of a message older than an hour and the old-edit bucket is spent. */
  #oldMessageEdit(record: RecordedRequest, params: Record<string, string>): number | null {
    if (record.method !== 'PATCH' || record.route !== '/channels/:channel_id/messages/:message_id')
      return null;
    const message = this.state.messages.get(params.message_id ?? '');
    if (message === undefined || message.deleted || this.now() - message.createdAt <= OLD_MESSAGE_MS)
      return null;
    const taken = this.#limiter.take('old message edits', this.#oldEdits, '');
    return taken.allowed ? null : taken.retryAfterMs;
  }

  #registered(guildId: string, name: string): RegisteredCommand {
    const command = this.state.findCommand(guildId, name);
    if (!command) throw new Error(`fake Discord: /${name} is not registered globally or in guild ${guildId}`);
    return command;
  }

  #commandData(command: RegisteredCommand, options: unknown[]): Record<string, unknown> {
    return {
      id: command.id,
      name: command.name,
      type: command.type,
      ...(options.length > 0 ? { options } : {}),
      ...(command.guild_id !== undefined ? { guild_id: command.guild_id } : {}),
    };
  }

  #component(
    messageId: string,
    customId: string,
    data: Record<string, unknown>,
    invoker: Invoker,
  ): InteractionHandle {
    const message = this.state.requireMessage(messageId);
    if (message.deleted) throw new Error(`fake Discord: message ${messageId} was deleted`);
    if (!hasCustomId(message.components, customId)) {
      throw new Error(`fake Discord: message ${messageId} has no component "${customId}"`);
    }
    if (message.guildId === null) throw new Error('fake Discord: components in DMs are not modelled');
    return this.#inject(
      InteractionType.MessageComponent,
      message.guildId,
      message.channelId,
      invoker,
      data,
      message,
    );
  }

  #inject(
    type: InteractionType,
    guildId: string,
    channelId: string,
    invoker: Invoker,
    data: Record<string, unknown>,
    message: FakeMessage | null,
  ): InteractionHandle {
    if (!this.#gateway.sessions.some((s) => s.valid)) {
      throw new Error('fake Discord: no bot session; log a discord.js Client in first');
    }
    const guild = this.state.requireGuild(guildId);
    const channel = this.state.requireChannel(channelId);
    if (channel.guildId !== guild.id)
      throw new Error(`fake Discord: channel ${channelId} is not in guild ${guildId}`);
    const user = invoker.user ?? this.tester;
    if (!guild.members.has(user.id) || invoker.roles !== undefined)
      this.addMember(guildId, user.id, invoker.roles ?? []);
    const member = guild.members.get(user.id);
    if (!member) throw new Error('unreachable: member just added');
    const memberPermissions = invoker.permissions ?? channelPermissions(this.state, channelId, user.id);
    const id = this.state.ids.next();
    const token = `fake-interaction-${id}-${Math.random().toString(36).slice(2)}`;
    const payload: Record<string, unknown> = {
      id,
      application_id: this.applicationId,
      type,
      data,
      guild_id: guild.id,
      guild: { id: guild.id, locale: 'en-US', features: [] },
      channel: { ...apiChannel(channel), permissions: memberPermissions.toString() },
      channel_id: channel.id,
      member: { ...apiMember(this.state, member), permissions: memberPermissions.toString() },
      token,
      version: 1,
      app_permissions: channelPermissions(this.state, channelId, this.bot.id).toString(),
      locale: invoker.locale ?? 'en-US',
      guild_locale: 'en-US',
      entitlements: [],
      authorizing_integration_owners: { '0': guild.id },
      context: 0,
      attachment_size_limit: MAX_UPLOAD_BYTES,
      ...(message ? { message: this.apiMessage(message) } : {}),
    };
    const record = new InteractionRecord(
      id,
      token,
      type,
      guild.id,
      channel.id,
      user,
      this.now(),
      message?.id ?? null,
    );
    this.#interactions.set(id, record);
    this.#gateway.dispatch({ t: GatewayDispatchEvents.InteractionCreate, d: payload });
    this.#changed();
    return new InteractionHandle(this, record, payload);
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.#origin);
    if (req.method === 'GET' && url.pathname.startsWith('/attachments/')) {
      this.#serveAttachment(url.pathname, res);
      return;
    }
    let raw: Buffer;
    try {
      raw = await readBody(req);
    } catch {
      // The client hung up in the middle of its request (a bot killed while sending): as on
      // Discord, a request that never arrived whole is not served.
      res.destroy();
      return;
    }
    const prefix = '/api/v10';
    const path = url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) || '/' : url.pathname;
    const segments = pathSegments(path);
    const method = (req.method ?? 'GET').toUpperCase();
    const record: RecordedRequest = {
      seq: this.requests.length + 1,
      at: Date.now(),
      method,
      path: `/${segments.join('/')}`,
      route: null,
      params: {},
      query: Object.fromEntries(url.searchParams),
      headers: Object.fromEntries(
        Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]),
      ),
      body: null,
      files: [],
      status: 0,
      response: null,
    };
    this.requests.push(record);
    this.#checkRetryWait(record);
    // On arrival ('request' comes with the answer, and never for a cut connection): a test notes
    // its own clock's time of each request here.
    this.emit('arrival', record);

    let matched: CompiledFakeRoute | undefined;
    let params: Record<string, string> = {};
    if (url.pathname.startsWith(prefix)) {
      for (const candidate of this.#routes) {
        if (candidate.route.method !== method) continue;
        const found = matchRoute(candidate, segments);
        if (found) {
          matched = candidate;
          params = found;
          break;
        }
      }
    }
    record.route = matched?.template ?? null;
    record.params = params;
    const bucketName = matched
      ? matched.route.bucket === 'default'
        ? `${method} ${matched.template}`
        : matched.route.bucket
      : `unrouted ${method}`;
    const spec = matched ? this.#limits[matched.route.bucket] : this.#limits.default;
    const major = majorParameter(params);

    let headers: Record<string, string> | undefined;
    try {
      const parsed = await parseBody(req.headers['content-type'], raw);
      record.body = parsed.body;
      record.files = parsed.files;
      if (this.banned) {
        this.#sendBlocked(res, record);
        return;
      }
      if (!matched) throw new ApiError(404, 0, '404: Not Found');
      if (matched.route.auth && req.headers.authorization !== `Bot ${this.#token}`) {
        throw new ApiError(401, 0, '401: Unauthorized');
      }
      const fault = this.#takeFault(record);
      if (fault?.kind === 'reset') {
        record.status = -1;
        this.#noteFailure(record);
        this.#changed();
        req.socket.destroy();
        return;
      }
      if (fault?.kind === 'blocked') {
        this.#sendBlocked(res, record);
        return;
      }
      const oldEditWait = fault === undefined ? this.#oldMessageEdit(record, params) : null;
      if (oldEditWait !== null) {
        const seconds = (oldEditWait / 1000).toFixed(3);
        const body = {
          message: 'Maximum number of edits to messages older than 1 hour reached. Try again later.',
          code: 30046,
          ...(this.#oldEditRetryAfter ? { retry_after: Number(seconds) } : {}),
        };
        this.#send(res, record, 429, body, this.#oldEditRetryAfter ? { 'retry-after': seconds } : {});
        return;
      }
      if (fault?.kind === 'rateLimit') {
        this.#sendRateLimited(
          res,
          record,
          bucketName,
          spec.limit,
          fault.retryAfterMs,
          fault.scope ?? (fault.global ? 'global' : 'user'),
          fault.global ?? false,
        );
        return;
      }
      // The bot's global limit: every connection of the token counts in one bucket.
      const global = matched.route.auth
        ? this.#limiter.take('global', this.#limits.global, this.#token)
        : null;
      if (global !== null && !global.allowed) {
        this.globalLimited++;
        this.#sendRateLimited(
          res,
          record,
          'global',
          this.#limits.global.limit,
          global.retryAfterMs,
          'global',
          true,
        );
        return;
      }
      const taken = this.#limiter.take(bucketName, spec, major);
      if (!taken.allowed) {
        this.#sendRateLimited(res, record, bucketName, spec.limit, taken.retryAfterMs, 'user', false);
        return;
      }
      headers = rateLimitHeaders(taken.bucket);
      if (fault?.kind === 'error') {
        throw new ApiError(fault.status, fault.code ?? 0, fault.message ?? `${fault.status}: fake failure`);
      }
      const invalid = checkBody(method, matched.template, parsed.body);
      if (invalid !== null) throw invalid;
      const result = matched.route.handle({
        params,
        query: url.searchParams,
        body: parsed.body,
        files: parsed.files,
      });
      if (fault?.kind === 'resetAfter') {
        record.status = -1;
        this.#noteFailure(record);
        this.#changed();
        req.socket.destroy();
        return;
      }
      this.#send(res, record, result.status, result.body, headers);
    } catch (error) {
      if (!(error instanceof ApiError)) {
        this.internalErrors.push(error instanceof Error ? error : new Error(String(error)));
      }
      const apiError =
        error instanceof ApiError
          ? error
          : new ApiError(500, 0, `500: Internal Server Error (${String(error)})`);
      headers ??= rateLimitHeaders(this.#limiter.take(bucketName, spec, major).bucket);
      this.#send(res, record, apiError.status, apiError.toJSON(), headers);
    }
  }

  /** A request on a method and path that failed less than minRetryWaitMs before is listed. */
  #checkRetryWait(record: RecordedRequest): void {
    const failed = this.#failedAt.get(`${record.method} ${record.path}`);
    if (failed === undefined) return;
    const waitedMs = this.retryClock() - failed.at;
    if (waitedMs < this.#minRetryWaitMs)
      this.#immediateRetries.push({
        method: record.method,
        path: record.path,
        failedSeq: failed.seq,
        failedStatus: failed.status,
        seq: record.seq,
        waitedMs,
      });
  }

  #noteFailure(record: RecordedRequest): void {
    this.#failedAt.set(`${record.method} ${record.path}`, {
      seq: record.seq,
      status: record.status,
      at: this.retryClock(),
    });
  }

  #takeFault(record: RecordedRequest): Fault | undefined {
    const pending = this.#faults.find((f) => f.remaining > 0 && matches(f.match, record));
    if (!pending) return undefined;
    pending.remaining -= 1;
    return pending.fault;
  }

  #sendBlocked(res: ServerResponse, record: RecordedRequest): void {
    this.#send(res, record, 429, BLOCKED_BODY, {});
  }

  #sendRateLimited(
    res: ServerResponse,
    record: RecordedRequest,
    bucketName: string,
    limit: number,
    retryAfterMs: number,
    scope: string,
    global: boolean,
  ): void {
    const now = Date.now();
    const seconds = (retryAfterMs / 1000).toFixed(3);
    const headers: Record<string, string> = {
      ...rateLimitHeaders(
        { hash: bucketHash(bucketName), limit, remaining: 0, resetAt: now + retryAfterMs },
        now,
      ),
      'retry-after': seconds,
      'x-ratelimit-scope': scope,
      ...(global ? { 'x-ratelimit-global': 'true' } : {}),
    };
    this.#send(
      res,
      record,
      429,
      { message: 'You are being rate limited.', retry_after: Number(seconds), global, code: 0 },
      headers,
    );
  }

  #send(
    res: ServerResponse,
    record: RecordedRequest,
    status: number,
    body: unknown,
    headers: Record<string, string>,
  ): void {
    record.status = status;
    record.response = body ?? null;
    // A failure holds its method and path until the wait has passed or an answer came through.
    if (status >= 500) this.#noteFailure(record);
    else this.#failedAt.delete(`${record.method} ${record.path}`);
    this.#countInvalid(status, headers['x-ratelimit-scope'] ?? null);
    const text = body === undefined ? '' : JSON.stringify(body);
    res.writeHead(status, {
      ...headers,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      'content-length': Buffer.byteLength(text),
    });
    res.end(text);
    this.emit('request', record);
    this.#changed();
  }

  #serveAttachment(pathname: string, res: ServerResponse): void {
    const [, , channelId, attachmentId] = pathname.split('/');
    const attachment = this.state
      .messagesIn(channelId ?? '')
      .flatMap((m) => m.attachments)
      .find((a) => a.id === attachmentId);
    if (!attachment) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, {
      'content-type': attachment.contentType ?? 'application/octet-stream',
      'content-length': attachment.bytes.length,
    });
    res.end(attachment.bytes);
  }
}

function matches(match: RequestMatch, record: RecordedRequest): boolean {
  if (match.method !== undefined && match.method.toUpperCase() !== record.method) return false;
  if (match.route !== undefined && match.route !== record.route) return false;
  if (match.path !== undefined) {
    if (typeof match.path === 'string' ? match.path !== record.path : !match.path.test(record.path))
      return false;
  }
  if (match.file !== undefined && !record.files.some((f) => f.filename === match.file)) return false;
  return true;
}

function hasCustomId(components: unknown, customId: string): boolean {
  if (!Array.isArray(components)) return false;
  return components.some((component: { custom_id?: unknown; components?: unknown; accessory?: unknown }) => {
    if (component === null || typeof component !== 'object') return false;
    return (
      component.custom_id === customId ||
      hasCustomId(component.components, customId) ||
      hasCustomId([component.accessory], customId)
    );
  });
}

function positiveInteger(n: number, name: string): number {
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, not ${n}`);
  return n;
}
