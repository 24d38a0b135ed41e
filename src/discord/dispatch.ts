// Routes every interaction to its handler and makes sure a failing handler still answers the
// user (ephemerally) instead of leaving "The application did not respond". Errors never escape:
// discord.js does not catch errors thrown in event listeners.
import { MessageFlags } from 'discord.js';
import type { Interaction, RepliableInteraction } from 'discord.js';
import type { CommandRegistry } from './loader.js';
import type { BotContext } from './context.js';
import type { ScheduleClock } from '../clock.js';
import { parseCustomId } from './custom-id.js';
import { StorageError } from '../storage/index.js';
import { passingFailure } from './passing.js';

export type InteractionDispatcher = (interaction: Interaction) => Promise<void>;

export function createDispatcher(registry: CommandRegistry, ctx: BotContext): InteractionDispatcher {
  return async (interaction) => {
    const receivedAt = ctx.answerClock.now();
    const about = describeInteraction(interaction);
    ctx.logger.debug({ interaction: about }, 'interaction received');
    try {
      await route(registry, ctx, interaction);
    } catch (error) {
      ctx.logger.error({ err: error, interaction: about }, 'interaction handler failed');
      // Discord failed a request (a 5xx, a cut connection): the answer may be that same request,
      // and Discord asks for a wait before it is sent again (discord.js sends none again:
      // client.ts). The user is told after the wait, if Discord's window for it is still open.
      if (passingFailure(error) && !(await waitedToAnswer(interaction, ctx.answerClock, receivedAt))) {
        ctx.logger.warn(
          { interaction: about },
          'could not tell the user about the failure: Discord failed, and no wait fits in its window for an answer',
        );
        return;
      }
      await answerFailure(interaction, about.label, error).catch((replyError: unknown) =>
        ctx.logger.warn({ err: replyError, interaction: about }, 'could not tell the user about the failure'),
      );
    }
  };
}

async function route(registry: CommandRegistry, ctx: BotContext, interaction: Interaction): Promise<void> {
  if (interaction.isChatInputCommand()) {
    const command = registry.commands.get(interaction.commandName);
    if (!command) {
      await replyEphemeral(
        interaction,
        `I don't know /${interaction.commandName} (any more). The command list may be updating: try again in a minute.`,
      );
      return;
    }
    await command.execute(interaction, ctx);
    return;
  }
  if (interaction.isAutocomplete()) {
    const command = registry.commands.get(interaction.commandName);
    if (command?.autocomplete) await command.autocomplete(interaction, ctx);
    else await interaction.respond([]);
    return;
  }
  if (interaction.isButton()) {
    const { prefix, args } = parseCustomId(interaction.customId);
    const handler = registry.buttons.get(prefix);
    if (!handler) {
      await replyEphemeral(interaction, 'This button no longer does anything.');
      return;
    }
    await handler(interaction, args, ctx);
    return;
  }
  if (interaction.isAnySelectMenu()) {
    const { prefix, args } = parseCustomId(interaction.customId);
    const handler = registry.selectMenus.get(prefix);
    if (!handler) {
      await replyEphemeral(interaction, 'This menu no longer does anything.');
      return;
    }
    await handler(interaction, args, ctx);
    return;
  }
  ctx.logger.debug({ type: interaction.type }, 'interaction type not handled');
}

/** How long the dispatcher waits after Discord failed before it tells the user. */
export const FAILURE_ANSWER_WAIT_MS = 1_000;
/**
 * Discord's window for an interaction's first answer (3 s, interactions/receiving-and-responding),
 * less a margin for the answer's way there, counted from when the bot received it.
 */
export const FIRST_ANSWER_WITHIN_MS = 3_000 - 500;

/**
 * Waits FAILURE_ANSWER_WAIT_MS when an answer can still go after it: a follow-up (the token
 * lasts 15 minutes) or a first answer still inside Discord's window. An autocomplete's choices
 * would come too late to matter. The real clock's timer does not hold the process open: a running
 * bot's gateway connection does, and a stopped bot could not answer anyway.
 */
async function waitedToAnswer(
  interaction: Interaction,
  clock: ScheduleClock,
  receivedAt: number,
): Promise<boolean> {
  if (!interaction.isRepliable()) return false;
  const answered = interaction.deferred || interaction.replied;
  if (!answered && clock.now() + FAILURE_ANSWER_WAIT_MS > receivedAt + FIRST_ANSWER_WITHIN_MS) return false;
  await new Promise<void>((resolve) => clock.after(FAILURE_ANSWER_WAIT_MS, resolve));
  return true;
}

async function answerFailure(interaction: Interaction, label: string, error: unknown): Promise<void> {
  if (interaction.isAutocomplete()) {
    if (!interaction.responded) await interaction.respond([]);
    return;
  }
  if (!interaction.isRepliable()) return;
  await replyEphemeral(
    interaction,
    error instanceof StorageError
      ? `Kibitz could not use its database just now, so ${label} was not done. It has been logged; please try again later.`
      : `Something went wrong with ${label}. It has been logged; please try again.`,
  );
}

/** Replies, or follows up when the interaction was already answered or deferred. */
export async function replyEphemeral(interaction: RepliableInteraction, content: string): Promise<void> {
  const message = { content, flags: MessageFlags.Ephemeral, allowedMentions: { parse: [] } } as const;
  if (interaction.replied || interaction.deferred) await interaction.followUp(message);
  else await interaction.reply(message);
}

export interface InteractionSummary {
  id: string;
  /** How the user would name it: `/observe`, `the button`, `the menu`. */
  label: string;
  command: string | null;
  customId: string | null;
  guildId: string | null;
  channelId: string | null;
  userId: string;
}

/** What logs say about an interaction: ids and names, never the token or option text. */
export function describeInteraction(interaction: Interaction): InteractionSummary {
  const command = interaction.isCommand() || interaction.isAutocomplete() ? interaction.commandName : null;
  const customId = interaction.isMessageComponent() ? interaction.customId : null;
  return {
    id: interaction.id,
    label: command !== null ? `/${command}` : interaction.isButton() ? 'that button' : 'that menu',
    command,
    customId,
    guildId: interaction.guildId,
    channelId: interaction.channelId,
    userId: interaction.user.id,
  };
}
