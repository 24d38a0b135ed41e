// /unfollow player:<handle>: stops posting that player's new games in this channel.
import { InteractionContextType, MessageFlags, PermissionFlagsBits, SlashCommandBuilder } from 'discord.js';
import type { AutocompleteInteraction, ChatInputCommandInteraction } from 'discord.js';
import type { BotContext } from '../src/discord/context.js';
import { answer, managedHandle } from '../src/discord/replies.js';
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
  if (!(await ctx.storage.follows.remove(interaction.channelId, handle))) {
    await answer(interaction, `${handle} is not followed in this channel.`);
    return;
  }
  // FICS may stall (30 s): Discord's 3 seconds are answered first.
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  // The FICS watch stays while another channel still follows the player, or a club has them.
  if (
    (await ctx.storage.follows.listForHandle(handle)).length === 0 &&
    !(await ctx.storage.clubs.watches(handle))
  )
    await ctx.fics
      .unfollow(handle)
      .catch((error: unknown) => ctx.logger.warn({ err: error, handle }, 'FICS unfollow failed'));
  await answer(interaction, `No longer following ${handle} here. Games already live keep updating.`);
}

/** Suggests the handles followed in this channel. */
export async function autocomplete(interaction: AutocompleteInteraction, ctx: BotContext): Promise<void> {
  const follows = await ctx.storage.follows.listForChannel(interaction.channelId);
  await suggestHandles(
    interaction,
    follows.map((f) => f.handle),
  );
}
