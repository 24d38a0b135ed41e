// The composition root: starts and stops the bot. Storage, the slash commands, the discord.js
// client, the FICS pool and ChessLive! feed, the relay, then clubs on top of the relay (clubs use
// the relay; the relay knows nothing of clubs), the dispatcher, and command registration once
// Discord says the client is ready. main.ts and the tests both use it.
import { Events, Status } from 'discord.js';
import { err, ok, type Result } from './result.js';
import type { Client } from 'discord.js';
import { RENDERER_CLOSED, watchedRenderer, type Renderer } from '../render/index.js';
import { RenderPool } from '../render/worker-pool.js';
import type { Config } from './config.js';
import { FicsPool, type PoolOptions } from './fics/pool.js';
import type { GameNumber } from './protocol/game-number.js';
import { ClubPoster } from './club/poster.js';
import { TvPoster } from './club/tv.js';
import { ChessLiveFeed, CombinedFeed } from './chesslive/feed.js';
import { startEngine } from './engine/start.js';
import { LiveEvaluations } from './relay/evaluations.js';
import { watchOutage } from './relay/outage.js';
import { Relay } from './relay/relay.js';
import type { Logger } from './log.js';
import { ownsGuild, shardScope, shareOf, type ShardScope } from './shard.js';
import { openStorage, type Storage } from './storage/index.js';
import { joinFleet, type Fleet } from './fleet/index.js';
import { announceReady, resumeLiveGames, watchDiscord } from './discord/bot.js';
import { createClient } from './discord/client.js';
import { DEFAULT_COMMANDS_DIR, loadCommands } from './discord/loader.js';
import type { BotContext } from './discord/context.js';
import { createDispatcher } from './discord/dispatch.js';
import { RestGovernor } from './discord/governor.js';
import { watchGuilds } from './discord/guilds.js';
import { discordEditPace, DiscordPostPort, POSTS_AND_EDITS_PER_SECOND } from './discord/live-port.js';
import type { GameSnapshot } from './game/snapshot.js';
import { Metrics } from './web/metrics.js';
import { EditScheduler } from './relay/schedule.js';
import { REAL_CLOCK, type ScheduleClock } from './clock.js';
import type { WebServer } from './web/server.js';
import { botHealth, LiveWeb } from './web/wiring.js';

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
  /** The clock edits are paced and paused by (the scheduler's and the governor's); tests move it. */
  editClock?: ScheduleClock;
  /** The clock of interactions' answers (the wait after Discord failed one, its window); tests move it. */
  answerClock?: ScheduleClock;
  /**
   * Render threads for boards and for GIFs and charts, instead of two of the bot's own: the tests'
   * bots share two (a thread's start is a second under load). Their owner closes them.
   */
  renderPools?: { boards: RenderPool; gifs: RenderPool };
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

/** Why the bot did not start; `fatal`: starting again as is would fail the same way (the token or the intents refused). */
export interface StartFailure {
  message: string;
  fatal: boolean;
}

export type StartResult = Result<BotHandle, StartFailure>;

export async function startBot(config: Config, options: StartOptions): Promise<StartResult> {
  const { logger } = options;
  const opened = await openStorage(config.dbPath, { logger });
  if (!opened.ok) return failed(opened.error);
  const storage = opened.value;
  logger.info({ db: storage.path, schemaVersion: storage.schemaVersion }, 'storage open');

  const loaded = await loadCommands(options.commandsDir ?? DEFAULT_COMMANDS_DIR);
  if (!loaded.ok) {
    await storage.close();
    return failed(`commands failed to load:\n  ${loaded.error.join('\n  ')}`);
  }
  const client = createClient(config.discord);
  const { editClock } = options;
  const governor = new RestGovernor({
    logger: logger.child({ component: 'discord-rest' }),
    ...(editClock === undefined ? {} : { now: () => editClock.now() }),
  });
  // Under the ShardingManager (npm run start:sharded), or with SHARDS and SHARD_COUNT set, this
  // process is one shard of several (discord.js read which from the environment).
  const scope = shardScope(client.options);
  const firstShard = scope === null || scope.ids.includes(0);
  // Discord's global limit (50 requests a second) is the bot's, not each shard's: keep to a share.
  client.rest.options.globalRequestsPerSecond = shareOf(client.rest.options.globalRequestsPerSecond, scope);
  const feeds = await connectFics(config, options, storage, { scope, first: firstShard });
  if (!feeds.ok) {
    await client.destroy();
    await storage.close();
    return failed(feeds.error);
  }
  const { fics, fleet } = feeds.value;
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
  const { boards: boardRenders, gifs: gifRenders } = options.renderPools ?? {
    boards: new RenderPool({ workers: 1 }),
    gifs: new RenderPool({ workers: 1 }),
  };
  // Live games and viewers are the web page's; the rest is fed by small hooks below.
  let web: LiveWeb | null = null;
  const metrics = new Metrics({
    liveGames: () => web?.games.games ?? 0,
    viewers: () => web?.games.viewers ?? 0,
    ficsConnections: () => fics.status().filter((c) => c.state === 'online').length,
  });
  fics.on('reconnected', () => metrics.ficsReconnects.inc());
  client.rest.on('response', (_request, response) =>
    metrics.discordRequests.inc({ status: String(response.status) }),
  );
  const renderer: Renderer = watchedRenderer(
    {
      png: (scene) => metrics.timed(metrics.renderSeconds, () => boardRenders.png(scene)),
      gif: (scenes, gifOptions) => gifRenders.gif(scenes, gifOptions),
      chart: (scene) => gifRenders.chart(scene),
    },
    (kind, error) =>
      metrics.rendersFailed.inc({ kind, reason: error === RENDERER_CLOSED ? 'closed' : 'failed' }),
  );
  // The pool's results come after startEngine returned: `evaluations` is set by then.
  const enginePool = config.engine.enabled
    ? startEngine(config, logger, (job, evaluation) => evaluations?.result(job, evaluation))
    : null;
  const evaluations = config.engine.enabled ? new LiveEvaluations({ pool: enginePool }) : null;
  // Every post and edit of this process waits for its turn here, at this shard's share of the
  // bot's rate (src/relay/schedule.ts). In a fleet the processes of the bot share it by demand
  // (src/fleet/rate-share.ts).
  const staticShare = shareOf(POSTS_AND_EDITS_PER_SECOND, scope);
  const share: (() => number) | undefined = fleet?.sharePace(
    POSTS_AND_EDITS_PER_SECOND,
    staticShare,
    (): number => scheduler.figures().waiting,
  );
  const scheduler: EditScheduler = new EditScheduler(
    discordEditPace(share ?? (() => staticShare), governor),
    editClock,
  );
  metrics.addSchedule(() => scheduler.figures());
  // Each shard would listen on the same port: the first one serves the page, for its own games.
  const webPort = firstShard ? config.web.port : null;
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
    ...(webPort !== null && config.web.publicUrl !== null
      ? { watchUrl: (snapshot: GameSnapshot) => `${config.web.publicUrl}/g/${web?.games.idFor(snapshot)}` }
      : {}),
    ...(evaluations === null ? {} : { engine: evaluations }),
    // Kibitzes: this process's own FICS connections', and in a fleet those read from PostgreSQL.
    said: fleet?.feed ?? fics,
  });
  // After the relay: its listener only queues an edit, then the pages get the same update.
  if (webPort !== null) {
    web = new LiveWeb({
      web: { ...config.web, port: webPort },
      feed,
      said: fleet?.feed ?? fics,
      livePosts: storage.livePosts,
      ...(evaluations === null ? {} : { evaluation: (snapshot) => evaluations.latest(snapshot) }),
      metrics,
      logger: logger.child({ component: 'web' }),
      boardPicture: (snapshot, theme) => relay.boardPicture(snapshot, theme),
      health: () =>
        botHealth({
          discord: () => (Status[client.ws.status] ?? 'unknown').toLowerCase(),
          fics: () => fics.status(),
          storage: () => storage.health(),
        }),
    });
    // The pages show the engine's evaluations too, as they arrive.
    const games = web.games;
    evaluations?.onEvaluated((game, fen) => games.evaluated(game, fen));
  }
  // Clubs: games of members posted unasked, after follows.
  const clubs = new ClubPoster({ feed: fics, relay, storage, logger: logger.child({ component: 'clubs' }) });
  // FICS TV: from the pool's cached games list, posted through the relay like any game.
  const tv = new TvPoster({
    games: () => fics.recentGames.rows(),
    relay,
    storage,
    logger: logger.child({ component: 'tv' }),
    owns: (guildId) => ownsGuild(scope, guildId),
  });
  const context: BotContext = {
    config,
    logger,
    storage,
    commands: loaded.value,
    answerClock: options.answerClock ?? REAL_CLOCK,
    fics,
    relay,
    renderer,
    clubs,
    tv,
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

  const dispatch = createDispatcher(loaded.value, context);
  client.on(Events.InteractionCreate, (interaction) => void dispatch(interaction));
  const discord = watchDiscord(client, governor, logger, (reason) => {
    void stop().finally(() => options.onFatal?.(reason));
  });

  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    stopOutageWatch();
    await web?.close();
    relay.close();
    enginePool?.close();
    // Pools shared with other bots (the tests') are their owner's to close. Renders still queued
    // (GIFs of games ending together): one line for all, each in the metrics.
    if (options.renderPools === undefined) {
      const [boards, gifsAndCharts] = await Promise.all([boardRenders.close(), gifRenders.close()]);
      if (boards + gifsAndCharts > 0)
        logger.warn({ boards, gifsAndCharts }, 'renders not made: the render pools were closed');
    }
    clubs.close();
    tv.close();
    feed.close();
    chesslive.close();
    await fleet?.close();
    fics.close();
    await client.destroy();
    await storage.close();
    logger.info('stopped');
  };

  const loggedIn = await discord.logIn(config.discord.token, options.readyTimeoutMs ?? 60_000);
  if (!loggedIn.ok) {
    await stop();
    return err(loggedIn.error);
  }
  const ready = loggedIn.value;
  const listening = web === null ? null : await web.listen();
  if (listening?.ok === false) {
    await stop();
    return failed(listening.error);
  }

  // Commands belong to the application, not to a shard: the first shard registers them.
  await announceReady(ready, logger, {
    registry: loaded.value,
    guildId: config.discord.guildId,
    register: firstShard,
  });
  // Before resuming: the posts and follows of guilds the bot was removed from meanwhile end here.
  await watchGuilds(ready, context, (guildId) => ownsGuild(scope, guildId));

  // A render thread takes a quarter of a second to load: the first board posted should not wait.
  boardRenders.warm();
  gifRenders.warm();
  // FICS may be slow or down: the bot answers commands meanwhile and says so when it matters.
  void resumeLiveGames(context, () => stopped);

  return ok({ client: ready, context, web: listening?.value ?? null, stop });
}

/**
 * The FICS pool, holding this shard's share (the first shard logs in), and in a fleet
 * (KIBITZ_FLEET_DB) the fleet it joined; the reason when the fleet cannot be joined.
 */
async function connectFics(
  config: Config,
  options: StartOptions,
  storage: Storage,
  shard: { scope: ShardScope | null; first: boolean },
): Promise<Result<{ fics: FicsPool; fleet: Fleet | null }>> {
  const { logger } = options;
  const { scope, first: firstShard } = shard;
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
      return joined;
    }
    fleet = joined.value;
  }
  return ok({ fics, fleet });
}

/** A failure that starting again may mend (a busy port, a database down). */
function failed(message: string): { ok: false; error: StartFailure } {
  return err({ message, fatal: false });
}
