// Test command that answers only once the bot's answer clock has moved on: a handler that takes
// that long (by the clock the test moves) before its answer.
import { SlashCommandBuilder } from 'discord.js';
import type { ChatInputCommandInteraction } from 'discord.js';
import type { BotContext } from '../../../src/discord/context.js';

export const data = new SlashCommandBuilder()
  .setName('late')
  .setDescription('Answers after a while')
  .addIntegerOption((o) =>
    o.setName('after').setDescription("Milliseconds, by the bot's answer clock").setRequired(true),
  )
  .addBooleanOption((o) => o.setName('deferred').setDescription('Defer at once, then follow up'));

export async function execute(interaction: ChatInputCommandInteraction, ctx: BotContext): Promise<void> {
  const deferred = interaction.options.getBoolean('deferred') ?? false;
  if (deferred) await interaction.deferReply();
  const after = interaction.options.getInteger('after', true);
  await new Promise<void>((resolve) => ctx.answerClock.after(after, resolve));
  if (deferred) await interaction.followUp('late');
  else await interaction.reply('late');
}
