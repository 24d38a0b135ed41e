// Test command that fails in every way a handler can.
import { SlashCommandBuilder } from 'discord.js';
import type { AutocompleteInteraction, ChatInputCommandInteraction } from 'discord.js';

export const data = new SlashCommandBuilder()
  .setName('boom')
  .setDescription('Fails on purpose')
  .addStringOption((o) =>
    o
      .setName('when')
      .setDescription('When to fail: "before" replying or once "deferred"')
      .setRequired(true)
      .setAutocomplete(true),
  );

export async function execute(interaction: ChatInputCommandInteraction): Promise<void> {
  if (interaction.options.getString('when', true) === 'deferred') await interaction.deferReply();
  throw new Error('exploded on purpose');
}

export async function autocomplete(_interaction: AutocompleteInteraction): Promise<void> {
  throw new Error('autocomplete exploded on purpose');
}
