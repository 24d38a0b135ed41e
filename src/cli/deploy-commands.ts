// `npm run deploy-commands`: registers the slash commands without starting the bot, in
// DISCORD_GUILD_ID if set (instant), else globally. Uses DISCORD_API_BASE when set.
import { existsSync } from 'node:fs';
import { formatConfigErrors, loadConfig } from '../config.js';
import { createRest } from '../discord/client.js';
import { loadCommands } from '../discord/loader.js';
import { fetchApplicationId, registerCommands } from '../discord/register.js';

if (existsSync('.env')) process.loadEnvFile('.env');

const loaded = loadConfig(process.env);
if (!loaded.ok) {
  process.stderr.write(formatConfigErrors(loaded.errors));
  process.exit(1);
}
const { discord } = loaded.config;

const commands = await loadCommands();
if (!commands.ok) {
  process.stderr.write(`Commands failed to load:\n  ${commands.errors.join('\n  ')}\n`);
  process.exit(1);
}

const rest = createRest(discord);
const application = await fetchApplicationId(rest);
if (!application.ok) {
  process.stderr.write(`${application.error}\n`);
  process.exit(1);
}

const bodies = commands.registry.bodies();
const result = await registerCommands(
  rest,
  { applicationId: application.id, guildId: discord.guildId },
  bodies,
);
if (!result.ok) {
  process.stderr.write(`${result.error}\n`);
  process.exit(1);
}
process.stdout.write(
  `Registered ${result.count} commands ${result.scope}: ${bodies.map((b) => `/${b.name}`).join(', ')}\n`,
);
