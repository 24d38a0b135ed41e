// A command's options read once, into typed arguments: each command has a `parseArgs` that turns
// its interaction's options into one typed object (or the message saying what was wrong), and its
// action never sees discord.js. Discord checks types and bounds against the command's definition;
// the values are checked again here, where they enter.
import type { ChatInputCommandInteraction } from 'discord.js';
import { parseGameNumber, parseHandle } from '../fics/validate.js';
import type { GameNumber } from '../protocol/game-number.js';
import type { Handle } from '../protocol/handle.js';
import { err, ok, type Result } from '../result.js';

export type CommandOptions = ChatInputCommandInteraction['options'];

/** A command's typed arguments, or what to tell the user. */
export type ArgsResult<T> = Result<T, string>;

/** A game number option, or null when it was not given. */
export function gameArg(options: CommandOptions, name = 'game'): ArgsResult<GameNumber | null> {
  const value = options.getInteger(name);
  if (value === null) return ok(null);
  const parsed = parseGameNumber(value);
  return parsed.ok ? parsed : err(parsed.error.message);
}

/** A game number the bot wrote itself (a menu value), checked again as any input; null if it is none. */
export function gameValue(text: string): GameNumber | null {
  const parsed = parseGameNumber(text);
  return parsed.ok ? parsed.value : null;
}

/** A FICS handle option, or null when it was not given. */
export function handleArg(options: CommandOptions, name: string): ArgsResult<Handle | null> {
  const value = options.getString(name);
  if (value === null) return ok(null);
  const parsed = parseHandle(value);
  return parsed.ok ? parsed : err(parsed.error.message);
}

/** A required option that came back empty: Discord let through what the definition refuses. */
export function required<T>(value: ArgsResult<T | null>, name: string): ArgsResult<T> {
  if (!value.ok) return value;
  return value.value === null ? err(`\`${name}:\` is required.`) : ok(value.value);
}

/** One of a string option's choices, `fallback` when it was not given. */
export function choiceArg<C extends string>(
  options: CommandOptions,
  name: string,
  choices: readonly C[],
  fallback: C,
): ArgsResult<C> {
  const value = options.getString(name);
  if (value === null) return ok(fallback);
  return (choices as readonly string[]).includes(value)
    ? ok(value as C)
    : err(`\`${name}:\` is one of ${choices.join(', ')}.`);
}
