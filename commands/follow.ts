// /follow player:<handle>: every game that player starts from now on is posted in this channel.
import { InteractionContextType, PermissionFlagsBits, SlashCommandBuilder } from 'discord.js';
import type { ChatInputCommandInteraction } from 'discord.js';
import type { BotContext } from '../src/discord/context.js';
import { follow, type FollowNow } from '../src/actions/follow.js';
import {
  answer,
  cannotPostHere,
  deferAnswer,
  ficsDownText,
  ficsProblem,
  managedHandle,
} from '../src/discord/replies.js';
import type { Handle } from '../src/protocol/handle.js';

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
  // Once stored, following may wait for FICS: Discord's 3 seconds are answered first.
  const { added, now } = await follow(
    {
      guildId: interaction.guildId!,
      channelId: interaction.channelId,
      handle,
      createdBy: interaction.user.id,
    },
    ctx,
    () => deferAnswer(interaction),
  );
  await answer(interaction, followedText(handle, added, now));
}

function followedText(handle: Handle, added: boolean, now: FollowNow): string {
  const following = `${added ? 'Following' : 'Already following'} ${handle}: their games are posted here live.`;
  switch (now.kind) {
    case 'fics-down':
      return `Following ${handle} here once FICS answers again. ${ficsDownText(now)}`;
    case 'fics-failed':
      return `Following ${handle} here, but FICS said: ${ficsProblem(now.error)}`;
    case 'playing':
      return `${following} They are playing game ${now.game} now.`;
    case 'online':
      return following;
    case 'offline':
      return `${following} ${handle} is not logged in to FICS now: their next game will be posted here.`;
  }
}
