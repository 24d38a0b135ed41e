// `npm run deploy-commands`: registers the slash commands without starting the bot, in
// DISCORD_GUILD_ID if set (instant), else globally. Uses DISCORD_API_BASE when set. The bot
// registers its commands itself at start; this tool is for registering without running it.
import { existsSync } from 'node:fs';
import { formatConfigErrors, loadConfig } from '../config.js';
import { createRest } from '../discord/client.js';
import { loadCommands } from '../discord/loader.js';
import { fetchApplicationId, registerCommands } from '../discord/register.js';
import { parseCommandLine, runIfEntry, type CliOutput, type Tool } from './entry.js';

const TOOL: Tool = {
  name: 'deploy-commands',
  usage: `usage: npm run deploy-commands
Registers the slash commands with Discord (in DISCORD_GUILD_ID if set, else globally) without
starting the bot; reads DISCORD_TOKEN and the other variables from the environment or ./.env.
The bot registers its commands itself when it starts: this is needed only to register without it.`,
};

/** Runs the command line `argv`; returns the exit status. */
export async function main(argv: string[], out: CliOutput): Promise<number> {
  const parsed = parseCommandLine(TOOL, { options: {} }, argv, out);
  if (typeof parsed === 'number') return parsed;
  if (existsSync('.env')) process.loadEnvFile('.env');

  const loaded = loadConfig(process.env);
  if (!loaded.ok) {
    out.stderr.write(formatConfigErrors(loaded.error));
    return 1;
  }
  const { discord } = loaded.value;

  const commands = await loadCommands();
  if (!commands.ok) {
    out.stderr.write(`Commands failed to load:\n  ${commands.error.join('\n  ')}\n`);
    return 1;
  }

  const rest = createRest(discord);
  const application = await fetchApplicationId(rest);
  if (!application.ok) {
    out.stderr.write(`${application.error}\n`);
    return 1;
  }

  const bodies = commands.value.bodies();
  const result = await registerCommands(
    rest,
    { applicationId: application.value, guildId: discord.guildId },
    bodies,
  );
  if (!result.ok) {
    out.stderr.write(`${result.error}\n`);
    return 1;
  }
  out.stdout.write(
    `Registered ${result.value.count} commands ${result.value.scope}: ${bodies.map((b) => `/${b.name}`).join(', ')}\n`,
  );
  return 0;
}

runIfEntry(import.meta.url, main);
