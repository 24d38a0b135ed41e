// Entry point: `npm start`. Reads the configuration (and a .env file if there is one), starts the
// bot, and stops it cleanly on SIGINT/SIGTERM.
import { startBot } from './app.js';
import { EXIT_FATAL } from './shard.js';
import { startup } from './startup.js';

const { config, logger } = startup();

// A revoked token or refused intents: exit with a status a supervisor (and the sharding manager)
// reads as "do not start again as is".
const started = await startBot(config, { logger, onFatal: () => process.exit(EXIT_FATAL) });
if (!started.ok) {
  logger.fatal(started.error);
  process.stderr.write(`Kibitz could not start: ${started.error}\n`);
  process.exit(started.fatal === true ? EXIT_FATAL : 1);
}
const bot = started.bot;

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    logger.info({ signal }, 'shutting down');
    bot.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}
