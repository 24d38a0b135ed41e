// The composition root: starts and stops the bot. Storage, the slash commands, the discord.js
// client, the FICS pool and ChessLive! feed, the relay, then clubs on top of the relay (clubs use
// the relay; the relay knows nothing of clubs), the dispatcher, and command registration once
// Discord says the client is ready. main.ts and the tests both use it.
import { once } from 'node:events';
import { DiscordjsError, DiscordjsErrorCodes, Events, GatewayCloseCodes, Status } from 'discord.js';
import type { Client } from 'discord.js';
import type { Renderer } from '../render/index.js';
import { RenderPool } from '../render/worker-pool.js';
import type { Config } from './config.js';
import { FicsPool, type PoolOptions } from './fics/pool.js';
import type { GameNumber } from './protocol/game-number.js';
import { ClubPoster } from './club/poster.js';
import { ChessLiveFeed, CombinedFeed } from './chesslive/feed.js';
import { startEngine } from './engine/start.js';
import { LiveEvaluations } from './relay/evaluations.js';
import { errorMessage } from './result.js';
import { watchOutage } from './relay/outage.js';
import { Relay } from './relay/relay.js';
import type { Logger } from './log.js';
import { FATAL_CLOSE_CODES, ownsGuild, shardScope, shareOf } from './shard.js';
import { openStorage } from './storage/index.js';
import { joinFleet, type Fleet } from './fleet/index.js';
import { createClient } from './discord/client.js';
import { DEFAULT_COMMANDS_DIR, loadCommands } from './discord/loader.js';
import type { BotContext } from './discord/context.js';
import { createDispatcher } from './discord/dispatch.js';
import { RestGovernor } from './discord/governor.js';
import { watchGuilds } from './discord/guilds.js';
import { discordEditPace, DiscordPostPort, POSTS_AND_EDITS_PER_SECOND } from './discord/live-port.js';
import { inviteUrl } from './discord/permissions.js';
import { registerCommands } from './discord/register.js';
import { gameKeyOf } from './game/game-key.js';
import type { GameSnapshot } from './game/snapshot.js';
import { LiveGames } from './web/games.js';
import { Metrics } from './web/metrics.js';
import { EditScheduler } from './relay/schedule.js';
import { startWebServer, type WebServer } from './web/server.js';

export interface StartOptions {
  logger: Logger;
  /** Folder of command modules; the project's commands/ by default. */
  commandsDir?: URL;
  /** Give up when Discord has not said READY (and sent every guild) by then. */
  readyTimeoutMs?: number;
  /** FICS pool settings beyond the configuration (tests shorten timeouts and backoff). */
  fics?: Partial<PoolOptions>;
  /** How long a command waits for FICS to be online before saying it is unreachable. */
  ficsWaitMs?: number;
  /** The clock of live posts (their age, for Discord's one-hour edit limit); tests move it. */
  now?: () => number;
  /**
   * Told after the bot stopped itself for a reason no restart mends (the token revoked, the
   * intents refused): main.ts exits non-zero so that a supervisor notices.
   */
  onFatal?: (reason: string) => void;
}

export interface BotHandle {
  readonly client: Client<true>;
  readonly context: BotContext;
  /** The live web page's server; null when KIBITZ_WEB_PORT is off (or in a shard other than the first). */
  readonly web: WebServer | null;
  /** Logs out and closes storage; safe to call twice. */
  stop(): Promise<void>;
}

/** `fatal`: starting again as is would fail the same way (the token or the intents refused). */
export type StartResult = { ok: true; bot: BotHandle } | { ok: false; error: string; fatal?: boolean };

export async function startBot(config: Config, options: StartOptions): Promise<StartResult> {
  const { logger } = options;
  const opened = await openStorage(config.dbPath, { logger });
  if (!opened.ok) return { ok: false, error: opened.error };
  const storage = opened.storage;
  logger.info({ db: storage.path, schemaVersion: storage.schemaVersion }, 'storage open');

  const loaded = await loadCommands(options.commandsDir ?? DEFAULT_COMMANDS_DIR);
  if (!loaded.ok) {
    await storage.close();
    return { ok: false, error: `commands failed to load:\n  ${loaded.errors.join('\n  ')}` };
  }
  const client = createClient(config.discord);
  const governor = new RestGovernor({ logger: logger.child({ component: 'discord-rest' }) });
  // Under the ShardingManager (npm run start:sharded), or with SHARDS and SHARD_COUNT set, this
  // process is one shard of several (discord.js read which from the environment).
  const scope = shardScope(client.options);
  const firstShard = scope === null || scope.ids.includes(0);
  // Discord's global limit (50 requests a second) is the bot's, not each shard's: keep to a share.
  client.rest.options.globalRequestsPerSecond = shareOf(client.rest.options.globalRequestsPerSecond, scope);
  // Several machines: each FICS game is observed by one of them and shared through PostgreSQL.
  let fleet: Fleet | null = null;
  const fics = new FicsPool({
    host: config.fics.host,
    port: config.fics.port,
    // One login per registered handle (a second would kick the first out): the first shard's.
    user: firstShard ? config.fics.user : null,
    password: firstShard ? config.fics.password : null,
    maxConnections: config.fics.maxConnections,
    maxPlies: config.maxPlies,
    logger: logger.child({ component: 'fics' }),
    // Fair shares (src/fics/shares.ts): each server holds at most its live-game limit, and a
    // followed player's new game is held by the servers of this shard that follow them or have
    // them in a club.
    // Both are asked from FICS event handlers, in the step that checks and takes a place: they are
    // answered from memory (src/storage/interest.ts), not by a database round trip.
    limitOf: (guildId) => storage.interest.maxLiveGames(guildId, config.maxLivePerGuild),
    wantedBy: (players) => storage.interest.wantedBy(players).filter((guildId) => ownsGuild(scope, guildId)),
    // In a fleet a followed player's new game is observed by the machine that takes its lease.
    ...(config.fleet === null
      ? {}
      : {
          observeFollowed: (game: GameNumber, holders: readonly string[]) =>
            fleet === null
              ? Promise.reject(new Error('not in the fleet yet'))
              : fleet.feed.observeFollowed(game, holders),
        }),
    ...options.fics,
  });
  // An EventEmitter without an 'error' listener throws. The pool has logged each error already (one
  // line, no stack): logging it here again would double every failed attempt.
  fics.on('error', () => undefined);
  if (config.fleet !== null) {
    const joined = await joinFleet(config.fleet, `${config.fics.host}:${config.fics.port}`, fics, logger);
    if (!joined.ok) {
      fics.close();
      await client.destroy();
      await storage.close();
      return { ok: false, error: joined.error };
    }
    fleet = joined.value;
  }
  // ChessLive! games share the relay with FICS games: one feed, told apart by game number.
  const chesslive = new ChessLiveFeed({
    sources: config.chesslive.sources,
    pollMs: config.chesslive.pollMs,
    read: { maxBytes: config.chesslive.maxBytes },
    maxPlies: config.maxPlies,
    logger: logger.child({ component: 'chesslive' }),
  });
  const feed = new CombinedFeed(fleet?.feed ?? fics, chesslive);
  // Boards (1 ms each, dozens a second) and whole-game GIFs (tens of ms) are drawn on worker
  // threads: the event loop stays free for the board lines and edits of every other game. Each has
  // a thread of its own, so that no board waits behind a GIF.
  const boardRenders = new RenderPool({ workers: 1 });
  const gifRenders = new RenderPool({ workers: 1 });
  // Live games and viewers are the web page's; the rest is fed by small hooks below.
  let games: LiveGames | null = null;
  const metrics = new Metrics({
    liveGames: () => games?.games ?? 0,
    viewers: () => games?.viewers ?? 0,
    ficsConnections: () => fics.status().filter((c) => c.state === 'online').length,
  });
  fics.on('reconnected', () => metrics.ficsReconnects.inc());
  client.rest.on('response', (_request, response) =>
    metrics.discordRequests.inc({ status: String(response.status) }),
  );
  const renderer: Renderer = {
    png: (scene) => metrics.timed(metrics.renderSeconds, () => boardRenders.png(scene)),
    gif: (scenes, gifOptions) => gifRenders.gif(scenes, gifOptions),
    chart: (scene) => gifRenders.chart(scene),
  };
  // The pool's results come after startEngine returned: `evaluations` is set by then.
  const enginePool = config.engine.enabled
    ? startEngine(config, logger, (job, evaluation) => evaluations?.result(job, evaluation))
    : null;
  const evaluations = config.engine.enabled ? new LiveEvaluations({ pool: enginePool }) : null;
  // Every post and edit of this process waits for its turn here, at this shard's share of the
  // bot's rate (src/relay/schedule.ts).
  // In a fleet the processes of the bot share it by demand (src/fleet/rate-share.ts).
  const staticShare = shareOf(POSTS_AND_EDITS_PER_SECOND, scope);
  const share: (() => number) | undefined = fleet?.sharePace(
    POSTS_AND_EDITS_PER_SECOND,
    staticShare,
    (): number => scheduler.figures().waiting,
  );
  const scheduler: EditScheduler = new EditScheduler(discordEditPace(share ?? (() => staticShare), governor));
  metrics.addSchedule(() => scheduler.figures());
  const relay = new Relay({
    feed,
    port: new DiscordPostPort(client, governor, options.now),
    scheduler,
    storage,
    logger: logger.child({ component: 'relay' }),
    maxLivePerGuild: config.maxLivePerGuild,
    renderer,
    ownsGuild: (guildId) => ownsGuild(scope, guildId),
    onEdited: (ms) => metrics.editSeconds.observe(ms / 1000),
    // Each shard would listen on the same port: the first one serves the page, for its own games.
    ...(config.web.port !== null && config.web.publicUrl !== null && firstShard
      ? { watchUrl: (snapshot: GameSnapshot) => `${config.web.publicUrl}/g/${games?.idFor(snapshot)}` }
      : {}),
    ...(evaluations === null ? {} : { engine: evaluations }),
    // Kibitzes come from this process's own FICS connections (not relayed across a fleet).
    ...(fleet === null ? { said: fics } : {}),
  });
  // After the relay: its listener only queues an edit, then the pages get the same update.
  // The page's registry asks on every update which games live posts show: they are read (from
  // the live posts in memory) every 2 s and for each front page.
  const relayedNow = { games: new Map<string, number>() };
  const readRelayed = async (): Promise<void> => {
    const posts = await storage.livePosts.listLive();
    relayedNow.games = new Map(posts.map((post) => [post.gameKey, post.game]));
  };
  if (config.web.port !== null && firstShard)
    games = new LiveGames({
      feed,
      ...(fleet === null ? { said: fics } : {}),
      isRelayed: (snapshot) => relayedNow.games.has(gameKeyOf(snapshot)),
      relayed: async () => {
        await readRelayed();
        return [...relayedNow.games].flatMap(([key, game]) => {
          const snapshot = feed.snapshot(game);
          return snapshot !== undefined && gameKeyOf(snapshot) === key ? [snapshot] : [];
        });
      },
      publicSources: config.web.publicSources,
      maxViewers: config.web.maxViewers,
      maxViewersPerGame: config.web.maxViewersPerGame,
      ...(evaluations === null
        ? {}
        : { evaluation: (snapshot: GameSnapshot) => evaluations.latest(snapshot) }),
    });
  // The pages show the engine's evaluations too, as they arrive.
  if (games !== null) evaluations?.onEvaluated((game, fen) => games?.evaluated(game, fen));
  // Clubs: games of members posted unasked, after follows.
  const clubs = new ClubPoster({ feed: fics, relay, storage, logger: logger.child({ component: 'clubs' }) });
  const context: BotContext = {
    config,
    logger,
    storage,
    commands: loaded.registry,
    fics,
    relay,
    renderer,
    clubs,
    chesslive,
    // Long enough for a login in progress to finish, short enough that an outage is news in seconds.
    ficsWaitMs: options.ficsWaitMs ?? 2_000,
  };

  // FICS out of reach for more than a few seconds: live boards say so until it is back.
  const stopOutageWatch = watchOutage(
    fics,
    (down) =>
      void relay
        .setFicsDown(down)
        .catch((error: unknown) => logger.error({ err: error }, 'database read failed')),
  );

  const dispatch = createDispatcher(loaded.registry, context);
  client.on(Events.InteractionCreate, (interaction) => void dispatch(interaction));
  watchClient(client, logger);

  let stopped = false;
  let web: WebServer | null = null;
  let relayedReads: NodeJS.Timeout | undefined;
  // Declared before stop() is, assigned just after: a fatal close may come while logging in.
  let fatal: (reason: string) => void = () => undefined;
  watchAccess(client, governor, (reason) => fatal(reason));
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    stopOutageWatch();
    clearInterval(relayedReads);
    games?.close();
    await web?.close();
    relay.close();
    enginePool?.close();
    await Promise.all([boardRenders.close(), gifRenders.close()]);
    clubs.close();
    feed.close();
    chesslive.close();
    await fleet?.close();
    fics.close();
    await client.destroy();
    await storage.close();
    logger.info('stopped');
  };

  // Before the bot is up a fatal reason ends the login (startBot returns it); after, it stops the bot.
  let fatalReason: string | null = null;
  let up = false;
  const loginAborted = new AbortController();
  fatal = (reason) => {
    if (fatalReason !== null) return;
    fatalReason = reason;
    if (!up) {
      loginAborted.abort();
      return;
    }
    logger.fatal(reason);
    void stop().finally(() => options.onFatal?.(reason));
  };

  const readyTimeout = AbortSignal.timeout(options.readyTimeoutMs ?? 60_000);
  const ready = once(client, Events.ClientReady, {
    signal: AbortSignal.any([readyTimeout, loginAborted.signal]),
  });
  ready.catch(() => undefined); // observed below; a login failure must not leave it unhandled
  try {
    await client.login(config.discord.token);
    await ready;
  } catch (error) {
    await stop();
    const invalid = tokenInvalid(error);
    return {
      ok: false,
      error: invalid || fatalReason === null ? loginFailure(error) : fatalReason,
      fatal: invalid || fatalReason !== null,
    };
  }
  if (!client.isReady() || fatalReason !== null) {
    await stop();
    return {
      ok: false,
      error: fatalReason ?? 'the Discord client stopped before it was ready',
      fatal: fatalReason !== null,
    };
  }
  up = true;

  if (games !== null) {
    const liveGames = games;
    await readRelayed();
    relayedReads = setInterval(() => void readRelayed(), 2_000);
    try {
      web = await startWebServer(
        {
          games: liveGames,
          metrics,
          logger: logger.child({ component: 'web' }),
          maxStreamsPerAddress: config.web.maxStreamsPerAddress,
          publicUrl: config.web.publicUrl,
          boardPicture: (snapshot) => relay.boardPicture(snapshot),
          ...(config.web.trustProxy === null ? {} : { trustProxy: config.web.trustProxy }),
          health: async () => {
            const connections = fics.status();
            const online = connections.filter((c) => c.state === 'online').length;
            const stored = await storage.health();
            // Status names: ready, connecting, reconnecting, idle, disconnected…
            const discord = (Status[client.ws.status] ?? 'unknown').toLowerCase();
            return {
              ok: discord === 'ready' && online > 0 && stored.writable,
              discord,
              fics: { online, connections: connections.length },
              database: stored.writable ? 'ok' : 'failing',
              databaseError: stored.error,
              queuedWrites: stored.queued,
            };
          },
        },
        config.web.host,
        config.web.port!,
      );
      logger.info({ url: web.url, publicUrl: config.web.publicUrl }, 'live web page listening');
    } catch (error) {
      await stop();
      return {
        ok: false,
        error: `the live web page cannot listen on ${config.web.host}:${config.web.port}: ${errorMessage(error)}. Set KIBITZ_WEB_HOST and KIBITZ_WEB_PORT to a free address, or KIBITZ_WEB_PORT=off.`,
      };
    }
  }

  logger.info(
    { user: client.user.tag, applicationId: client.application.id, guilds: client.guilds.cache.size },
    'connected to Discord',
  );
  logger.info(
    { invite: inviteUrl(client.application.id) },
    'invite link (bot + applications.commands scopes)',
  );
  // Commands belong to the application, not to a shard: the first shard registers them.
  if (firstShard) {
    const registered = await registerCommands(
      client.rest,
      { applicationId: client.application.id, guildId: config.discord.guildId },
      loaded.registry.bodies(),
    );
    if (registered.ok)
      logger.info({ count: registered.count }, `slash commands registered ${registered.scope}`);
    else logger.error(registered.error);
  }

  // Before resuming: the posts and follows of guilds the bot was removed from meanwhile end here.
  await watchGuilds(client, context, (guildId) => ownsGuild(scope, guildId));

  // A render thread takes a quarter of a second to load: the first board posted should not wait.
  boardRenders.warm();
  gifRenders.warm();
  // FICS may be slow or down: the bot answers commands meanwhile and says so when it matters.
  void resumeLiveGames(context, () => stopped);

  return { ok: true, bot: { client, context, web, stop } };
}

/**
 * Logs in to FICS, then picks up every live post and followed player from before a restart.
 * `stopped`: the bot was stopped meanwhile, which ends this as planned.
 */
async function resumeLiveGames(ctx: BotContext, stopped: () => boolean): Promise<void> {
  try {
    await ctx.fics.start();
    await ctx.relay.resume();
    for (const handle of await ctx.storage.follows.handles()) await ctx.fics.follow(handle);
    await ctx.clubs.followAll();
  } catch (error) {
    if (stopped()) ctx.logger.info(`FICS start ended by the shutdown: ${errorMessage(error)}`);
    else ctx.logger.error({ err: error }, 'FICS start failed; live posts resume once it is reachable');
  }
}

function watchClient(client: Client, logger: Logger): void {
  // Without an 'error' listener an emitted error would throw and end the process.
  client.on(Events.Error, (error) => logger.error({ err: error }, 'discord.js error'));
  client.on(Events.Warn, (message) => logger.warn({ source: 'discord.js' }, message));
  client.on(Events.Debug, (message) => logger.trace({ source: 'discord.js' }, message));
  client.on(Events.ShardDisconnect, (event, shardId) =>
    logger.warn({ shardId, code: event.code }, 'gateway disconnected'),
  );
  client.on(Events.ShardReconnecting, (shardId) => logger.info({ shardId }, 'gateway reconnecting'));
  client.on(Events.ShardResume, (shardId, replayed) => logger.info({ shardId, replayed }, 'gateway resumed'));
  client.on(Events.ShardError, (error, shardId) => logger.error({ err: error, shardId }, 'gateway error'));
  client.rest.on('rateLimited', (info) =>
    logger.warn(
      {
        route: info.route,
        method: info.method,
        retryAfterMs: info.retryAfter,
        scope: info.scope,
        global: info.global,
      },
      'Discord rate limit: waiting',
    ),
  );
}

/**
 * Feeds every REST answer to the governor, and calls `fatal` on what no restart mends: a 401 to
 * the bot's token (reset in the developer portal) or a gateway closed for good (4004 and the
 * other codes after which discord.js does not reconnect).
 */
function watchAccess(client: Client, governor: RestGovernor, fatal: (reason: string) => void): void {
  client.rest.on('response', (request, response) => {
    // discord.js hands over a copy of the answer; its body is never read here.
    const body = response.body;
    if (body instanceof ReadableStream) void body.cancel().catch(() => undefined);
    const headers = response.headers as Headers;
    governor.record({
      status: response.status,
      scope: headers.get('x-ratelimit-scope'),
      retryAfter: headers.get('retry-after'),
    });
    // Interaction webhooks use their own token (a 401 there is an expired interaction).
    if (response.status === 401 && request.data.auth !== false)
      fatal(
        `Discord answered 401 Unauthorized to the bot token on ${request.method.toUpperCase()} ${request.route}: ${TOKEN_ADVICE}`,
      );
  });
  client.on(Events.ShardDisconnect, (event) => {
    if (!FATAL_CLOSE_CODES.includes(event.code)) return;
    const name = GatewayCloseCodes[event.code] ?? 'unknown';
    fatal(
      event.code === GatewayCloseCodes.AuthenticationFailed
        ? `Discord closed the gateway with 4004 Authentication failed: ${TOKEN_ADVICE}`
        : `Discord closed the gateway with ${event.code} ${name}: Kibitz cannot connect as configured (check the bot's intents in the developer portal).`,
    );
  });
}

const TOKEN_ADVICE =
  'the token is no longer valid (reset in the developer portal?). Set DISCORD_TOKEN to the new token and start again.';

function tokenInvalid(error: unknown): boolean {
  return error instanceof DiscordjsError && error.code === DiscordjsErrorCodes.TokenInvalid;
}

function loginFailure(error: unknown): string {
  if (tokenInvalid(error)) {
    return 'Discord rejected DISCORD_TOKEN. Open the developer portal (https://discord.com/developers/applications), Bot tab, press Reset Token, and start again with the new token.';
  }
  if (error instanceof Error && error.name === 'AbortError') {
    return 'Discord did not report the bot ready in time (gateway READY and guilds); check the network and try again.';
  }
  return `logging in to Discord failed: ${errorMessage(error)}`;
}
