// Entry point: `npm start`. Reads the configuration (and a .env file if there is one), starts the
// bot, and stops it cleanly on SIGINT/SIGTERM.
import { startBot } from './app.js';
import { inviteUrl } from './discord/permissions.js';
import { EXIT_FATAL } from './shard.js';
import { startup } from './startup.js';

const { config, logger } = startup();

// Signals are heard from the start: one that comes while the bot is still starting (its commands
// may already answer) stops it as soon as it is up.
let bot: { stop(): Promise<void> } | null = null;
let stopAsked = false;
const stop = (running: { stop(): Promise<void> }): void => {
  running.stop().then(
    () => process.exit(0),
    (error: unknown) => {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    },
  );
};
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    logger.info({ signal }, 'shutting down');
    if (bot === null) stopAsked = true;
    else stop(bot);
  });
}

// A revoked token or refused intents: exit with a status a supervisor (and the sharding manager)
// reads as "do not start again as is".
const started = await startBot(config, { logger, onFatal: () => process.exit(EXIT_FATAL) });
if (!started.ok) {
  logger.fatal(started.error.message);
  process.stderr.write(`Kibitz could not start: ${started.error.message}\n`);
  process.exit(started.error.fatal ? EXIT_FATAL : 1);
}
const { client } = started.value;
bot = started.value;
// Beside the JSON log (also in it), once and plainly: the link a newcomer needs next.
process.stderr.write(
  `\nKibitz is online as ${client.user.tag}. Invite it to a Discord server with:\n  ${inviteUrl(client.application.id)}\nthen type /observe in a channel there.\n\n`,
);
if (stopAsked) stop(bot);
