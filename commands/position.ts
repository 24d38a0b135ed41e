// /position fen:<FEN> | style12:<line> [flip]: draws one position here, with its FEN as text. The
// board is drawn by the bot's renderer (worker threads), like every other board.
import { AttachmentBuilder, ButtonStyle, ComponentType, SlashCommandBuilder } from 'discord.js';
import type { ChatInputCommandInteraction } from 'discord.js';
import type { BotContext } from '../src/discord/context.js';
import { describeBoard } from '../render/index.js';
import { makeLichessAnalysisUrl } from '../src/game/lichess.js';
import { fenScene, style12Scene } from '../src/game/scene-input.js';
import { answer, serverSettings } from '../src/discord/replies.js';

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

export async function execute(interaction: ChatInputCommandInteraction, ctx: BotContext): Promise<void> {
  const fen = interaction.options.getString('fen');
  const style12 = interaction.options.getString('style12');
  const flip = interaction.options.getBoolean('flip') ?? false;
  if ((fen === null) === (style12 === null)) {
    await answer(interaction, 'Give either `fen:` (a FEN) or `style12:` (a FICS `<12>` line), not both.');
    return;
  }
  const read = fen !== null ? fenScene(fen) : style12Scene(style12!);
  if (!read.ok) {
    const hint = fen !== null ? FEN_FORMAT : 'Paste the whole line as FICS sent it, from `<12>` to the end.';
    await answer(interaction, `I cannot draw that: ${shown(read.error)}. ${hint}`);
    return;
  }
  // In a server, in its board colours (/settings theme).
  const { theme } = await serverSettings(ctx, interaction.guildId);
  const scene = {
    ...read.value,
    ...(flip ? { orientation: 'black' as const } : {}),
    ...(theme === null ? {} : { theme }),
  };
  const png = await ctx.renderer.png(scene);
  if (!png.ok) {
    await answer(interaction, `I cannot draw that: ${shown(png.error)}.`);
    return;
  }
  // A Style 12 line's board has no pockets here: it is analysed as chess.
  const analysis = makeLichessAnalysisUrl(scene.rules === 'crazyhouse' ? 'crazyhouse' : 'chess', scene.fen);
  await interaction.reply({
    content: `\`${scene.fen}\``,
    files: [new AttachmentBuilder(png.value, { name: 'position.png', description: describeBoard(scene) })],
    // A link button (Discord takes URLs of up to 512 characters; a FEN of 120 stays far under).
    ...(analysis === null
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
                  url: analysis,
                },
              ],
            },
          ],
        }),
    allowedMentions: { parse: [] },
  });
}

/** User text comes back inside the error; keep it short and free of Markdown code breaks. */
function shown(error: string): string {
  return error.replace(/`/g, "'").slice(0, 600);
}
