// /observe game:<number> | player:<handle> [flip] [thread] [eval] [arrow] [kibitz]: posts a live board here,
// plus the buttons every live post carries (Flip, PGN, Stop; Engine and Best move with an engine).
import { AttachmentBuilder, InteractionContextType, MessageFlags, SlashCommandBuilder } from 'discord.js';
import type {
  AnySelectMenuInteraction,
  AutocompleteInteraction,
  ButtonInteraction,
  ChatInputCommandInteraction,
} from 'discord.js';
import {
  changeEngine,
  engineChangeAllowed,
  engineProblem,
  flipped,
  livePost,
  mayChange,
  observe,
  stop,
  type NoEngine,
  type ObserveError,
  type ObserveTarget,
} from '../src/actions/observe.js';
import { livePgn } from '../src/actions/pgn.js';
import { serverSettings } from '../src/actions/settings.js';
import { gameArg, handleArg, type ArgsResult, type CommandOptions } from '../src/discord/args.js';
import type { BotContext } from '../src/discord/context.js';
import type { LivePost } from '../src/storage/index.js';
import { LIVE_BUTTONS, makeDiscordMessage } from '../src/discord/live-port.js';
import {
  actorOf,
  answer,
  cannotPostHere,
  deferAnswer,
  ficsDownText,
  gameOption,
  postErrorText,
} from '../src/discord/replies.js';
import { ENGINE_NOT_INSTALLED, type PostEngineChoice } from '../src/relay/evaluations.js';
import { err, ok } from '../src/result.js';
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

interface ObserveArgs {
  readonly target: ObserveTarget;
  readonly flip: boolean;
  readonly thread: boolean;
  readonly kibitz: boolean;
  readonly engine: PostEngineChoice | null;
}

/** As asked: `thread` and `kibitz` null where the command left them to the defaults. */
type ObserveAsked = Omit<ObserveArgs, 'thread' | 'kibitz'> & {
  readonly thread: boolean | null;
  readonly kibitz: boolean | null;
};

function parseArgs(options: CommandOptions): ArgsResult<ObserveAsked> {
  const kibitz = options.getBoolean('kibitz');
  const threadOption = options.getBoolean('thread');
  if (kibitz === true && threadOption === false)
    return err("Kibitzes go into the game's thread: use `kibitz:` without `thread:False`.");
  const arrow = options.getBoolean('arrow') ?? false;
  const evaluation = (options.getBoolean('eval') ?? false) || arrow;
  if ((options.getInteger('game') === null) === (options.getString('player') === null))
    return err(
      'Give either `game:` (a FICS game number, see /games) or `player:` (a FICS handle), not both.',
    );
  const game = gameArg(options);
  if (!game.ok) return game;
  const player = handleArg(options, 'player');
  if (!player.ok) return player;
  return ok({
    target: player.value === null ? { game: game.value! } : { player: player.value },
    flip: options.getBoolean('flip') ?? false,
    thread: threadOption,
    kibitz,
    engine: evaluation ? { eval: true, arrow } : null,
  });
}

export async function execute(interaction: ChatInputCommandInteraction, ctx: BotContext): Promise<void> {
  const args = parseArgs(interaction.options);
  if (!args.ok) {
    await answer(interaction, args.error);
    return;
  }
  const noEngine = args.value.engine === null ? null : engineProblem(ctx);
  if (noEngine !== null) {
    await answer(interaction, `${noEngineText(noEngine)} Run /observe without \`eval:\` and \`arrow:\`.`);
    return;
  }
  const { thread: threadAsked, kibitz: kibitzAsked, ...asked } = args.value;
  // Unsaid: the server's default (/settings kibitz), where a thread is allowed and can be made here.
  const kibitz =
    kibitzAsked ??
    (threadAsked !== false &&
      cannotPostHere(interaction, true) === null &&
      ((await serverSettings(ctx, interaction.guildId)).kibitz ?? false));
  await observeHere(interaction, ctx, { ...asked, kibitz, thread: threadAsked ?? kibitz });
}

/**
 * Checks the bot may post here, then observes and says what happened (also for the /games menu).
 * Observing may take a moment on FICS: Discord's 3 seconds are answered first.
 */
export async function observeHere(
  interaction: ChatInputCommandInteraction | AnySelectMenuInteraction,
  ctx: BotContext,
  args: ObserveArgs,
): Promise<void> {
  const blocked = cannotPostHere(interaction, args.thread);
  if (blocked !== null) {
    await answer(interaction, blocked);
    return;
  }
  await deferAnswer(interaction);
  const result = await observe(
    {
      ...args,
      guildId: interaction.guildId!,
      channelId: interaction.channelId!,
      requestedBy: interaction.user.id,
    },
    ctx,
  );
  await answer(
    interaction,
    result.ok
      ? `Game ${result.value.game}, ${result.value.white} vs ${result.value.black}, is live${args.thread ? ' in its thread' : ' here'}: the board updates as they move.`
      : observeErrorText(result.error),
  );
}

function observeErrorText(error: ObserveError): string {
  switch (error.kind) {
    case 'fics-down':
      return ficsDownText(error);
    case 'no-engine':
      return noEngineText(error);
    case 'refused':
      return error.message;
  }
}

/** Why no post here can show the engine. */
function noEngineText(error: NoEngine): string {
  return error.status === 'off'
    ? "This bot's operator has not enabled the engine (KIBITZ_ENGINE), so posts show no evaluation."
    : `The engine is on, but ${ENGINE_NOT_INSTALLED}.`;
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

/** The live post a button's custom id names. */
function postIdOf(args: string): number {
  return Number(args);
}

export const buttons = {
  [LIVE_BUTTONS.flip]: async (interaction: ButtonInteraction, args: string, ctx: BotContext) => {
    const post = await livePost(postIdOf(args), ctx);
    if (!post.ok) {
      await answer(interaction, postErrorText(post.error, 'flip it'));
      return;
    }
    // The shared board stays as it is for everyone else: the presser alone sees it turned round.
    await interaction.deferReply({ flags: MessageFlags.Ephemeral });
    const view = await flipped(post.value.id, ctx);
    if (!view.ok) {
      await answer(interaction, postErrorText(view.error, 'flip it'));
      return;
    }
    const { embeds, files } = makeDiscordMessage(
      { ...view.value, live: false, outcome: 'live' },
      post.value.id,
      Date.now(),
    );
    await interaction.editReply({ embeds: embeds ?? [], files: files ?? [] });
  },
  [LIVE_BUTTONS.pgn]: async (interaction: ButtonInteraction, args: string, ctx: BotContext) => {
    const file = await livePgn(postIdOf(args), ctx);
    if (file === null) {
      await answer(interaction, 'Kibitz no longer has this game; try /pgn with its number.');
      return;
    }
    const attachment = new AttachmentBuilder(Buffer.from(file.text), { name: file.name });
    await interaction.reply({ files: [attachment], flags: MessageFlags.Ephemeral });
  },
  [LIVE_BUTTONS.engine]: async (interaction: ButtonInteraction, args: string, ctx: BotContext) => {
    await toggleEngine(interaction, args, ctx, (choice) => ({ eval: !choice.eval, arrow: false }));
  },
  [LIVE_BUTTONS.arrow]: async (interaction: ButtonInteraction, args: string, ctx: BotContext) => {
    await toggleEngine(interaction, args, ctx, (choice) => ({ eval: true, arrow: !choice.arrow }));
  },
  [LIVE_BUTTONS.stop]: async (interaction: ButtonInteraction, args: string, ctx: BotContext) => {
    const post = await livePost(postIdOf(args), ctx);
    if (!post.ok) {
      await answer(interaction, postErrorText(post.error, 'stop it'));
      return;
    }
    await stopPost(interaction, ctx, post.value);
  },
};

/** Stops a live post if this member may; the reply says what happened (also for /unobserve). */
export async function stopPost(
  interaction: ButtonInteraction | ChatInputCommandInteraction,
  ctx: BotContext,
  post: LivePost,
): Promise<void> {
  const actor = actorOf(interaction);
  if (!mayChange(actor, post)) {
    await answer(interaction, postErrorText({ kind: 'not-allowed' }, 'stop it'));
    return;
  }
  // Stopping waits for FICS to unobserve (30 s when it stalls): Discord's 3 seconds are answered first.
  await deferAnswer(interaction);
  const stopped = await stop(post, actor, ctx);
  await answer(
    interaction,
    stopped.ok ? `Stopped relaying game ${stopped.value.game}.` : postErrorText(stopped.error, 'stop it'),
  );
}

/** The Engine and Best move buttons: the post is redrawn at once, its evaluation follows. */
async function toggleEngine(
  interaction: ButtonInteraction,
  args: string,
  ctx: BotContext,
  next: (choice: PostEngineChoice) => PostEngineChoice,
): Promise<void> {
  const post = await engineChangeAllowed(postIdOf(args), actorOf(interaction), ctx);
  if (!post.ok) {
    await answer(
      interaction,
      post.error.kind === 'no-engine'
        ? noEngineText(post.error)
        : postErrorText(post.error, 'change its engine'),
    );
    return;
  }
  await interaction.deferUpdate();
  await changeEngine(post.value, next, ctx);
}
