// Entry point: `npm start`. Reads the configuration (and a .env file if there is one), starts the
// bot, and stops it cleanly on SIGINT/SIGTERM.
import { startBot } from './discord/bot.js';
import { startup } from './startup.js';

const { config, logger } = startup();

const started = await startBot(config, { logger });
if (!started.ok) {
  logger.fatal(started.error);
  process.stderr.write(`Kibitz could not start: ${started.error}\n`);
  process.exit(1);
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
