// What every entry point does first: read the configuration (and a .env file if there is one),
// or say what is wrong and exit; then a logger that never writes a secret.
import { existsSync } from 'node:fs';
import { configSecrets, formatConfigErrors, loadConfig, type Config } from './config.js';
import { createLogger, logUnhandledRejections, type Logger } from './log.js';

export function startup(): { config: Config; logger: Logger } {
  // Variables already in the environment win over the file.
  if (existsSync('.env')) process.loadEnvFile('.env');
  const loaded = loadConfig(process.env);
  if (!loaded.ok) {
    process.stderr.write(formatConfigErrors(loaded.error));
    process.exit(1);
  }
  const config = loaded.value;
  const logger = createLogger({ level: config.logLevel, secrets: configSecrets(config) });
  logUnhandledRejections(logger);
  return { config, logger };
}
