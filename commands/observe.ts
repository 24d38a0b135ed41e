// /observe game:<number> | player:<handle> [flip] [thread] [eval] [arrow] [kibitz]: posts a live board here,
// plus the buttons every live post carries (Flip, PGN, Stop; Engine and Best move with an engine).
import { AttachmentBuilder, InteractionContextType, MessageFlags, SlashCommandBuilder } from 'discord.js';
import type { AutocompleteInteraction, ButtonInteraction, ChatInputCommandInteraction } from 'discord.js';
import type { BotContext } from '../src/discord/context.js';
import type { LivePost } from '../src/storage/index.js';
import { LIVE_BUTTONS, makeDiscordMessage } from '../src/discord/live-port.js';
import {
  answer,
  cannotPostHere,
  gameOption,
  mayChange,
  postGame,
  serverSettings,
  stopPost,
} from '../src/discord/replies.js';
import { parseHandle } from '../src/fics/validate.js';
import type { Handle } from '../src/protocol/handle.js';
import { makeSnapshotPgn } from '../src/game/pgn.js';
import { ENGINE_NOT_INSTALLED, type PostEngineChoice } from '../src/relay/evaluations.js';
import { truncate } from '../src/text.js';

export const data = new SlashCommandBuilder()
  .setName('observe')
  .setDescription('Post a live FICS game here; the board updates as the players move')
  .setContexts(InteractionContextType.Guild)
  .addIntegerOption((o) => gameOption(o))
  .addStringOption((o) =>
    o.setName('player').setDescription("A FICS handle: that player's current game").setAutocomplete(true),
  )
  .addBooleanOption((o) => o.setName('flip').setDescription('Black at the bottom'))
  .addBooleanOption((o) => o.setName('thread').setDescription('Post in a new thread for this game'))
  .addBooleanOption((o) =>
    o
      .setName('eval')
      .setDescription("Show the engine's evaluation (if this bot's operator enabled the engine)"),
  )
  .addBooleanOption((o) => o.setName('arrow').setDescription("Also draw the engine's best move as an arrow"))
  .addBooleanOption((o) =>
    o.setName('kibitz').setDescription("FICS kibitzes and whispers into the game's thread (makes one)"),
  );

export const help =
  'Posts a live game from freechess.org here and keeps the board current. Give a game number (see /games) or a player handle.';

export async function execute(interaction: ChatInputCommandInteraction, ctx: BotContext): Promise<void> {
  const game = interaction.options.getInteger('game');
  const player = interaction.options.getString('player');
  const flip = interaction.options.getBoolean('flip') ?? false;
  const kibitzOption = interaction.options.getBoolean('kibitz');
  const threadOption = interaction.options.getBoolean('thread');
  if (kibitzOption === true && threadOption === false) {
    await answer(interaction, "Kibitzes go into the game's thread: use `kibitz:` without `thread:False`.");
    return;
  }
  // Unsaid: the server's default (/settings kibitz), where a thread is allowed and can be made here.
  const kibitz =
    kibitzOption ??
    (threadOption !== false &&
      cannotPostHere(interaction, true) === null &&
      ((await serverSettings(ctx, interaction.guildId)).kibitz ?? false));
  const thread = threadOption ?? kibitz;
  const arrow = interaction.options.getBoolean('arrow') ?? false;
  const evaluation = (interaction.options.getBoolean('eval') ?? false) || arrow;
  if ((game === null) === (player === null)) {
    await answer(
      interaction,
      'Give either `game:` (a FICS game number, see /games) or `player:` (a FICS handle), not both.',
    );
    return;
  }
  let handle: Handle | null = null;
  if (player !== null) {
    const parsed = parseHandle(player);
    if (!parsed.ok) {
      await answer(interaction, parsed.error.message);
      return;
    }
    handle = parsed.value;
  }
  const noEngine = evaluation ? engineUnavailable(ctx) : null;
  if (noEngine !== null) {
    await answer(interaction, `${noEngine} Run /observe without \`eval:\` and \`arrow:\`.`);
    return;
  }
  const blocked = cannotPostHere(interaction, thread);
  if (blocked !== null) {
    await answer(interaction, blocked);
    return;
  }
  // Observing may take a moment on FICS: answer Discord within its 3 seconds first.
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  await postGame(interaction, ctx, handle === null ? game! : { player: handle }, {
    flip,
    thread,
    kibitz,
    ...(evaluation ? { engine: { eval: true, arrow } } : {}),
  });
}

/** Why no post here can show the engine, or null when it can. */
function engineUnavailable(ctx: BotContext): string | null {
  switch (ctx.relay.engineStatus()) {
    case 'off':
      return "This bot's operator has not enabled the engine (KIBITZ_ENGINE), so posts show no evaluation.";
    case 'not-installed':
      return `The engine is on, but ${ENGINE_NOT_INSTALLED}.`;
    case 'on':
      return null;
  }
}

/**
 * How long a suggestion waits for FICS: Discord drops an autocomplete not answered within 3 s,
 * and the answer itself takes a round trip.
 */
export const AUTOCOMPLETE_WAIT_MS = 2_000;

/** Players of the games FICS listed last: what is suggested while FICS is slow or down. */
let knownPlayers: string[] = [];

/** Suggests handles of players in the server's current games. */
export async function autocomplete(interaction: AutocompleteInteraction, ctx: BotContext): Promise<void> {
  const typed = interaction.options.getFocused().toLowerCase();
  const listed = ctx.fics.recentGames.rows().then(
    (rows) => (knownPlayers = [...new Set(rows.flatMap((r) => [r.white, r.black]))]),
    // FICS unreachable: what was known; the command itself will say what is wrong.
    () => knownPlayers,
  );
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string[]>((resolve) => {
    timer = setTimeout(() => resolve(knownPlayers), AUTOCOMPLETE_WAIT_MS);
  });
  const names = await Promise.race([listed, late]);
  clearTimeout(timer);
  const matching = names.filter((n) => n.toLowerCase().startsWith(typed)).sort();
  // Handles are at most 17 letters; Discord takes 25 choices of at most 100 characters.
  await interaction.respond(
    matching.slice(0, 25).map((name) => ({ name: truncate(name, 100), value: truncate(name, 100) })),
  );
}

async function livePost(ctx: BotContext, args: string): Promise<LivePost | null> {
  const id = Number(args);
  return Number.isSafeInteger(id) ? ctx.storage.livePosts.get(id) : null;
}

export const buttons = {
  [LIVE_BUTTONS.flip]: async (interaction: ButtonInteraction, args: string, ctx: BotContext) => {
    const post = await livePost(ctx, args);
    if (post === null || post.state !== 'live') {
      await answer(interaction, 'This game is no longer live.');
      return;
    }
    // The shared board stays as it is for everyone else: the presser alone sees it turned round.
    await interaction.deferReply({ flags: MessageFlags.Ephemeral });
    const view = await ctx.relay.flippedView(post.id);
    if (view === null) {
      await answer(interaction, 'This game is no longer live.');
      return;
    }
    const { embeds, files } = makeDiscordMessage(
      { ...view, live: false, outcome: 'live' },
      post.id,
      Date.now(),
    );
    await interaction.editReply({ embeds: embeds ?? [], files: files ?? [] });
  },
  [LIVE_BUTTONS.pgn]: async (interaction: ButtonInteraction, args: string, ctx: BotContext) => {
    const post = await livePost(ctx, args);
    const snapshot = post === null ? undefined : ctx.relay.snapshot(post.game);
    if (post === null || snapshot === undefined) {
      await answer(interaction, 'Kibitz no longer has this game; try /pgn with its number.');
      return;
    }
    const file = new AttachmentBuilder(Buffer.from(makeSnapshotPgn(snapshot)), {
      name: `game-${snapshot.game}.pgn`,
    });
    await interaction.reply({ files: [file], flags: MessageFlags.Ephemeral });
  },
  [LIVE_BUTTONS.engine]: async (interaction: ButtonInteraction, args: string, ctx: BotContext) => {
    await toggleEngine(interaction, args, ctx, (choice) => ({ eval: !choice.eval, arrow: false }));
  },
  [LIVE_BUTTONS.arrow]: async (interaction: ButtonInteraction, args: string, ctx: BotContext) => {
    await toggleEngine(interaction, args, ctx, (choice) => ({ eval: true, arrow: !choice.arrow }));
  },
  [LIVE_BUTTONS.stop]: async (interaction: ButtonInteraction, args: string, ctx: BotContext) => {
    const post = await livePost(ctx, args);
    if (post === null || post.state !== 'live') {
      await answer(interaction, 'This game is no longer live.');
      return;
    }
    await stopPost(interaction, ctx, post);
  },
};

/** The Engine and Best move buttons: the post is redrawn at once, its evaluation follows. */
async function toggleEngine(
  interaction: ButtonInteraction,
  args: string,
  ctx: BotContext,
  next: (choice: PostEngineChoice) => PostEngineChoice,
): Promise<void> {
  const post = await livePost(ctx, args);
  if (post === null || post.state !== 'live') {
    await answer(interaction, 'This game is no longer live.');
    return;
  }
  if (!mayChange(interaction, post)) {
    await answer(
      interaction,
      'Only the member who posted this game, or someone with Manage Messages, can change its engine.',
    );
    return;
  }
  const noEngine = engineUnavailable(ctx);
  if (noEngine !== null) {
    await answer(interaction, noEngine);
    return;
  }
  await interaction.deferUpdate();
  await ctx.relay.setEngine(post.id, next(ctx.relay.engineChoice(post.id)));
}
