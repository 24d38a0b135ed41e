// /club: this server's chess club. Games of its members (FICS handles) are posted live in the club
// channel without anyone asking, filtered by mode (every game of a member, games between members,
// or the pairings of a scheduled match), rating and type; /club results lists how they ended.
import { ChannelType, InteractionContextType, PermissionFlagsBits, SlashCommandBuilder } from 'discord.js';
import type { AutocompleteInteraction, ChatInputCommandInteraction } from 'discord.js';
import {
  addMember,
  clubResults,
  getClub,
  offerClubGames,
  removeMember,
  setClubChannel,
  setClubFilter,
  setClubMode,
  setClubPairings,
  type ClubActor,
  type ClubChanged,
} from '../src/actions/club.js';
import type { Acknowledge } from '../src/actions/services.js';
import { resultText } from '../render/index.js';
import { CLUB_GAME_TYPES, CLUB_MODES } from '../src/game/club-rules.js';
import { formatPairings, parseGameTypes, parsePairings } from '../src/club/rules.js';
import { MAX_LOOKUPS } from '../src/club/poster.js';
import type { BotContext } from '../src/discord/context.js';
import { botPermissionsIn, checkPostingPermissions } from '../src/discord/permissions.js';
import { answer, cannotPostHere, deferAnswer, ficsProblem } from '../src/discord/replies.js';
import { suggestHandles } from '../src/discord/suggest.js';
import { handleArg, required, type ArgsResult } from '../src/discord/args.js';
import type { Handle } from '../src/protocol/handle.js';
import type { Club, ClubGame } from '../src/storage/index.js';

/** Discord refuses longer message content. */
const MAX_CONTENT = 2000;

export const data = new SlashCommandBuilder()
  .setName('club')
  .setDescription("This server's chess club: its members' games are posted live (Manage Server)")
  .setContexts(InteractionContextType.Guild)
  .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
  .addSubcommand((s) =>
    s
      .setName('add')
      .setDescription('Add a member: their games are posted in the club channel')
      .addStringOption((o) => o.setName('handle').setDescription('FICS handle').setRequired(true)),
  )
  .addSubcommand((s) =>
    s
      .setName('remove')
      .setDescription('Remove a member')
      .addStringOption((o) =>
        o.setName('handle').setDescription('FICS handle').setRequired(true).setAutocomplete(true),
      ),
  )
  .addSubcommand((s) =>
    s.setName('list').setDescription('The club: channel, mode, filters, pairings, members'),
  )
  .addSubcommand((s) =>
    s
      .setName('channel')
      .setDescription('Where club games are posted (this channel unless you pick one)')
      .addChannelOption((o) =>
        o.setName('channel').setDescription('Club channel').addChannelTypes(ChannelType.GuildText),
      )
      .addBooleanOption((o) => o.setName('thread').setDescription('Post each game in its own thread')),
  )
  .addSubcommand((s) =>
    s
      .setName('mode')
      .setDescription('Which games are posted')
      .addStringOption((o) =>
        o
          .setName('mode')
          .setDescription('Which games')
          .setRequired(true)
          .addChoices(...CLUB_MODES.map((m) => ({ name: m.name, value: m.value }))),
      ),
  )
  .addSubcommand((s) =>
    s
      .setName('pairings')
      .setDescription('Pairings of a scheduled match, for mode "pairings"')
      .addStringOption((o) =>
        o
          .setName('list')
          .setDescription('Like Alice-Bob, Carol-Dave (either may have White); "none" clears')
          .setRequired(true)
          .setMaxLength(1000),
      ),
  )
  .addSubcommand((s) =>
    s
      .setName('filter')
      .setDescription('Only rated games, only some game types')
      .addBooleanOption((o) => o.setName('rated').setDescription('Only rated games'))
      .addStringOption((o) =>
        o.setName('types').setDescription('Game types, e.g. "blitz, standard", or "all"').setMaxLength(200),
      ),
  )
  .addSubcommand((s) =>
    s
      .setName('results')
      .setDescription("The club's finished games, with links to their posts")
      .addIntegerOption((o) =>
        o.setName('days').setDescription('How far back (default 7)').setMinValue(1).setMaxValue(365),
      ),
  );

export const help = `Sets up a club: \`/club add\` members (FICS handles), \`/club channel\` where their games go, \`/club mode\` which games (every game of a member, games between two members, or the \`/club pairings\` of a team match), \`/club filter\` rated games or some types only (${CLUB_GAME_TYPES.join(', ')}). Games are posted live like \`/observe\`; \`/club results\` lists how they ended. Needs Manage Server.`;

type Handler = (interaction: ChatInputCommandInteraction, ctx: BotContext, guildId: string) => Promise<void>;

const handlers: Record<string, Handler> = { add, remove, list, channel, mode, pairings, filter, results };

/** `/club remove handle`: suggests the club's members. */
export async function autocomplete(interaction: AutocompleteInteraction, ctx: BotContext): Promise<void> {
  await suggestHandles(interaction, await ctx.storage.clubs.members(interaction.guildId ?? ''));
}

export async function execute(interaction: ChatInputCommandInteraction, ctx: BotContext): Promise<void> {
  if (interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild) !== true) {
    await answer(interaction, 'Running the club needs the Manage Server permission.');
    return;
  }
  const guildId = interaction.guildId;
  const handler = handlers[interaction.options.getSubcommand()];
  if (guildId === null || handler === undefined) {
    await answer(interaction, 'Use /club in a server channel, with one of its subcommands.');
    return;
  }
  await handler(interaction, ctx, guildId);
}

function handleOption(interaction: ChatInputCommandInteraction): ArgsResult<Handle> {
  return required(handleArg(interaction.options, 'handle'), 'handle');
}

function actorOf(interaction: ChatInputCommandInteraction, guildId: string): ClubActor {
  return { guildId, by: interaction.user.id };
}

/**
 * Runs a club change (once it is stored, following may wait for FICS: Discord's 3 seconds are
 * answered first),
 * says what it did and what FICS said, then offers the games running now.
 */
async function changeClub<T>(
  interaction: ChatInputCommandInteraction,
  ctx: BotContext,
  guildId: string,
  change: (acknowledge: Acknowledge) => Promise<ClubChanged<T>>,
  said: (done: T) => string,
): Promise<void> {
  await reportChange(interaction, ctx, guildId, await change(() => deferAnswer(interaction)), said);
}

async function reportChange<T>(
  interaction: ChatInputCommandInteraction,
  ctx: BotContext,
  guildId: string,
  changed: ClubChanged<T>,
  said: (done: T) => string,
): Promise<void> {
  const notes = [said(changed.done)];
  if (!changed.hasChannel) notes.push('Games are posted once the club has a channel: run `/club channel`.');
  for (const p of changed.problems) notes.push(`FICS did not take ${p.handle}: ${ficsProblem(p.error)}`);
  if (changed.later > 0)
    notes.push(
      `${changed.later} new handles past the first ${MAX_LOOKUPS} are followed for their next game: a game they play now is not looked for.`,
    );
  await answer(interaction, notes.join('\n'));
  await offerClubGames(guildId, ctx);
}

async function add(
  interaction: ChatInputCommandInteraction,
  ctx: BotContext,
  guildId: string,
): Promise<void> {
  const handle = handleOption(interaction);
  if (!handle.ok) {
    await answer(interaction, handle.error);
    return;
  }
  await changeClub(
    interaction,
    ctx,
    guildId,
    (acknowledge) => addMember(actorOf(interaction, guildId), handle.value, ctx, acknowledge),
    (added) => (added ? `${handle.value} is a club member now.` : `${handle.value} was a member already.`),
  );
}

async function remove(
  interaction: ChatInputCommandInteraction,
  ctx: BotContext,
  guildId: string,
): Promise<void> {
  const handle = handleOption(interaction);
  if (!handle.ok) {
    await answer(interaction, handle.error);
    return;
  }
  const removed = await removeMember(guildId, handle.value, ctx, () => deferAnswer(interaction));
  if (!removed.ok) {
    await answer(interaction, `${handle.value} is not a club member.`);
    return;
  }
  await reportChange(
    interaction,
    ctx,
    guildId,
    removed.value,
    () => `${handle.value} is no longer a club member. Games already live keep updating.`,
  );
}

async function list(
  interaction: ChatInputCommandInteraction,
  ctx: BotContext,
  guildId: string,
): Promise<void> {
  await answer(interaction, describeClub(await getClub(guildId, ctx)));
}

function describeClub(club: Club): string {
  const mode = CLUB_MODES.find((m) => m.value === club.mode)?.name ?? club.mode;
  const lines = [
    `**Channel:** ${club.channelId === null ? 'none yet (`/club channel`)' : `<#${club.channelId}>`}${club.thread ? ', a thread per game' : ''}`,
    `**Mode:** ${mode}`,
    `**Filter:** ${club.ratedOnly ? 'rated games' : 'rated and unrated games'}, ${club.types === null ? 'every type' : club.types.join(', ')}`,
  ];
  if (club.pairings.length > 0 || club.mode === 'pairings') {
    lines.push(
      `**Pairings:** ${club.pairings.length === 0 ? 'none (`/club pairings`)' : formatPairings(club.pairings)}`,
    );
  }
  const members = club.members.length === 0 ? 'none yet (`/club add`)' : club.members.join(', ');
  lines.push(`**Members (${club.members.length}):** ${members}`);
  return wholeLines(lines.join('\n'));
}

async function channel(
  interaction: ChatInputCommandInteraction,
  ctx: BotContext,
  guildId: string,
): Promise<void> {
  const picked = interaction.options.getChannel('channel');
  const thread = interaction.options.getBoolean('thread') ?? false;
  let channelId = interaction.channelId;
  if (picked !== null && picked.id !== interaction.channelId) {
    const cached = interaction.guild?.channels.cache.get(picked.id);
    const granted = cached === undefined ? null : botPermissionsIn(cached);
    if (granted === null) {
      await answer(
        interaction,
        `I cannot see <#${picked.id}>: give my role access to it, or run /club channel there.`,
      );
      return;
    }
    const check = checkPostingPermissions(granted, `<#${picked.id}>`, { thread });
    if (!check.ok) {
      await answer(interaction, check.error.message);
      return;
    }
    channelId = picked.id;
  } else {
    const blocked = cannotPostHere(interaction, thread);
    if (blocked !== null) {
      await answer(interaction, blocked);
      return;
    }
  }
  await changeClub(
    interaction,
    ctx,
    guildId,
    (acknowledge) => setClubChannel(actorOf(interaction, guildId), { channelId, thread }, ctx, acknowledge),
    () => `Club games are posted in <#${channelId}>${thread ? ', each in its own thread' : ''}.`,
  );
}

async function mode(
  interaction: ChatInputCommandInteraction,
  ctx: BotContext,
  guildId: string,
): Promise<void> {
  const value = interaction.options.getString('mode', true);
  const chosen = CLUB_MODES.find((m) => m.value === value);
  if (chosen === undefined) {
    await answer(
      interaction,
      `"${value}" is not a mode: pick one of ${CLUB_MODES.map((m) => m.value).join(', ')}.`,
    );
    return;
  }
  await changeClub(
    interaction,
    ctx,
    guildId,
    (acknowledge) => setClubMode(actorOf(interaction, guildId), chosen.value, ctx, acknowledge),
    (listThem) => `Posting ${chosen.name}.${listThem ? ' Now list them with `/club pairings`.' : ''}`,
  );
}

async function pairings(
  interaction: ChatInputCommandInteraction,
  ctx: BotContext,
  guildId: string,
): Promise<void> {
  const parsed = parsePairings(interaction.options.getString('list', true));
  if (!parsed.ok) {
    await answer(interaction, parsed.error);
    return;
  }
  await changeClub(
    interaction,
    ctx,
    guildId,
    (acknowledge) => setClubPairings(guildId, parsed.value, ctx, acknowledge),
    (counted) =>
      parsed.value.length === 0
        ? 'Pairings cleared.'
        : `Pairings: ${formatPairings(parsed.value)}.${counted ? '' : ' They count once the mode is "pairings" (`/club mode`).'}`,
  );
}

async function filter(
  interaction: ChatInputCommandInteraction,
  ctx: BotContext,
  guildId: string,
): Promise<void> {
  const rated = interaction.options.getBoolean('rated');
  const typesText = interaction.options.getString('types');
  if (rated === null && typesText === null) {
    await answer(
      interaction,
      'Give `rated:` and/or `types:` (for example `types: blitz, standard`, or `all`).',
    );
    return;
  }
  const types = typesText === null ? null : parseGameTypes(typesText);
  if (types !== null && !types.ok) {
    await answer(interaction, types.error);
    return;
  }
  await changeClub(
    interaction,
    ctx,
    guildId,
    (acknowledge) =>
      setClubFilter(
        actorOf(interaction, guildId),
        { rated, types: types === null ? undefined : types.value },
        ctx,
        acknowledge,
      ),
    (next) =>
      `Posting ${next.ratedOnly ? 'rated games' : 'rated and unrated games'} of ${next.types === null ? 'every type' : next.types.join(', ')}.`,
  );
}

async function results(
  interaction: ChatInputCommandInteraction,
  ctx: BotContext,
  guildId: string,
): Promise<void> {
  const days = interaction.options.getInteger('days') ?? 7;
  const games = await clubResults(guildId, Date.now() - days * 86_400_000, ctx);
  const span = days === 1 ? 'the last day' : `the last ${days} days`;
  if (games.length === 0) {
    await answer(interaction, `No club games finished in ${span}.`);
    return;
  }
  const lines = games.map((g) => resultLine(guildId, g));
  await answer(interaction, wholeLines([`Club games finished in ${span}:`, ...lines].join('\n')));
}

function postLink(guildId: string, game: Pick<ClubGame, 'messageChannelId' | 'messageId'>): string | null {
  if (game.messageChannelId === null || game.messageId === null) return null;
  return `https://discord.com/channels/${guildId}/${game.messageChannelId}/${game.messageId}`;
}

function resultLine(guildId: string, game: ClubGame): string {
  const result = resultText({ result: game.result ?? '*', reason: game.reason });
  const link = postLink(guildId, game);
  return `• ${game.white} vs ${game.black}: ${result}${link === null ? '' : ` · ${link}`}`;
}

/** Whole lines up to Discord's limit, then how many were left out. */
function wholeLines(text: string): string {
  if (text.length <= MAX_CONTENT) return text;
  const lines = text.split('\n');
  const kept: string[] = [];
  let length = 0;
  for (const line of lines) {
    if (length + line.length + 1 > MAX_CONTENT - 40) break;
    kept.push(line);
    length += line.length + 1;
  }
  return `${kept.join('\n')}\n…and ${lines.length - kept.length} more lines.`;
}
