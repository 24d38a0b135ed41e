// /pgn game:<number> [format]: the moves of an observed or recently finished game as a file.
import { AttachmentBuilder, MessageFlags, SlashCommandBuilder } from 'discord.js';
import type { AutocompleteInteraction, ChatInputCommandInteraction } from 'discord.js';
import { GAME_FILE_FORMATS, gameFile, type GameFileFormat, type PgnError } from '../src/actions/pgn.js';
import type { GameNumber } from '../src/protocol/game-number.js';
import { choiceArg, gameArg, required, type ArgsResult, type CommandOptions } from '../src/discord/args.js';
import type { BotContext } from '../src/discord/context.js';
import { answer, gameOption } from '../src/discord/replies.js';
import { MAX_CHOICES, suggestGames } from '../src/discord/suggest.js';
import { ok } from '../src/result.js';

export const data = new SlashCommandBuilder()
  .setName('pgn')
  .setDescription('The moves of a game Kibitz observed, as a PGN (or ChessLive!) file')
  .addIntegerOption((o) => gameOption(o).setRequired(true).setAutocomplete(true))
  .addStringOption((o) =>
    o
      .setName('format')
      .setDescription('File format (PGN by default)')
      .addChoices({ name: 'PGN', value: 'pgn' }, { name: 'ChessLive! move file', value: 'chesslive' }),
  );

interface PgnArgs {
  readonly game: GameNumber;
  readonly format: GameFileFormat;
}

function parseArgs(options: CommandOptions): ArgsResult<PgnArgs> {
  const game = required(gameArg(options), 'game');
  if (!game.ok) return game;
  const format = choiceArg(options, 'format', GAME_FILE_FORMATS, 'pgn');
  return format.ok ? ok({ game: game.value, format: format.value }) : format;
}

export async function execute(interaction: ChatInputCommandInteraction, ctx: BotContext): Promise<void> {
  const args = parseArgs(interaction.options);
  if (!args.ok) {
    await answer(interaction, args.error);
    return;
  }
  const file = await gameFile(args.value, ctx);
  if (!file.ok) {
    await answer(interaction, describe(file.error));
    return;
  }
  await interaction.reply({
    files: [new AttachmentBuilder(Buffer.from(file.value.text), { name: file.value.name })],
    flags: MessageFlags.Ephemeral,
  });
}

function describe(error: PgnError): string {
  switch (error.kind) {
    case 'unknown-game':
      return `Kibitz has no game ${error.game}: it keeps the games it observes and those that ended recently. Observe it first with /observe.`;
    case 'no-chesslive':
      return error.reason === undefined
        ? `Game ${error.game} cannot be written as a ChessLive! file.`
        : `Game ${error.game} cannot be written as a ChessLive! file: ${error.reason}`;
  }
}

/** Suggests the games live in this server, then the games that ended most recently. */
export async function autocomplete(interaction: AutocompleteInteraction, ctx: BotContext): Promise<void> {
  const live = await ctx.storage.livePosts.listLiveInGuild(interaction.guildId ?? '');
  const finished = await ctx.storage.finishedGames.recent({ limit: MAX_CHOICES });
  await suggestGames(interaction, [...live, ...finished]);
}
