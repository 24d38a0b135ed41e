// /unobserve game:<number>: stops the live post of that game in this channel.
import { InteractionContextType, SlashCommandBuilder } from 'discord.js';
import type { AutocompleteInteraction, ChatInputCommandInteraction } from 'discord.js';
import type { BotContext } from '../src/discord/context.js';
import { liveHere } from '../src/actions/unobserve.js';
import { gameArg, required } from '../src/discord/args.js';
import { answer, gameOption } from '../src/discord/replies.js';
import { stopPost } from './observe.js';
import { suggestGames } from '../src/discord/suggest.js';

export const data = new SlashCommandBuilder()
  .setName('unobserve')
  .setDescription('Stop updating a live game posted in this channel')
  .setContexts(InteractionContextType.Guild)
  .addIntegerOption((o) => gameOption(o).setRequired(true).setAutocomplete(true));

export const help =
  'Stops a live game in this channel (the message stays). The member who posted it, or anyone with Manage Messages, can stop it.';

export async function execute(interaction: ChatInputCommandInteraction, ctx: BotContext): Promise<void> {
  const game = required(gameArg(interaction.options), 'game');
  if (!game.ok) {
    await answer(interaction, game.error);
    return;
  }
  const post = await liveHere(game.value, interaction.channelId, ctx);
  if (post === null) {
    await answer(interaction, `Game ${game.value} is not live in this channel.`);
    return;
  }
  await stopPost(interaction, ctx, post);
}

/** Suggests the games live in this channel. */
export async function autocomplete(interaction: AutocompleteInteraction, ctx: BotContext): Promise<void> {
  const live = await ctx.storage.livePosts.listLiveInGuild(interaction.guildId ?? '');
  await suggestGames(
    interaction,
    live.filter((p) => p.channelId === interaction.channelId || p.threadId === interaction.channelId),
  );
}
