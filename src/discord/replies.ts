// Shared pieces of command handlers: ephemeral answers, the posting check, FICS errors in words.
import { MessageFlags, PermissionFlagsBits } from 'discord.js';
import type {
  ChatInputCommandInteraction,
  RepliableInteraction,
  SlashCommandIntegerOption,
} from 'discord.js';
import {
  FicsCapacityError,
  FicsCommandError,
  FicsInputError,
  FicsLoginError,
  FicsShareError,
} from '../fics/errors.js';
import { parseHandle } from '../fics/validate.js';
import { LARGEST_GAME_NUMBER } from '../protocol/game-number.js';
import type { Handle } from '../protocol/handle.js';
import type { PostEngineChoice } from '../relay/evaluations.js';
import type { LivePost } from '../storage/index.js';
import type { BotContext } from './context.js';
import { truncate } from '../text.js';
import { checkPostingPermissions } from './permissions.js';
import { errorMessage } from '../result.js';

/** Answers only the user who asked, whether or not the interaction was deferred. */
export async function answer(interaction: RepliableInteraction, text: string): Promise<void> {
  // Answers may quote FICS or a user: never over Discord's 2,000 characters.
  const content = truncate(text, 2_000);
  if (interaction.deferred || interaction.replied) await interaction.editReply({ content });
  else await interaction.reply({ content, flags: MessageFlags.Ephemeral });
}

/** What went wrong on the FICS side, said so that the user knows what to do. */
export function ficsProblem(error: unknown): string {
  if (error instanceof FicsInputError || error instanceof FicsCommandError) return error.message;
  if (error instanceof FicsShareError) return error.message;
  if (error instanceof FicsCapacityError) {
    return 'Kibitz is observing as many games as its FICS connections allow. Try again when a game ends.';
  }
  if (error instanceof FicsLoginError) return `Kibitz cannot log in to FICS right now: ${error.message}`;
  return `FICS did not answer (${errorMessage(error)}). It may be unreachable; try again in a minute.`;
}

/**
 * Null once a FICS connection is online (waiting up to `ctx.ficsWaitMs` for one), else what to
 * tell the user. Without it a command would wait as long as FICS stays down: the pool queues
 * requests until it is back.
 */
export async function ficsUnavailable(ctx: BotContext): Promise<string | null> {
  const online = (): boolean => ctx.fics.status().some((c) => c.state === 'online');
  const gaveUp = (): boolean => {
    const connections = ctx.fics.status();
    return connections.length > 0 && connections.every((c) => c.state === 'failed' || c.state === 'closed');
  };
  if (!online() && !gaveUp()) {
    await new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        ctx.fics.off('state', changed);
        resolve();
      };
      const changed = (): void => {
        if (online() || gaveUp()) done();
      };
      const timer = setTimeout(done, ctx.ficsWaitMs);
      ctx.fics.on('state', changed);
    });
  }
  if (online()) return null;
  const { host, port } = ctx.config.fics;
  return gaveUp()
    ? `Kibitz cannot log in to FICS (${host}:${port}); the bot's log says why. Its operator has to fix the FICS settings.`
    : `Kibitz cannot reach FICS (${host}:${port}) right now. It keeps trying: try again in a minute.`;
}

/** Null when the bot may post in this channel, else the message naming what is missing. */
export function cannotPostHere(interaction: RepliableInteraction, thread: boolean): string | null {
  // Discord sends the bot's permissions in this channel with every interaction.
  const granted = interaction.appPermissions?.bitfield ?? 0n;
  const check = checkPostingPermissions(granted, `<#${interaction.channelId}>`, { thread });
  return check.ok ? null : check.message;
}

/** Who may change a live post (stop it, turn its engine on or off): its requester, or a moderator. */
export function mayChange(interaction: RepliableInteraction, post: LivePost): boolean {
  return (
    post.requestedBy === interaction.user.id ||
    interaction.memberPermissions?.has(PermissionFlagsBits.ManageMessages) === true
  );
}

/** Stops a live post if this member may: the requester, or anyone who may manage messages. */
export async function stopPost(
  interaction: RepliableInteraction,
  ctx: BotContext,
  post: LivePost,
): Promise<void> {
  if (!mayChange(interaction, post)) {
    await answer(
      interaction,
      'Only the member who posted this game, or someone with Manage Messages, can stop it.',
    );
    return;
  }
  // Stopping waits for FICS to unobserve (30 s when it stalls): Discord's 3 seconds are answered first.
  if (!interaction.deferred && !interaction.replied)
    await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  await ctx.relay.stop(post.id);
  await answer(interaction, `Stopped relaying game ${post.game}.`);
}

/** A required FICS game number option. */
export function gameOption(option: SlashCommandIntegerOption, description = 'FICS game number') {
  return option.setName('game').setDescription(description).setMinValue(1).setMaxValue(LARGEST_GAME_NUMBER);
}

/**
 * For commands that need Manage Server and take a `player:` handle: the checked handle, or null
 * after telling the user what was wrong.
 */
export async function managedHandle(
  interaction: ChatInputCommandInteraction,
  what: string,
): Promise<Handle | null> {
  if (interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild) !== true) {
    await answer(interaction, `${what} needs the Manage Server permission.`);
    return null;
  }
  const parsed = parseHandle(interaction.options.getString('player', true));
  if (!parsed.ok) {
    await answer(interaction, parsed.error.message);
    return null;
  }
  return parsed.value;
}

/** Observes a game (by number, or a player's current one) and posts it here; the reply says what happened. */
export async function postGame(
  interaction: RepliableInteraction,
  ctx: BotContext,
  game: number | { player: Handle },
  options: { flip: boolean; thread: boolean; engine?: PostEngineChoice; kibitz?: boolean },
): Promise<void> {
  const unavailable = await ficsUnavailable(ctx);
  if (unavailable !== null) {
    await answer(interaction, unavailable);
    return;
  }
  const { engine, kibitz, ...postOptions } = options;
  const request = {
    guildId: interaction.guildId!,
    channelId: interaction.channelId!,
    options: postOptions,
    requestedBy: interaction.user.id,
    ...(engine === undefined ? {} : { engine }),
    ...(kibitz === true ? { kibitz } : {}),
  };
  // The server's cap and FICS share are taken before FICS is asked (src/relay/relay.ts).
  const result =
    typeof game === 'number'
      ? await ctx.relay.watch({ ...request, game })
      : await ctx.relay.watchPlayer({ ...request, player: game.player });
  await answer(
    interaction,
    result.ok
      ? `Game ${result.snapshot.game}, ${result.snapshot.white} vs ${result.snapshot.black}, is live${options.thread ? ' in its thread' : ' here'}: the board updates as they move.`
      : result.error,
  );
}
