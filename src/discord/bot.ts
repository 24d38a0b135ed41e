// Starting and stopping the bot: storage, commands, the discord.js client, the dispatcher, and
// command registration once Discord says the client is ready. main.ts and the tests both use it.
import { once } from 'node:events';
import { DiscordjsError, DiscordjsErrorCodes, Events } from 'discord.js';
import type { Client } from 'discord.js';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { openStorage } from '../storage/index.js';
import { createClient } from './client.js';
import { DEFAULT_COMMANDS_DIR, loadCommands } from './commands.js';
import type { BotContext } from './context.js';
import { createDispatcher } from './dispatch.js';
import { inviteUrl } from './permissions.js';
import { registerCommands } from './register.js';

export interface StartOptions {
  logger: Logger;
  /** Folder of command modules; the project's commands/ by default. */
  commandsDir?: URL;
  /** Give up when Discord has not said READY (and sent every guild) by then. */
  readyTimeoutMs?: number;
}

export interface BotHandle {
  readonly client: Client<true>;
  readonly context: BotContext;
  /** Logs out and closes storage; safe to call twice. */
  stop(): Promise<void>;
}

export type StartResult = { ok: true; bot: BotHandle } | { ok: false; error: string };

export async function startBot(config: Config, options: StartOptions): Promise<StartResult> {
  const { logger } = options;
  const opened = openStorage(config.dbPath);
  if (!opened.ok) return { ok: false, error: opened.error };
  const storage = opened.storage;
  logger.info({ db: storage.path, schemaVersion: storage.schemaVersion }, 'storage open');

  const loaded = await loadCommands(options.commandsDir ?? DEFAULT_COMMANDS_DIR);
  if (!loaded.ok) {
    storage.close();
    return { ok: false, error: `commands failed to load:\n  ${loaded.errors.join('\n  ')}` };
  }
  const context: BotContext = { config, logger, storage, commands: loaded.registry };

  const client = createClient(config.discord);
  const dispatch = createDispatcher(loaded.registry, context);
  client.on(Events.InteractionCreate, (interaction) => void dispatch(interaction));
  watchClient(client, logger);

  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    await client.destroy();
    storage.close();
    logger.info('stopped');
  };

  const readyTimeout = AbortSignal.timeout(options.readyTimeoutMs ?? 60_000);
  const ready = once(client, Events.ClientReady, { signal: readyTimeout });
  ready.catch(() => undefined); // observed below; a login failure must not leave it unhandled
  try {
    await client.login(config.discord.token);
    await ready;
  } catch (error) {
    await stop();
    return { ok: false, error: loginFailure(error) };
  }
  if (!client.isReady()) {
    await stop();
    return { ok: false, error: 'the Discord client stopped before it was ready' };
  }

  logger.info(
    { user: client.user.tag, applicationId: client.application.id, guilds: client.guilds.cache.size },
    'connected to Discord',
  );
  logger.info(
    { invite: inviteUrl(client.application.id) },
    'invite link (bot + applications.commands scopes)',
  );
  const registered = await registerCommands(
    client.rest,
    { applicationId: client.application.id, guildId: config.discord.guildId },
    loaded.registry.bodies(),
  );
  if (registered.ok)
    logger.info({ count: registered.count }, `slash commands registered ${registered.scope}`);
  else logger.error(registered.error);

  return { ok: true, bot: { client, context, stop } };
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

function loginFailure(error: unknown): string {
  if (error instanceof DiscordjsError && error.code === DiscordjsErrorCodes.TokenInvalid) {
    return 'Discord rejected DISCORD_TOKEN. Open the developer portal (https://discord.com/developers/applications), Bot tab, press Reset Token, and start again with the new token.';
  }
  if (error instanceof Error && error.name === 'AbortError') {
    return 'Discord did not report the bot ready in time (gateway READY and guilds); check the network and try again.';
  }
  return `logging in to Discord failed: ${error instanceof Error ? error.message : String(error)}`;
}
