// /relay chesslive name:<source> [flip] [thread]: relays a ChessLive! move file the operator
// configured (KIBITZ_CHESSLIVE_SOURCES) here, live, exactly like a FICS game: one message kept
// current as the file grows, the result and the PGN and GIF at the end.
import { InteractionContextType, MessageFlags, SlashCommandBuilder } from 'discord.js';
import type { AutocompleteInteraction, ChatInputCommandInteraction } from 'discord.js';
import type { BotContext } from '../src/discord/context.js';
import { chessLiveSource, relayChessLive, sourceName, type RelayError } from '../src/actions/relay.js';
import { answer, cannotPostHere } from '../src/discord/replies.js';

export const data = new SlashCommandBuilder()
  .setName('relay')
  .setDescription('Relay a game from another source here, live')
  .setContexts(InteractionContextType.Guild)
  .addSubcommand((s) =>
    s
      .setName('chesslive')
      .setDescription('A ChessLive! move file set up by the bot operator')
      .addStringOption((o) =>
        o
          .setName('name')
          .setDescription('Source name')
          .setRequired(true)
          .setAutocomplete(true)
          .setMaxLength(32),
      )
      .addBooleanOption((o) => o.setName('flip').setDescription('Black at the bottom'))
      .addBooleanOption((o) => o.setName('thread').setDescription('Post in a new thread for this game')),
  );

export const help =
  'Relays a ChessLive! move file (a broadcast of an over-the-board game) here and keeps the board current as moves come in. The operator of the bot names the sources; type to see them.';

export async function execute(interaction: ChatInputCommandInteraction, ctx: BotContext): Promise<void> {
  const name = sourceName(interaction.options.getString('name', true));
  const flip = interaction.options.getBoolean('flip') ?? false;
  const thread = interaction.options.getBoolean('thread') ?? false;
  // An unknown source is said before the channel's permissions are looked at.
  const source = chessLiveSource(name, ctx);
  if (!source.ok) {
    await answer(interaction, relayErrorText(source.error, name));
    return;
  }
  const blocked = cannotPostHere(interaction, thread);
  if (blocked !== null) {
    await answer(interaction, blocked);
    return;
  }
  // Reading the source may take a moment (a URL): answer Discord within its 3 seconds first.
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const relayed = await relayChessLive(
    {
      name,
      guildId: interaction.guildId!,
      channelId: interaction.channelId,
      requestedBy: interaction.user.id,
      flip,
      thread,
    },
    ctx,
  );
  await answer(
    interaction,
    relayed.ok
      ? `${relayed.value.white} vs ${relayed.value.black} (ChessLive! "${name}") is live${thread ? ' in its thread' : ' here'}: the board updates as moves arrive.`
      : relayErrorText(relayed.error, name),
  );
}

function relayErrorText(error: RelayError, name: string): string {
  switch (error.kind) {
    case 'unknown-source':
      return error.names.length === 0
        ? 'This bot has no ChessLive! sources: its operator sets them up (KIBITZ_CHESSLIVE_SOURCES).'
        : `There is no ChessLive! source "${name.slice(0, 32)}". Sources: ${error.names.join(', ')}.`;
    case 'finished':
      return `The ChessLive! source "${name}" holds a finished game (${error.white} vs ${error.black}, ${error.result}): nothing left to relay live.`;
    case 'unreadable':
    case 'refused':
      return error.message;
  }
}

/** Suggests the configured source names. */
export async function autocomplete(interaction: AutocompleteInteraction, ctx: BotContext): Promise<void> {
  const typed = interaction.options.getFocused().toLowerCase();
  const names = ctx.chesslive.names().filter((n) => n.startsWith(typed));
  await interaction.respond(names.slice(0, 25).map((n) => ({ name: n, value: n })));
}
