// What every command and component handler receives besides the interaction: the services
// src/app.ts starts (which the actions in src/actions run against) and the loaded commands.
// Handlers reach them only through this.
import type { Services } from '../actions/services.js';
import type { ScheduleClock } from '../clock.js';
import type { CommandRegistry } from './loader.js';

export interface BotContext extends Services {
  /** The loaded slash commands (for /help). */
  readonly commands: CommandRegistry;
  /** The clock of Discord's windows for answers (the dispatcher's wait after Discord failed). */
  readonly answerClock: ScheduleClock;
}
