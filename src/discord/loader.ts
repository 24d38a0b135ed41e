// Slash commands in the discord.js guide's layout: one module per file in commands/, exporting
// `data` (a SlashCommandBuilder) and `execute(interaction, ctx)`, optionally `autocomplete`,
// `help` (longer text for /help) and component handlers keyed by custom-id prefix.
import { readdir } from 'node:fs/promises';
import type {
  AnySelectMenuInteraction,
  AutocompleteInteraction,
  ButtonInteraction,
  ChatInputCommandInteraction,
  RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import type { BotContext } from './context.js';
import { err, errorMessage, ok, type Result } from '../result.js';

/** What the loader needs of a SlashCommandBuilder (any of its option-builder variants). */
export interface CommandData {
  readonly name: string;
  readonly description: string;
  toJSON(): RESTPostAPIChatInputApplicationCommandsJSONBody;
}

/** Receives a component interaction whose custom id is `<prefix>:<args>`. */
export type ButtonHandler = (interaction: ButtonInteraction, args: string, ctx: BotContext) => Promise<void>;
export type SelectMenuHandler = (
  interaction: AnySelectMenuInteraction,
  args: string,
  ctx: BotContext,
) => Promise<void>;

export interface CommandModule {
  data: CommandData;
  execute(interaction: ChatInputCommandInteraction, ctx: BotContext): Promise<void>;
  autocomplete?(interaction: AutocompleteInteraction, ctx: BotContext): Promise<void>;
  /** Longer explanation shown by /help; the description is used without it. */
  help?: string;
  buttons?: Readonly<Record<string, ButtonHandler>>;
  selectMenus?: Readonly<Record<string, SelectMenuHandler>>;
}

export interface CommandRegistry {
  /** By command name, in file-name order. */
  readonly commands: ReadonlyMap<string, CommandModule>;
  readonly buttons: ReadonlyMap<string, ButtonHandler>;
  readonly selectMenus: ReadonlyMap<string, SelectMenuHandler>;
  /** Registration bodies for PUT /applications/:id/commands. */
  bodies(): RESTPostAPIChatInputApplicationCommandsJSONBody[];
}

/** Every problem found, each naming its file. */
export type LoadCommandsResult = Result<CommandRegistry, string[]>;

/** commands/ at the project root; the same relative place under dist/ once compiled. */
export const DEFAULT_COMMANDS_DIR = new URL('../../commands/', import.meta.url);

/** Source files that are command modules: .ts under tsx, .js once compiled; no declarations or tests. */
export function isCommandFile(name: string): boolean {
  return /^[^._][^/]*\.(ts|js|mjs)$/.test(name) && !/\.d\.ts$/.test(name) && !/\.test\./.test(name);
}

/** Imports every command module in `dir` and checks its shape; reports all problems at once. */
export async function loadCommands(dir: URL = DEFAULT_COMMANDS_DIR): Promise<LoadCommandsResult> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter(isCommandFile).sort();
  } catch (error) {
    return err([`cannot read the commands folder ${dir.pathname}: ${errorMessage(error)}`]);
  }
  const modules: { file: string; module: unknown }[] = [];
  const errors: string[] = [];
  for (const file of names) {
    try {
      modules.push({ file, module: (await import(new URL(file, dir).href)) as unknown });
    } catch (error) {
      errors.push(`${file}: cannot be imported: ${errorMessage(error)}`);
    }
  }
  const built = buildRegistry(modules);
  return errors.length + built.errors.length > 0 ? err([...errors, ...built.errors]) : ok(built.registry);
}

/** Checks modules (as imported from `file`) and indexes them; pure, for tests and the loader. */
export function buildRegistry(modules: readonly { file: string; module: unknown }[]): {
  registry: CommandRegistry;
  errors: string[];
} {
  const commands = new Map<string, CommandModule>();
  const buttons = new Map<string, ButtonHandler>();
  const selectMenus = new Map<string, SelectMenuHandler>();
  const owners = new Map<string, string>();
  const errors: string[] = [];

  for (const { file, module } of modules) {
    const problems = shapeProblems(module);
    if (problems.length > 0) {
      errors.push(`${file}: ${problems.join('; ')}`);
      continue;
    }
    const command = module as CommandModule;
    const name = command.data.name;
    const previous = owners.get(`command ${name}`);
    if (previous !== undefined) {
      errors.push(`${file}: command /${name} is already defined in ${previous}`);
      continue;
    }
    owners.set(`command ${name}`, file);
    commands.set(name, command);
    for (const [kind, handlers, target] of [
      ['button', command.buttons, buttons],
      ['select menu', command.selectMenus, selectMenus],
    ] as const) {
      for (const [prefix, handler] of Object.entries(handlers ?? {})) {
        const owner = owners.get(`${kind} ${prefix}`);
        if (owner !== undefined) {
          errors.push(`${file}: ${kind} prefix "${prefix}" is already handled in ${owner}`);
          continue;
        }
        owners.set(`${kind} ${prefix}`, file);
        (target as Map<string, typeof handler>).set(prefix, handler);
      }
    }
  }

  return {
    registry: {
      commands,
      buttons,
      selectMenus,
      bodies: () => [...commands.values()].map((c) => c.data.toJSON()),
    },
    errors,
  };
}

function shapeProblems(module: unknown): string[] {
  if (module === null || typeof module !== 'object') return ['is not a module'];
  const m = module as Record<string, unknown>;
  const problems: string[] = [];
  const data = m.data as Record<string, unknown> | undefined;
  if (
    data === null ||
    typeof data !== 'object' ||
    typeof data.name !== 'string' ||
    typeof data.toJSON !== 'function'
  ) {
    problems.push('must export `data`, a SlashCommandBuilder');
  }
  if (typeof m.execute !== 'function') problems.push('must export an `execute(interaction, ctx)` function');
  if (m.autocomplete !== undefined && typeof m.autocomplete !== 'function')
    problems.push('`autocomplete` must be a function');
  if (m.help !== undefined && typeof m.help !== 'string') problems.push('`help` must be a string');
  for (const key of ['buttons', 'selectMenus']) {
    const handlers = m[key];
    if (handlers === undefined) continue;
    if (handlers === null || typeof handlers !== 'object') {
      problems.push(`\`${key}\` must map custom-id prefixes to functions`);
      continue;
    }
    for (const [prefix, handler] of Object.entries(handlers)) {
      if (typeof handler !== 'function') problems.push(`\`${key}.${prefix}\` must be a function`);
      if (!/^[a-z][a-z0-9-]*$/.test(prefix))
        problems.push(`\`${key}\` prefix "${prefix}" must be lower-case letters, digits, dashes`);
    }
  }
  return problems;
}
