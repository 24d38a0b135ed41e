// The real bot (startBot, as main.ts starts it) on a set of environment variables, its log kept
// in memory as JSON lines for the test to read.
import { configSecrets, loadConfig } from '../../src/config.js';
import { startBot, type BotHandle, type StartOptions } from '../../src/app.js';
import { createLogger } from '../../src/log.js';

export interface LoggedBot {
  bot: BotHandle;
  /** Every line the bot logged at its level (JSON). */
  logLines: string[];
}

export async function startLoggedBot(
  env: Record<string, string | undefined>,
  options: Omit<StartOptions, 'logger'> = {},
): Promise<LoggedBot> {
  // The live web page only where a test asks for it (port 8080 may be taken).
  const loaded = loadConfig({ KIBITZ_WEB_PORT: 'off', ...env });
  if (!loaded.ok) throw new Error(loaded.error.join('\n'));
  const logLines: string[] = [];
  const logger = createLogger({
    level: loaded.value.logLevel,
    secrets: configSecrets(loaded.value),
    destination: { write: (line: string) => void logLines.push(line) },
  });
  const started = await startBot(loaded.value, { logger, ...options });
  if (!started.ok) throw new Error(started.error.message);
  return { bot: started.value, logLines };
}
