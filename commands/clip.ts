// /clip game:<number> [from] [to]: an animated GIF of some moves of a live or finished game, and
// the Clip button of a final post (the game's last moves, for the presser alone). The work is
// src/actions/clip.ts; this file reads the options and words the replies.
import { AttachmentBuilder, MessageFlags, SlashCommandBuilder } from 'discord.js';
import type {
  AutocompleteInteraction,
  ButtonInteraction,
  ChatInputCommandInteraction,
  RepliableInteraction,
} from 'discord.js';
import {
  ClipGate,
  DEFAULT_CLIP_MOVES,
  MAX_CLIP_MOVES,
  planClip,
  renderClip,
  type ClipError,
  type ClipRequest,
  type ClipServices,
} from '../src/actions/clip.js';
import type { BotContext } from '../src/discord/context.js';
import { CLIP_BUTTON } from '../src/discord/live-port.js';
import { gameArg, required } from '../src/discord/args.js';
import { answer, gameOption } from '../src/discord/replies.js';
import { autocomplete as suggestPgnGames } from './pgn.js';
import type { GameId } from '../src/game/game-id.js';

export const data = new SlashCommandBuilder()
  .setName('clip')
  .setDescription('An animated GIF of some moves of a game, at the pace they were played')
  .addIntegerOption((o) => gameOption(o).setRequired(true).setAutocomplete(true))
  .addIntegerOption((o) =>
    o
      .setName('from')
      .setDescription(`First move (default: the last ${DEFAULT_CLIP_MOVES} moves)`)
      .setMinValue(1)
      .setMaxValue(9_999),
  )
  .addIntegerOption((o) =>
    o.setName('to').setDescription('Last move (default: the end)').setMinValue(1).setMaxValue(9_999),
  );

export const help = `An animated GIF of moves \`from\` to \`to\` of a game Kibitz is relaying or that ended recently (the last ${DEFAULT_CLIP_MOVES} moves by default), each position shown for a quarter of the time its move took (0.3 to 3 s), with names and clocks. At most ${MAX_CLIP_MOVES} moves. The Clip button on a final post sends you its last ${DEFAULT_CLIP_MOVES} moves.`;

/** This process's clips being drawn (src/actions/clip.ts: one per server, a few in all). */
const gate = new ClipGate();

function services(ctx: BotContext): ClipServices {
  return {
    snapshot: (game) => ctx.relay.snapshot(game),
    finished: async (which) =>
      'gameKey' in which
        ? ctx.storage.finishedGames.get(which.gameKey)
        : ((await ctx.storage.finishedGames.recent({ game: which.game, limit: 1 }))[0] ?? null),
  };
}

function problem(error: ClipError, game: GameId): string {
  switch (error.kind) {
    case 'unknown-game':
      return `Kibitz has no game ${game}: it keeps the games it observes and those that ended recently. Observe it first with /observe.`;
    case 'range':
      return `No clip of game ${game}: ${error.message}.`;
    case 'unreadable':
      return `Game ${game} cannot be replayed: ${error.message}.`;
    case 'render':
      return `The clip of game ${game} could not be drawn: ${error.message}.`;
  }
}

/**
 * Checks the request and answers any problem to the asker alone, then draws the clip. `shared`:
 * the clip is posted for the channel (the command), else for the asker alone (the button).
 */
async function sendClip(
  interaction: RepliableInteraction,
  ctx: BotContext,
  request: ClipRequest,
  shared: boolean,
): Promise<void> {
  const plan = await planClip(request, services(ctx));
  if (!plan.ok) {
    await answer(interaction, problem(plan.error, request.game));
    return;
  }
  const entered = gate.enter(interaction.guildId ?? `user:${interaction.user.id}`);
  if (!entered.ok) {
    await answer(interaction, `No clip of game ${request.game} yet: ${entered.error}.`);
    return;
  }
  let clip;
  try {
    // Drawing takes longer than Discord's three seconds for a first answer.
    await interaction.deferReply(shared ? {} : { flags: MessageFlags.Ephemeral });
    clip = await renderClip(plan.value, ctx.renderer);
  } finally {
    entered.value();
  }
  if (!clip.ok) {
    await interaction.editReply({ content: problem(clip.error, request.game) });
    return;
  }
  const { game, white, black, fromMove, toMove, frames, live } = clip.value;
  await interaction.editReply({
    content: `Game ${game}, ${white} vs ${black}${live ? ' (live)' : ''}: moves ${fromMove} to ${toMove}, ${frames} positions at the pace they were played. A clip shows at most ${MAX_CLIP_MOVES} moves.`,
    files: [
      new AttachmentBuilder(clip.value.gif, {
        name: clip.value.fileName,
        description: clip.value.description,
      }),
    ],
    allowedMentions: { parse: [] },
  });
}

export async function execute(interaction: ChatInputCommandInteraction, ctx: BotContext): Promise<void> {
  const game = required(gameArg(interaction.options), 'game');
  if (!game.ok) {
    await answer(interaction, game.error);
    return;
  }
  await sendClip(
    interaction,
    ctx,
    {
      game: game.value,
      from: interaction.options.getInteger('from'),
      to: interaction.options.getInteger('to'),
    },
    true,
  );
}

export const autocomplete: (interaction: AutocompleteInteraction, ctx: BotContext) => Promise<void> =
  suggestPgnGames;

export const buttons = {
  /** `clip:<live post id>` on a final post: that game's last moves. */
  [CLIP_BUTTON]: async (interaction: ButtonInteraction, args: string, ctx: BotContext) => {
    const id = Number(args);
    const post = Number.isSafeInteger(id) ? await ctx.storage.livePosts.get(id) : null;
    if (post === null) {
      await answer(interaction, 'Kibitz no longer has this game; try /clip with its number.');
      return;
    }
    await sendClip(interaction, ctx, { game: post.game, gameKey: post.gameKey }, false);
  },
};
