// /position fen:<FEN> | style12:<line> [flip]: draws one position here, with its FEN as text. The
// board is drawn by the bot's renderer (worker threads), like every other board.
import { AttachmentBuilder, ButtonStyle, ComponentType, SlashCommandBuilder } from 'discord.js';
import type { ChatInputCommandInteraction } from 'discord.js';
import type { BotContext } from '../src/discord/context.js';
import {
  drawPosition,
  readPosition,
  type PositionError,
  type PositionInput,
} from '../src/actions/position.js';
import { serverSettings } from '../src/actions/settings.js';
import type { ArgsResult, CommandOptions } from '../src/discord/args.js';
import { answer } from '../src/discord/replies.js';
import { err, ok } from '../src/result.js';

// A FEN is under 100 characters (crazyhouse pockets included); a Style 12 line about 200.
const MAX_FEN = 120;
const MAX_STYLE12 = 400;

export const data = new SlashCommandBuilder()
  .setName('position')
  .setDescription('Draw a chess position from a FEN or a FICS Style 12 line')
  .addStringOption((o) =>
    o.setName('fen').setDescription('A FEN, e.g. from an analysis board').setMaxLength(MAX_FEN),
  )
  .addStringOption((o) =>
    o.setName('style12').setDescription('A FICS board line starting with <12>').setMaxLength(MAX_STYLE12),
  )
  .addBooleanOption((o) => o.setName('flip').setDescription('Black at the bottom'));

export const help =
  'Draws a position as Kibitz draws live games: give a FEN, or a Style 12 line copied from a FICS client.';

const FEN_FORMAT =
  'A FEN has six fields: the pieces from rank 8 to rank 1 (`rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR`), the side to move (`w` or `b`), castling rights (`KQkq` or `-`), the en passant square (or `-`), the halfmove clock and the move number.';

function parseArgs(options: CommandOptions): ArgsResult<PositionInput> {
  const fen = options.getString('fen');
  const style12 = options.getString('style12');
  const flip = options.getBoolean('flip') ?? false;
  if ((fen === null) === (style12 === null))
    return err('Give either `fen:` (a FEN) or `style12:` (a FICS `<12>` line), not both.');
  return ok(fen !== null ? { fen, flip } : { style12: style12!, flip });
}

export async function execute(interaction: ChatInputCommandInteraction, ctx: BotContext): Promise<void> {
  const args = parseArgs(interaction.options);
  if (!args.ok) {
    await answer(interaction, args.error);
    return;
  }
  const read = readPosition(args.value);
  if (!read.ok) {
    await answer(interaction, positionErrorText(read.error));
    return;
  }
  // Reading the server's theme and drawing may take longer than Discord's 3 seconds (a render
  // thread starting, a slow database): the public answer is deferred first.
  await interaction.deferReply();
  // In a server, in its board colours (/settings theme).
  const { theme } = await serverSettings(ctx, interaction.guildId);
  const drawn = await drawPosition({ ...read.value, ...(theme === null ? {} : { theme }) }, ctx);
  if (!drawn.ok) {
    await answer(interaction, positionErrorText(drawn.error));
    return;
  }
  const { png, fen, description, analysisUrl } = drawn.value;
  await interaction.editReply({
    content: `\`${fen}\``,
    files: [new AttachmentBuilder(png, { name: 'position.png', description })],
    // A link button (Discord takes URLs of up to 512 characters; a FEN of 120 stays far under).
    ...(analysisUrl === null
      ? {}
      : {
          components: [
            {
              type: ComponentType.ActionRow,
              components: [
                {
                  type: ComponentType.Button,
                  style: ButtonStyle.Link,
                  label: 'Analyse on lichess',
                  url: analysisUrl,
                },
              ],
            },
          ],
        }),
    allowedMentions: { parse: [] },
  });
}

function positionErrorText(error: PositionError): string {
  if (error.kind === 'not-drawn') return `I cannot draw that: ${shown(error.reason)}.`;
  const hint =
    error.input === 'fen' ? FEN_FORMAT : 'Paste the whole line as FICS sent it, from `<12>` to the end.';
  return `I cannot draw that: ${shown(error.reason)}. ${hint}`;
}

/** User text comes back inside the error; keep it short and free of Markdown code breaks. */
function shown(error: string): string {
  return error.replace(/`/g, "'").slice(0, 600);
}
