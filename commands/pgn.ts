// /pgn game:<number> [format]: the moves of an observed or recently finished game as a file.
import { AttachmentBuilder, MessageFlags, SlashCommandBuilder } from 'discord.js';
import type { AutocompleteInteraction, ChatInputCommandInteraction } from 'discord.js';
import { makeChessLive } from '../src/chesslive/index.js';
import type { BotContext } from '../src/discord/context.js';
import { answer, gameOption } from '../src/discord/replies.js';
import { MAX_CHOICES, suggestGames } from '../src/discord/suggest.js';
import { makeSnapshotPgn, parsePgn } from '../src/game/pgn.js';

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

export async function execute(interaction: ChatInputCommandInteraction, ctx: BotContext): Promise<void> {
  const game = interaction.options.getInteger('game', true);
  const format = interaction.options.getString('format') ?? 'pgn';
  const live = ctx.relay.snapshot(game);
  const [finished] = await ctx.storage.finishedGames.recent({ game: game, limit: 1 });
  let text: string;
  if (live !== undefined && (!live.ended || finished === undefined)) {
    if (format === 'pgn') text = makeSnapshotPgn(live);
    else {
      const written = makeChessLive(live);
      if (!written.ok) {
        await answer(interaction, `Game ${game} cannot be written as a ChessLive! file: ${written.error}`);
        return;
      }
      text = written.value;
    }
  } else if (finished !== undefined) {
    if (format === 'pgn') text = finished.pgn;
    else {
      const parsed = parsePgn(finished.pgn);
      const written = parsed.ok && parsed.value[0] ? makeChessLive(parsed.value[0]) : null;
      if (written === null || !written.ok) {
        await answer(interaction, `Game ${game} cannot be written as a ChessLive! file.`);
        return;
      }
      text = written.value;
    }
  } else {
    await answer(
      interaction,
      `Kibitz has no game ${game}: it keeps the games it observes and those that ended recently. Observe it first with /observe.`,
    );
    return;
  }
  const name = `game-${game}.${format === 'pgn' ? 'pgn' : 'clv'}`;
  await interaction.reply({
    files: [new AttachmentBuilder(Buffer.from(text), { name })],
    flags: MessageFlags.Ephemeral,
  });
}

/** Suggests the games live in this server, then the games that ended most recently. */
export async function autocomplete(interaction: AutocompleteInteraction, ctx: BotContext): Promise<void> {
  const live = await ctx.storage.livePosts.listLiveInGuild(interaction.guildId ?? '');
  const finished = await ctx.storage.finishedGames.recent({ limit: MAX_CHOICES });
  await suggestGames(interaction, [...live, ...finished]);
}
