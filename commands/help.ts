// /help: every command and what it does, built from the loaded commands so it never goes stale.
import { ApplicationCommandOptionType, EmbedBuilder, MessageFlags, SlashCommandBuilder } from 'discord.js';
import type { APIApplicationCommandOption, APIEmbedField, ChatInputCommandInteraction } from 'discord.js';
import type { CommandModule, CommandRegistry } from '../src/discord/loader.js';
import type { BotContext } from '../src/discord/context.js';

export const data = new SlashCommandBuilder()
  .setName('help')
  .setDescription('What Kibitz can do: every command, in a message only you can see');

export const help =
  'Kibitz shows live games from the Free Internet Chess Server (freechess.org) here as board images that update as the players move.';

export async function execute(interaction: ChatInputCommandInteraction, ctx: BotContext): Promise<void> {
  await interaction.reply({ embeds: [helpEmbed(ctx.commands)], flags: MessageFlags.Ephemeral });
}

// Discord's embed limits.
const MAX_FIELDS = 25;
const MAX_FIELD_VALUE = 1024;

/** Commands in the order people reach for them; any other command follows, by name. */
const USE_ORDER = [
  'observe',
  'games',
  'follow',
  'position',
  'pgn',
  'clip',
  'unobserve',
  'unfollow',
  'club',
  'tv',
  'settings',
  'relay',
  'help',
];

function useRank(name: string): number {
  const rank = USE_ORDER.indexOf(name);
  return rank === -1 ? USE_ORDER.length : rank;
}

export function helpEmbed(registry: CommandRegistry): EmbedBuilder {
  const commands = [...registry.commands.values()].sort(
    (a, b) => useRank(a.data.name) - useRank(b.data.name) || a.data.name.localeCompare(b.data.name),
  );
  const fields = commands.flatMap(commandFields).slice(0, MAX_FIELDS);
  return new EmbedBuilder().setTitle('Kibitz commands').setDescription(help).addFields(fields);
}

function commandFields(command: CommandModule): APIEmbedField[] {
  const json = command.data.toJSON();
  const options = json.options ?? [];
  // Commands Discord shows only to members with a permission (the server's admins by default).
  const admin = json.default_member_permissions != null && json.default_member_permissions !== '0';
  const field = (name: string, description: string, list: readonly APIApplicationCommandOption[]) =>
    optionsField(admin ? `${name} (admins)` : name, description, list);
  const subcommands = options.filter(
    (o) =>
      o.type === ApplicationCommandOptionType.Subcommand ||
      o.type === ApplicationCommandOptionType.SubcommandGroup,
  );
  if (subcommands.length === 0) {
    return [field(`/${json.name}`, command.help ?? json.description, options)];
  }
  return subcommands.flatMap((sub) =>
    sub.type === ApplicationCommandOptionType.SubcommandGroup
      ? (sub.options ?? []).map((leaf) =>
          field(`/${json.name} ${sub.name} ${leaf.name}`, leaf.description, leaf.options ?? []),
        )
      : [field(`/${json.name} ${sub.name}`, sub.description, sub.options ?? [])],
  );
}

function optionsField(
  name: string,
  description: string,
  options: readonly APIApplicationCommandOption[],
): APIEmbedField {
  const lines = options.map((o) => {
    const required = 'required' in o && o.required === true;
    return `\`${o.name}\`${required ? '' : ' (optional)'}: ${o.description}`;
  });
  const value = [description, ...lines].join('\n');
  return { name, value: value.length > MAX_FIELD_VALUE ? `${value.slice(0, MAX_FIELD_VALUE - 1)}…` : value };
}
