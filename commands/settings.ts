// /settings: this server's board theme (every picture and live page of its posts) and whether
// posts carry FICS kibitzes into their thread when /observe does not say. Needs Manage Server.
// The action is src/actions/settings.ts; this file is its discord.js adapter.
import { InteractionContextType, PermissionFlagsBits, SlashCommandBuilder } from 'discord.js';
import type { ChatInputCommandInteraction } from 'discord.js';
import { THEME_NAMES } from '../render/theme.js';
import {
  settings,
  type SettingsError,
  type SettingsRequest,
  type SettingsShown,
} from '../src/actions/settings.js';
import type { BotContext } from '../src/discord/context.js';
import { answer } from '../src/discord/replies.js';

export const data = new SlashCommandBuilder()
  .setName('settings')
  .setDescription("This server's board theme and kibitz default (Manage Server)")
  .setContexts(InteractionContextType.Guild)
  .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
  .addSubcommand((s) =>
    s
      .setName('theme')
      .setDescription("Board colours of this server's pictures and live pages")
      .addStringOption((o) =>
        o
          .setName('theme')
          .setDescription('Board colours')
          .setRequired(true)
          .addChoices(...THEME_NAMES.map((name) => ({ name, value: name }))),
      ),
  )
  .addSubcommand((s) =>
    s
      .setName('kibitz')
      .setDescription("FICS kibitzes into each game's thread when /observe does not say (club posts too)")
      .addStringOption((o) =>
        o
          .setName('kibitz')
          .setDescription('On or off')
          .setRequired(true)
          .addChoices({ name: 'on', value: 'on' }, { name: 'off', value: 'off' }),
      ),
  )
  .addSubcommand((s) => s.setName('show').setDescription("This server's settings"));

export const help = `Sets this server's board theme (${THEME_NAMES.join(', ')}), used by every picture and live page of its posts, live ones included, and whether posts carry FICS kibitzes into their thread when \`/observe\` has no \`kibitz:\`. Needs Manage Server.`;

export async function execute(interaction: ChatInputCommandInteraction, ctx: BotContext): Promise<void> {
  if (interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild) !== true) {
    await answer(interaction, 'Changing the settings needs the Manage Server permission.');
    return;
  }
  const request = parse(interaction);
  if (request === null) {
    await answer(interaction, 'Use /settings in a server channel, with one of its subcommands.');
    return;
  }
  const result = await settings(ctx.storage, request);
  if (!result.ok) ctx.logger.error({ guildId: request.guildId, error: result.error }, '/settings failed');
  await answer(interaction, result.ok ? reply(request, result.value) : problem(result.error));
}

/** The request, its options read once; null outside a server or for an unknown subcommand. */
function parse(interaction: ChatInputCommandInteraction): SettingsRequest | null {
  const guildId = interaction.guildId;
  if (guildId === null) return null;
  switch (interaction.options.getSubcommand()) {
    case 'theme':
      return { guildId, change: 'theme', theme: interaction.options.getString('theme', true) };
    case 'kibitz':
      return { guildId, change: 'kibitz', kibitz: interaction.options.getString('kibitz', true) === 'on' };
    case 'show':
      return { guildId, change: 'show' };
    default:
      return null;
  }
}

function reply(request: SettingsRequest, shown: SettingsShown): string {
  const now = `Board theme: **${shown.theme}**. Kibitzes by default: **${shown.kibitz ? 'on' : 'off'}**.`;
  switch (request.change) {
    case 'show':
      return now;
    case 'theme':
      return `${now}\nNew pictures and live pages of this server's posts use it${shown.livePostsRedrawn > 0 ? `, the ${shown.livePostsRedrawn} live ones from their next move` : ''}.`;
    case 'kibitz':
      return `${now}\n${shown.kibitz ? "New posts carry FICS kibitzes and whispers into their game's thread (and make one) unless `/observe kibitz:False`." : 'New posts carry kibitzes only with `/observe kibitz:True`.'} Posts live now keep what they had.`;
  }
}

function problem(error: SettingsError): string {
  switch (error.kind) {
    case 'unknown-theme':
      return `There is no theme "${error.theme}": choose one of ${error.themes.join(', ')}.`;
    case 'not-saved':
      return 'Kibitz could not save the setting in its database; nothing changed. Its operator has to check the database (see the log).';
  }
}
