// The Discord side of the bot's life: logging in and waiting for READY, what the client and the
// gateway report (logged), what no restart mends (a revoked token, refused intents: the bot stops
// and says so), the invite link and command registration once up, and picking up FICS games after
// a restart.
import { once } from 'node:events';
import { DiscordjsError, DiscordjsErrorCodes, Events, GatewayCloseCodes } from 'discord.js';
import type { Client } from 'discord.js';
import type { Logger } from '../log.js';
import { err, errorMessage, ok, type Result } from '../result.js';
import { FATAL_CLOSE_CODES } from '../shard.js';
import type { BotContext } from './context.js';
import type { RestGovernor } from './governor.js';
import type { CommandRegistry } from './loader.js';
import { inviteUrl } from './permissions.js';
import { registerCommands } from './register.js';

/** Why the login failed; `fatal`: starting again as is would fail the same way. */
export interface LoginFailure {
  message: string;
  fatal: boolean;
}

export interface DiscordSession {
  /** Logs in and waits for READY (every guild sent) for at most `readyTimeoutMs`. */
  logIn(token: string, readyTimeoutMs: number): Promise<Result<Client<true>, LoginFailure>>;
}

/**
 * Watches the client (its errors and gateway events logged, every REST answer fed to the
 * governor). A reason no restart mends ends the login while logging in (logIn says it), and once
 * up is logged and handed to `stopBot`.
 */
export function watchDiscord(
  client: Client,
  governor: RestGovernor,
  logger: Logger,
  stopBot: (reason: string) => void,
): DiscordSession {
  watchClient(client, logger);
  let fatalReason: string | null = null;
  let up = false;
  const loginAborted = new AbortController();
  watchAccess(client, governor, (reason) => {
    if (fatalReason !== null) return;
    fatalReason = reason;
    if (!up) {
      loginAborted.abort();
      return;
    }
    logger.fatal(reason);
    stopBot(reason);
  });
  return {
    async logIn(token, readyTimeoutMs) {
      const ready = once(client, Events.ClientReady, {
        signal: AbortSignal.any([AbortSignal.timeout(readyTimeoutMs), loginAborted.signal]),
      });
      ready.catch(() => undefined); // observed below; a login failure must not leave it unhandled
      try {
        await client.login(token);
        await ready;
      } catch (error) {
        const invalid = tokenInvalid(error);
        return err({
          message: invalid || fatalReason === null ? loginFailure(error) : fatalReason,
          fatal: invalid || fatalReason !== null,
        });
      }
      if (!client.isReady() || fatalReason !== null)
        return err({
          message: fatalReason ?? 'the Discord client stopped before it was ready',
          fatal: fatalReason !== null,
        });
      up = true;
      return ok(client);
    },
  };
}

/** Logs who the bot is and its invite link; `register`: registers the slash commands too. */
export async function announceReady(
  client: Client<true>,
  logger: Logger,
  commands: { registry: CommandRegistry; guildId: string | null; register: boolean },
): Promise<void> {
  logger.info(
    { user: client.user.tag, applicationId: client.application.id, guilds: client.guilds.cache.size },
    'connected to Discord',
  );
  logger.info(
    { invite: inviteUrl(client.application.id) },
    'invite link (bot + applications.commands scopes)',
  );
  if (!commands.register) return;
  const registered = await registerCommands(
    client.rest,
    { applicationId: client.application.id, guildId: commands.guildId },
    commands.registry.bodies(),
  );
  if (registered.ok)
    logger.info({ count: registered.value.count }, `slash commands registered ${registered.value.scope}`);
  else logger.error(registered.error);
}

/**
 * Logs in to FICS, then picks up every live post and followed player from before a restart.
 * `stopped`: the bot was stopped meanwhile, which ends this as planned.
 */
export async function resumeLiveGames(ctx: BotContext, stopped: () => boolean): Promise<void> {
  try {
    await ctx.fics.start();
    await ctx.relay.resume();
    for (const handle of await ctx.storage.follows.handles()) await ctx.fics.follow(handle);
    await ctx.clubs.followAll();
  } catch (error) {
    if (stopped()) ctx.logger.info(`FICS start ended by the shutdown: ${errorMessage(error)}`);
    else ctx.logger.error({ err: error }, 'FICS start failed; live posts resume once it is reachable');
  } finally {
    // After the resume (a TV whose game ended meanwhile has switched): the others look now and
    // every minute, FICS reachable or not.
    if (!stopped()) ctx.tv.start();
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

/** What Kibitz says when Discord refuses the bot token at start (401): the bot's and the sharding manager's words. */
export const TOKEN_REJECTED =
  'Discord rejected DISCORD_TOKEN. Open the developer portal (https://discord.com/developers/applications), Bot tab, press Reset Token, and start again with the new token.';

function loginFailure(error: unknown): string {
  if (tokenInvalid(error)) return TOKEN_REJECTED;
  if (error instanceof Error && error.name === 'AbortError') {
    return 'Discord did not report the bot ready in time (gateway READY and guilds); check the network and try again.';
  }
  return `logging in to Discord failed: ${errorMessage(error)}`;
}
