// The live web page wired into the bot: its games (those live posts show, read from the database
// every 2 s and for each front page), the engine's evaluations as they arrive, the health answer,
// and its server, started once Discord is up.
import type { WebConfig } from '../config.js';
import { gameKeyOf } from '../game/game-key.js';
import type { Logger } from '../log.js';
import { err, errorMessage, ok, type Result } from '../result.js';
import type { LivePostRepository } from '../storage/live-posts.js';
import type { StorageHealth } from '../storage/storage.js';
import { LiveGames, type LiveGamesOptions } from './games.js';
import type { Metrics } from './metrics.js';
import { startWebServer, type Health, type WebServer, type WebServerOptions } from './server.js';
import type { GameId } from '../game/game-id.js';

/** How often the games live posts show are read again (the front page reads them too). */
const RELAYED_READ_MS = 2_000;

export interface LiveWebOptions {
  web: WebConfig & { port: number };
  feed: LiveGamesOptions['feed'];
  said?: LiveGamesOptions['said'];
  livePosts: Pick<LivePostRepository, 'listLive'>;
  /** The engine's newest evaluation of a game; absent without an engine. */
  evaluation?: LiveGamesOptions['evaluation'];
  metrics: Metrics;
  logger: Logger;
  boardPicture: NonNullable<WebServerOptions['boardPicture']>;
  health: () => Promise<Health>;
}

export class LiveWeb {
  readonly games: LiveGames;
  /** The games live posts show, by game key, as last read. */
  private relayedNow = new Map<string, GameId>();
  private reads: NodeJS.Timeout | undefined;
  private server: WebServer | null = null;

  constructor(private readonly options: LiveWebOptions) {
    const { feed, web } = options;
    this.games = new LiveGames({
      feed,
      ...(options.said === undefined ? {} : { said: options.said }),
      isRelayed: (snapshot) => this.relayedNow.has(gameKeyOf(snapshot)),
      relayed: async () => {
        await this.readRelayed();
        return [...this.relayedNow].flatMap(([key, game]) => {
          const snapshot = feed.snapshot(game);
          return snapshot !== undefined && gameKeyOf(snapshot) === key ? [snapshot] : [];
        });
      },
      publicSources: web.publicSources,
      maxViewers: web.maxViewers,
      maxViewersPerGame: web.maxViewersPerGame,
      ...(options.evaluation === undefined ? {} : { evaluation: options.evaluation }),
    });
  }

  /** Starts reading the relayed games and listening; the reason in words when it cannot listen. */
  async listen(): Promise<Result<WebServer>> {
    const { web, logger } = this.options;
    await this.readRelayed();
    this.reads = setInterval(() => void this.readRelayed(), RELAYED_READ_MS);
    try {
      this.server = await startWebServer(
        {
          games: this.games,
          metrics: this.options.metrics,
          logger,
          maxStreamsPerAddress: web.maxStreamsPerAddress,
          publicUrl: web.publicUrl,
          boardPicture: this.options.boardPicture,
          ...(web.trustProxy === null ? {} : { trustProxy: web.trustProxy }),
          health: this.options.health,
        },
        web.host,
        web.port,
      );
    } catch (error) {
      return err(
        `the live web page cannot listen on ${web.host}:${web.port}: ${errorMessage(error)}. Set KIBITZ_WEB_HOST and KIBITZ_WEB_PORT to a free address, or KIBITZ_WEB_PORT=off.`,
      );
    }
    logger.info({ url: this.server.url, publicUrl: web.publicUrl }, 'live web page listening');
    return ok(this.server);
  }

  async close(): Promise<void> {
    clearInterval(this.reads);
    this.games.close();
    await this.server?.close();
  }

  private async readRelayed(): Promise<void> {
    const posts = await this.options.livePosts.listLive();
    this.relayedNow = new Map(posts.map((post) => [post.gameKey, post.game]));
  }
}

/** The /healthz answer: ok while Discord is ready, a FICS connection online and the database writable. */
export async function botHealth(parts: {
  /** discord.js's status name: ready, connecting, reconnecting, idle, disconnected… */
  discord: () => string;
  fics: () => readonly { state: string }[];
  storage: () => Promise<StorageHealth>;
}): Promise<Health> {
  const connections = parts.fics();
  const online = connections.filter((c) => c.state === 'online').length;
  const stored = await parts.storage();
  const discord = parts.discord();
  return {
    ok: discord === 'ready' && online > 0 && stored.writable,
    discord,
    fics: { online, connections: connections.length },
    database: stored.writable ? 'ok' : 'failing',
    databaseError: stored.error,
    queuedWrites: stored.queued,
  };
}
