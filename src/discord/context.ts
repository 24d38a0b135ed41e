// What every command and component handler receives besides the interaction. Services are added
// here as they come (FICS pool, game tracker, relay): handlers reach them only through this.
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import type { Storage } from '../storage/index.js';
import type { CommandRegistry } from './commands.js';

export interface BotContext {
  readonly config: Config;
  readonly logger: Logger;
  readonly storage: Storage;
  /** The loaded slash commands (for /help). */
  readonly commands: CommandRegistry;
}
