// /follow player:<handle>: every game that player starts from now on is posted in this channel.
import { InteractionContextType, MessageFlags, PermissionFlagsBits, SlashCommandBuilder } from 'discord.js';
import type { ChatInputCommandInteraction } from 'discord.js';
import type { BotContext } from '../src/discord/context.js';
import {
  answer,
  cannotPostHere,
  ficsProblem,
  ficsUnavailable,
  managedHandle,
} from '../src/discord/replies.js';

export const data = new SlashCommandBuilder()
  .setName('follow')
  .setDescription('Post every game of a FICS player in this channel, live (Manage Server)')
  .setContexts(InteractionContextType.Guild)
  .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
  .addStringOption((o) =>
    o.setName('player').setDescription('FICS handle').setRequired(true).setAutocomplete(true),
  );

/** Suggests players of the server's current games, as /observe player: does. */
export { autocomplete } from './observe.js';

export async function execute(interaction: ChatInputCommandInteraction, ctx: BotContext): Promise<void> {
  const handle = await managedHandle(interaction, 'Following players');
  if (handle === null) return;
  const blocked = cannotPostHere(interaction, false);
  if (blocked !== null) {
    await answer(interaction, blocked);
    return;
  }
  const added = await ctx.storage.follows.add({
    guildId: interaction.guildId!,
    channelId: interaction.channelId,
    handle,
    createdBy: interaction.user.id,
  });
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const unavailable = await ficsUnavailable(ctx);
  if (unavailable !== null) {
    // The pool keeps the follow and acts on it once a connection is back.
    ctx.fics
      .follow(handle)
      .catch((error: unknown) => ctx.logger.warn({ err: error, handle }, 'FICS follow failed'));
    await answer(interaction, `Following ${handle} here once FICS answers again. ${unavailable}`);
    return;
  }
  try {
    // A game in progress is observed now, and posted here like every later one.
    const { game, online } = await ctx.fics.followPlayer(handle, interaction.guildId!);
    const now =
      game !== null
        ? ` They are playing game ${game} now.`
        : online
          ? ''
          : ` ${handle} is not logged in to FICS now: their next game will be posted here.`;
    await answer(
      interaction,
      `${added.added ? 'Following' : 'Already following'} ${handle}: their games are posted here live.${now}`,
    );
  } catch (error) {
    await answer(interaction, `Following ${handle} here, but FICS said: ${ficsProblem(error)}`);
  }
}
