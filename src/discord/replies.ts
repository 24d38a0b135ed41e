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
import { LARGEST_GAME_NUMBER } from '../game/game-id.js';
import type { Handle } from '../protocol/handle.js';
import type { FicsDown } from '../actions/fics.js';
import type { Actor, PostError } from '../actions/observe.js';
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

/** What to tell the user when FICS cannot be asked now. */
export function ficsDownText(down: FicsDown): string {
  const { host, port } = down;
  return down.gaveUp
    ? `Kibitz cannot log in to FICS (${host}:${port}); the bot's log says why. Its operator has to fix the FICS settings.`
    : `Kibitz cannot reach FICS (${host}:${port}) right now. It keeps trying: try again in a minute.`;
}

/** Null when the bot may post in this channel, else the message naming what is missing. */
export function cannotPostHere(interaction: RepliableInteraction, thread: boolean): string | null {
  // Discord sends the bot's permissions in this channel with every interaction.
  const granted = interaction.appPermissions?.bitfield ?? 0n;
  const check = checkPostingPermissions(granted, `<#${interaction.channelId}>`, { thread });
  return check.ok ? null : check.error.message;
}

/** The member as the rules of a live post see them: who, and whether they may manage messages. */
export function actorOf(interaction: RepliableInteraction): Actor {
  return {
    userId: interaction.user.id,
    moderator: interaction.memberPermissions?.has(PermissionFlagsBits.ManageMessages) === true,
  };
}

/** What went wrong with a live post, for the member who asked `what` (stop it, change its engine). */
export function postErrorText(error: PostError, what: string): string {
  return error.kind === 'not-live'
    ? 'This game is no longer live.'
    : `Only the member who posted this game, or someone with Manage Messages, can ${what}.`;
}

/** Answers Discord within its 3 seconds, for an action that may wait (on FICS, say). */
export async function deferAnswer(interaction: RepliableInteraction): Promise<void> {
  if (!interaction.deferred && !interaction.replied)
    await interaction.deferReply({ flags: MessageFlags.Ephemeral });
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
