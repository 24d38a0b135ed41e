// /games [type] [rated] [player]: the server's current games, highest-rated player first, with a menu to
// observe one here.
import {
  ActionRowBuilder,
  EmbedBuilder,
  InteractionContextType,
  MessageFlags,
  SlashCommandBuilder,
  StringSelectMenuBuilder,
} from 'discord.js';
import type { AnySelectMenuInteraction, ChatInputCommandInteraction } from 'discord.js';
import { cleanText, truncate } from '../src/text.js';
import type { BotContext } from '../src/discord/context.js';
import { customId } from '../src/discord/custom-id.js';
import { answer, cannotPostHere, ficsProblem, ficsUnavailable, postGame } from '../src/discord/replies.js';
import { GAMES_LIST_TYPES, type GamesListRow, type GamesListType } from '../src/fics/games-list.js';
import { parseHandle } from '../src/fics/validate.js';
import type { Handle } from '../src/protocol/handle.js';

const SHOWN = 20;
const OBSERVE_MENU = 'games-observe';

export const data = new SlashCommandBuilder()
  .setName('games')
  .setDescription('Games being played on FICS now, strongest first')
  .setContexts(InteractionContextType.Guild)
  .addStringOption((o) =>
    o
      .setName('type')
      .setDescription('Only this kind of game')
      .addChoices(...GAMES_LIST_TYPES.map((t) => ({ name: t, value: t }))),
  )
  .addBooleanOption((o) => o.setName('rated').setDescription('Only rated (true) or unrated (false) games'))
  .addStringOption((o) =>
    o.setName('player').setDescription('Only games of this FICS handle').setAutocomplete(true),
  );

/** Suggests players of the server's current games, as /observe player: does. */
export { autocomplete } from './observe.js';

/** Higher of the two ratings; unrated players count as 0. */
function topRating(row: GamesListRow): number {
  return Math.max(Number(row.whiteRating) || 0, Number(row.blackRating) || 0);
}

export async function execute(interaction: ChatInputCommandInteraction, ctx: BotContext): Promise<void> {
  const type = interaction.options.getString('type') as GamesListType | null;
  const rated = interaction.options.getBoolean('rated');
  const text = interaction.options.getString('player');
  let player: Handle | null = null;
  if (text !== null) {
    const parsed = parseHandle(text);
    if (!parsed.ok) {
      await answer(interaction, parsed.error.message);
      return;
    }
    player = parsed.value;
  }
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const unavailable = await ficsUnavailable(ctx);
  if (unavailable !== null) {
    await answer(interaction, unavailable);
    return;
  }
  let rows: GamesListRow[];
  try {
    rows = await ctx.fics.listGames({
      ...(type === null ? {} : { types: [type] }),
      ...(rated === null ? {} : { rated }),
      ...(player === null ? {} : { player }),
    });
  } catch (error) {
    await answer(interaction, ficsProblem(error));
    return;
  }
  if (rows.length === 0) {
    await answer(interaction, 'No game on FICS matches that right now.');
    return;
  }
  const shown = [...rows].sort((a, b) => topRating(b) - topRating(a)).slice(0, SHOWN);
  const lines = shown.map(
    (r) =>
      `**${r.game}** ${r.white} (${r.whiteRating}) vs ${r.black} (${r.blackRating}) · ${r.rated ? 'rated' : 'unrated'} ${r.type ?? r.typeCode} ${r.initialMinutes} ${r.incrementSec}`,
  );
  const menu = new StringSelectMenuBuilder()
    .setCustomId(customId(OBSERVE_MENU))
    .setPlaceholder('Observe one of these here')
    .addOptions(
      shown.map((r) => ({
        label: truncate(cleanText(`${r.game}: ${r.white} vs ${r.black}`), 100),
        description: truncate(
          cleanText(
            `${r.whiteRating} vs ${r.blackRating}, ${r.type ?? r.typeCode} ${r.initialMinutes} ${r.incrementSec}`,
          ),
          100,
        ),
        value: String(r.game),
      })),
    );
  await interaction.editReply({
    embeds: [
      new EmbedBuilder()
        .setTitle(`FICS games (${shown.length} of ${rows.length})`)
        .setDescription(truncate(lines.map(cleanText).join('\n'), 4_096)),
    ],
    components: [new ActionRowBuilder<StringSelectMenuBuilder>().addComponents(menu)],
  });
}

export const selectMenus = {
  [OBSERVE_MENU]: async (interaction: AnySelectMenuInteraction, _args: string, ctx: BotContext) => {
    const game = Number(interaction.values[0]);
    if (!Number.isSafeInteger(game) || game < 1) {
      await answer(interaction, 'That is not a game number.');
      return;
    }
    const blocked = cannotPostHere(interaction, false);
    if (blocked !== null) {
      await answer(interaction, blocked);
      return;
    }
    await interaction.deferReply({ flags: MessageFlags.Ephemeral });
    await postGame(interaction, ctx, game, { flip: false, thread: false });
  },
};
