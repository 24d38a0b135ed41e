// /tv: this server's FICS TV, a channel that always shows the most interesting game in progress
// (src/club/tv.ts). Discord lets a command have subcommands or options, not both: hence
// `/tv start channel:#x [variant] [min_rating]`, `/tv stop`, `/tv show`.
import {
  ChannelType,
  InteractionContextType,
  MessageFlags,
  PermissionFlagsBits,
  SlashCommandBuilder,
} from 'discord.js';
import type { ChatInputCommandInteraction } from 'discord.js';
import { runTv, type TvRequest, type TvResult } from '../src/actions/tv.js';
import { filterText } from '../src/club/tv.js';
import type { BotContext } from '../src/discord/context.js';
import { botPermissionsIn, checkPostingPermissions } from '../src/discord/permissions.js';
import { answer, cannotPostHere } from '../src/discord/replies.js';
import { MAX_TV_RATING, nowShowing, TV_VARIANTS } from '../src/game/tv-score.js';

export const data = new SlashCommandBuilder()
  .setName('tv')
  .setDescription("This server's FICS TV: one channel showing the best game in progress (Manage Server)")
  .setContexts(InteractionContextType.Guild)
  .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
  .addSubcommand((s) =>
    s
      .setName('start')
      .setDescription('Show the best FICS game in progress in a channel, the next one when it ends')
      .addChannelOption((o) =>
        o
          .setName('channel')
          .setDescription('TV channel (this one unless you pick one)')
          .addChannelTypes(ChannelType.GuildText),
      )
      .addStringOption((o) =>
        o
          .setName('variant')
          .setDescription('Only this variant (chess unless you pick one)')
          .addChoices(...TV_VARIANTS.map((v) => ({ name: v, value: v }))),
      )
      .addIntegerOption((o) =>
        o
          .setName('min_rating')
          .setDescription('Both players rated at least this')
          .setMinValue(0)
          .setMaxValue(MAX_TV_RATING),
      ),
  )
  .addSubcommand((s) => s.setName('stop').setDescription('Turn the TV off (its board stops)'))
  .addSubcommand((s) => s.setName('show').setDescription('Where the TV is and what it shows'));

export const help =
  '`/tv start` keeps one live board of the most interesting FICS game in progress in a channel (both players strong, blitz or standard, rated; a variant and a minimum rating if you like) and moves on to the next game when it ends. One TV per server; it counts against the live-game limit like any board. `/tv stop`, `/tv show`. Needs Manage Server.';

export async function execute(interaction: ChatInputCommandInteraction, ctx: BotContext): Promise<void> {
  const guildId = interaction.guildId;
  if (interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild) !== true || guildId === null) {
    await answer(interaction, 'Running the TV needs the Manage Server permission, in a server channel.');
    return;
  }
  const request = parseRequest(interaction, guildId);
  if (typeof request === 'string') {
    await answer(interaction, request);
    return;
  }
  // Turning it on observes a game and posts it: longer than Discord's 3 s for an answer.
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  await answer(interaction, replyText(await runTv(request, { tv: ctx.tv })));
}

/** The request from the options, or why it cannot be (the channel is checked here: it is Discord's). */
function parseRequest(interaction: ChatInputCommandInteraction, guildId: string): TvRequest | string {
  const sub = interaction.options.getSubcommand();
  if (sub === 'stop') return { kind: 'off', guildId };
  if (sub === 'show') return { kind: 'show', guildId };
  const picked = interaction.options.getChannel('channel');
  let channelId = interaction.channelId;
  if (picked !== null && picked.id !== interaction.channelId) {
    const cached = interaction.guild?.channels.cache.get(picked.id);
    const granted = cached === undefined ? null : botPermissionsIn(cached);
    if (granted === null)
      return `I cannot see <#${picked.id}>: give my role access to it, or run /tv start there.`;
    const check = checkPostingPermissions(granted, `<#${picked.id}>`, { thread: false });
    if (!check.ok) return check.error.message;
    channelId = picked.id;
  } else {
    const blocked = cannotPostHere(interaction, false);
    if (blocked !== null) return blocked;
  }
  return {
    kind: 'on',
    guildId,
    channelId,
    variant: interaction.options.getString('variant'),
    minRating: interaction.options.getInteger('min_rating'),
    requestedBy: interaction.user.id,
  };
}

function replyText(result: TvResult): string {
  switch (result.kind) {
    case 'invalid':
      return result.error;
    case 'off':
      return result.wasOn ? 'The TV is off; its board stopped.' : 'This server has no TV.';
    case 'shown':
      if (result.tv === null) return 'This server has no TV. Turn it on with /tv start.';
      return `The TV is in <#${result.tv.channelId}> (${filterText(result.tv)}): ${
        result.post === null
          ? 'it is looking for a game.'
          : `game ${result.post.game}, ${result.post.white} vs ${result.post.black}.`
      }`;
    case 'on': {
      const where = `The TV is on in <#${result.channelId}> (${filterText(result.filter)})`;
      const outcome = result.outcome;
      if (outcome.kind === 'showing') return `${where}. ${nowShowing(outcome.game)}.`;
      if (outcome.why === 'full') return `${where}, but it waits for room: ${outcome.detail}`;
      if (outcome.why === 'unavailable')
        return `${where}, but FICS did not list its games (${outcome.detail}); it tries again in a minute.`;
      return `${where}. No game in progress fits it now; it looks again every minute.`;
    }
  }
}
