// Test command: answers with its options, a button and a select menu routed by custom-id prefix.
import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  MessageFlags,
  SlashCommandBuilder,
  StringSelectMenuBuilder,
} from 'discord.js';
import type {
  AnySelectMenuInteraction,
  AutocompleteInteraction,
  ButtonInteraction,
  ChatInputCommandInteraction,
} from 'discord.js';
import { customId } from '../../../src/discord/custom-id.js';

export const data = new SlashCommandBuilder()
  .setName('echo')
  .setDescription('Says it back')
  .addStringOption((o) =>
    o.setName('text').setDescription('What to say').setRequired(true).setAutocomplete(true),
  )
  .addIntegerOption((o) => o.setName('times').setDescription('How often'));

export async function execute(interaction: ChatInputCommandInteraction): Promise<void> {
  const text = interaction.options.getString('text', true);
  const times = interaction.options.getInteger('times') ?? 1;
  await interaction.reply({
    content: Array.from({ length: times }, () => text).join(' '),
    components: [
      new ActionRowBuilder<ButtonBuilder>().addComponents(
        new ButtonBuilder()
          .setCustomId(customId('again', text))
          .setLabel('Again')
          .setStyle(ButtonStyle.Primary),
        new ButtonBuilder().setCustomId(customId('gone', 1)).setLabel('Gone').setStyle(ButtonStyle.Secondary),
      ),
      new ActionRowBuilder<StringSelectMenuBuilder>().addComponents(
        new StringSelectMenuBuilder()
          .setCustomId(customId('pick', text))
          .addOptions({ label: 'One', value: 'one' }, { label: 'Two', value: 'two' }),
      ),
    ],
  });
}

export async function autocomplete(interaction: AutocompleteInteraction): Promise<void> {
  const typed = interaction.options.getFocused();
  await interaction.respond([`${typed}!`, `${typed}?`].map((s) => ({ name: s, value: s })));
}

export const buttons = {
  again: async (interaction: ButtonInteraction, args: string) => {
    await interaction.update({ content: `again: ${args}` });
  },
};

export const selectMenus = {
  pick: async (interaction: AnySelectMenuInteraction, args: string) => {
    await interaction.reply({
      content: `picked ${interaction.values.join(',')} for ${args}`,
      flags: MessageFlags.Ephemeral,
    });
  },
};
