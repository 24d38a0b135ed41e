// Slash-command arguments fuzzed through the real bot: every registered command (and subcommand)
// is run with random values of the types Discord allows (strings of every kind, integers inside the
// declared bounds, booleans), sometimes by a member with every permission, sometimes as
// autocomplete. Each must be answered; a bad handle must get an ephemeral answer saying what is
// wrong; no handler may fail; and every line FICS receives must be one of the bot's own commands
// with checked arguments.
import { ApplicationCommandOptionType } from 'discord.js';
import { ALL_PERMISSIONS, type RegisteredCommand } from '../fake-discord/index.js';
import type { CommandOptionDefinition } from '../fake-discord/model.js';
import { startInProcessBot } from '../faults/harness.js';
import { mutate, randomText } from './fuzz-inputs.js';
import type { Finding } from './fuzz-targets.js';
import { Dice } from './random.js';
import { LoadWorld } from './world.js';

/** What the bot may send FICS after login: its own settings and commands with checked arguments. */
const FICS_LINES = [
  /^$/,
  /^(\d+ )?iset [a-z]+ [01]$/,
  /^(\d+ )?set (style 12|seek 0|kibitz 1|gin [01]|interface Kibitz [\d.]+)$/,
  /^(\d+ )?(observe|unobserve|moves|refresh) ([1-9]\d{0,5}|[A-Za-z]{3,17})$/,
  /^(\d+ )?(games|date)$/,
];

const HANDLE_OPTIONS = new Set(['player', 'handle']);
const HANDLE = /^[A-Za-z]{3,17}$/;
const WORDS = [
  'Kasparov',
  'GuestABCD',
  'blitz',
  'standard',
  'all',
  '12',
  'e4',
  'Nf3',
  '<12>',
  'quit',
  'tell',
];
const INJECTIONS = [
  'Kasparov\nquit',
  'Kasparov;quit',
  'abc\r\ntell relay hi',
  '$$quit',
  'observe 1',
  '12 quit',
  '@everyone',
  '<@123456789012345678>',
  'x'.repeat(100),
  '\u0000\u00ff\u00fb\u0001',
];

export interface CommandFuzzResult {
  findings: Finding[];
  /** Commands the run could reach. */
  commands: string[];
}

/** A value for one option, of the type and inside the bounds Discord would enforce. */
function valueFor(dice: Dice, option: CommandOptionDefinition): string | number | boolean | null {
  const choices = option.choices as { value: string | number }[] | undefined;
  if (choices !== undefined && choices.length > 0) return dice.pick(choices).value;
  switch (option.type) {
    case ApplicationCommandOptionType.Boolean:
      return dice.chance(0.5);
    case ApplicationCommandOptionType.Integer:
    case ApplicationCommandOptionType.Number: {
      const min = typeof option.min_value === 'number' ? option.min_value : -(2 ** 53 - 1);
      const max = typeof option.max_value === 'number' ? option.max_value : 2 ** 53 - 1;
      const edges = [min, max, min + 1, max - 1, 0, 1, 7, 12, 999_999].filter((n) => n >= min && n <= max);
      const n = dice.chance(0.5) ? dice.pick(edges) : min + Math.floor(dice.next() * (max - min + 1));
      return option.type === ApplicationCommandOptionType.Integer ? Math.trunc(n) : n;
    }
    case ApplicationCommandOptionType.String: {
      const maxLength = typeof option.max_length === 'number' ? option.max_length : 6000;
      const text = dice.chance(0.2)
        ? dice.pick(INJECTIONS)
        : dice.chance(0.3)
          ? dice.pick(WORDS)
          : dice.chance(0.5)
            ? mutate(dice, dice.pick(WORDS), WORDS)
            : randomText(dice, WORDS);
      // Discord refuses empty strings for an option; the bot never sees one.
      return text.slice(0, maxLength) || 'x';
    }
    default:
      return null; // users, channels, roles, attachments: not fuzzed here
  }
}

const isGroup = (o: CommandOptionDefinition): boolean =>
  o.type === ApplicationCommandOptionType.Subcommand ||
  o.type === ApplicationCommandOptionType.SubcommandGroup;

export async function fuzzCommands(runs: number, seed: number): Promise<CommandFuzzResult> {
  const dice = new Dice(seed);
  const world = await LoadWorld.start({ channels: 2, plyMs: 1_000, nextGameAfterMs: null });
  // Games and players for the values that happen to be right.
  world.fics.addGame({ white: 'Kasparov', black: 'GuestABCD', san: ['e4', 'e5', 'Nf3'] });
  world.fics.addGame({ white: 'Blitzer', black: 'Standard', san: ['d4'] });
  world.fics.addPlayer('Idler');
  const running = await startInProcessBot(world, ':memory:', { LOG_LEVEL: 'error' });
  const findings: Finding[] = [];
  const found = (problem: string, input: string): void =>
    void findings.push({ target: 'commands', severity: 'failure', problem, input });
  // A promise the bot forgot to handle is a finding, not the end of the run.
  let current = '(between commands)';
  const unhandled = (reason: unknown): void =>
    found(`unhandled rejection: ${(reason as Error)?.stack ?? String(reason)}`, current);
  process.on('unhandledRejection', unhandled);
  try {
    await world.commandsRegistered();
    const commands = world.discord.commands();
    const slot = world.slots[0]!;
    let ficsSeen = world.fics.received.length;
    let logSeen = 0;
    for (let run = 0; run < runs; run++) {
      const command: RegisteredCommand = dice.pick(commands);
      const path: string[] = [];
      let options = command.options ?? [];
      while (options.some(isGroup)) {
        const sub = dice.pick(options.filter(isGroup));
        path.push(sub.name);
        options = sub.options ?? [];
      }
      const values: Record<string, string | number | boolean> = {};
      let usable = true;
      for (const option of options) {
        if (option.required !== true && dice.chance(0.4)) continue;
        const value = valueFor(dice, option);
        if (value === null) usable = option.required !== true && usable;
        else values[option.name] = value;
      }
      if (!usable) continue;
      const name = [command.name, ...path].join(' ');
      const input = `/${name} ${JSON.stringify(values)}`;
      current = input;
      const invoker = dice.chance(0.5) ? { permissions: ALL_PERMISSIONS } : {};
      const autocomplete = options.find((o) => o.autocomplete === true && typeof values[o.name] === 'string');
      try {
        if (autocomplete !== undefined && dice.chance(0.3)) {
          const reply = await world.discord
            .autocomplete(slot.guildId, slot.channelId, name, values, autocomplete.name, invoker)
            .reply(5_000);
          if (reply.choices === null) found('autocomplete answered without choices', input);
        } else {
          const reply = await world.discord
            .command(slot.guildId, slot.channelId, name, values, invoker)
            .reply(5_000);
          if (/something went wrong/i.test(reply.content))
            found(`a handler failed: "${reply.content}"`, input);
          const badHandle = options.find(
            (o) =>
              HANDLE_OPTIONS.has(o.name) &&
              typeof values[o.name] === 'string' &&
              !HANDLE.test(String(values[o.name])),
          );
          if (badHandle !== undefined && !reply.ephemeral) found('a bad handle got a public answer', input);
          if (badHandle !== undefined && reply.content.trim() === '')
            found('a bad handle got an empty answer', input);
        }
      } catch (error) {
        found(`no answer: ${(error as Error).message}`, input);
      }
      for (const line of world.fics.received.slice(ficsSeen)) {
        if (line.phase === 'command' && !FICS_LINES.some((allowed) => allowed.test(line.line)))
          found(`FICS received ${JSON.stringify(line.line)}`, input);
      }
      ficsSeen = world.fics.received.length;
      for (const line of running.logLines.slice(logSeen)) {
        if (/"level":(50|60)/.test(line)) found(`the bot logged an error: ${line.slice(0, 300)}`, input);
      }
      logSeen = running.logLines.length;
      // Live posts made by lucky values: stop them so the guild's cap never turns commands away.
      for (const post of await running.bot.context.storage.livePosts.listLive())
        await running.bot.context.relay.stop(post.id);
    }
    return { findings, commands: commands.map((c) => c.name) };
  } finally {
    current = '(stopping the bot)';
    await running.bot.stop();
    await world.close();
    // Late rejections of the stop itself are still counted.
    await new Promise((resolve) => setTimeout(resolve, 500));
    process.off('unhandledRejection', unhandled);
  }
}
