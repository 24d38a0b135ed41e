// /unfollow player:<handle>: stops posting that player's new games in this channel.
import { InteractionContextType, PermissionFlagsBits, SlashCommandBuilder } from 'discord.js';
import type { AutocompleteInteraction, ChatInputCommandInteraction } from 'discord.js';
import type { BotContext } from '../src/discord/context.js';
import { unfollow } from '../src/actions/follow.js';
import { answer, deferAnswer, managedHandle } from '../src/discord/replies.js';
import { suggestHandles } from '../src/discord/suggest.js';

export const data = new SlashCommandBuilder()
  .setName('unfollow')
  .setDescription("Stop posting a FICS player's games in this channel (Manage Server)")
  .setContexts(InteractionContextType.Guild)
  .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
  .addStringOption((o) =>
    o.setName('player').setDescription('FICS handle').setRequired(true).setAutocomplete(true),
  );

export async function execute(interaction: ChatInputCommandInteraction, ctx: BotContext): Promise<void> {
  const handle = await managedHandle(interaction, 'Unfollowing players');
  if (handle === null) return;
  // Once removed, FICS may stall (30 s): Discord's 3 seconds are answered first.
  const removed = await unfollow({ channelId: interaction.channelId, handle }, ctx, () =>
    deferAnswer(interaction),
  );
  await answer(
    interaction,
    removed.ok
      ? `No longer following ${handle} here. Games already live keep updating.`
      : `${handle} is not followed in this channel.`,
  );
}

/** Suggests the handles followed in this channel. */
export async function autocomplete(interaction: AutocompleteInteraction, ctx: BotContext): Promise<void> {
  const follows = await ctx.storage.follows.listForChannel(interaction.channelId);
  await suggestHandles(
    interaction,
    follows.map((f) => f.handle),
  );
}
