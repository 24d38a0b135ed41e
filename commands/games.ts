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
import { GAMES_LIST_TYPES, listGames, type GamesError, type GamesListType } from '../src/actions/games.js';
import { gameValue, handleArg, type ArgsResult, type CommandOptions } from '../src/discord/args.js';
import { answer, ficsDownText, ficsProblem } from '../src/discord/replies.js';
import type { Handle } from '../src/protocol/handle.js';
import { err, ok } from '../src/result.js';
import { observeHere } from './observe.js';

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

interface GamesArgs {
  readonly type: GamesListType | null;
  readonly rated: boolean | null;
  readonly player: Handle | null;
}

function parseArgs(options: CommandOptions): ArgsResult<GamesArgs> {
  const type = options.getString('type');
  if (type !== null && !(GAMES_LIST_TYPES as readonly string[]).includes(type))
    return err(`\`type:\` is one of ${GAMES_LIST_TYPES.join(', ')}.`);
  const player = handleArg(options, 'player');
  if (!player.ok) return player;
  return ok({ type: type as GamesListType | null, rated: options.getBoolean('rated'), player: player.value });
}

export async function execute(interaction: ChatInputCommandInteraction, ctx: BotContext): Promise<void> {
  const args = parseArgs(interaction.options);
  if (!args.ok) {
    await answer(interaction, args.error);
    return;
  }
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const listed = await listGames(args.value, ctx);
  if (!listed.ok) {
    await answer(interaction, gamesErrorText(listed.error));
    return;
  }
  const { rows: shown, total } = listed.value;
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
        .setTitle(`FICS games (${shown.length} of ${total})`)
        .setDescription(truncate(lines.map(cleanText).join('\n'), 4_096)),
    ],
    components: [new ActionRowBuilder<StringSelectMenuBuilder>().addComponents(menu)],
  });
}

function gamesErrorText(error: GamesError): string {
  switch (error.kind) {
    case 'fics-down':
      return ficsDownText(error);
    case 'fics-failed':
      return ficsProblem(error.error);
    case 'no-games':
      return 'No game on FICS matches that right now.';
  }
}

export const selectMenus = {
  [OBSERVE_MENU]: async (interaction: AnySelectMenuInteraction, _args: string, ctx: BotContext) => {
    // The menu's values are the numbers this bot listed; checked again, as any input.
    const game = gameValue(interaction.values[0] ?? '');
    if (game === null) {
      await answer(interaction, 'That is not a game number.');
      return;
    }
    await observeHere(interaction, ctx, {
      target: { game },
      flip: false,
      thread: false,
      kibitz: false,
      engine: null,
    });
  },
};
