// Interactions the fake sends to the bot, and what the bot answered to each. A test injects one
// (slash command, autocomplete, button, select menu) and gets an InteractionHandle whose promises
// resolve to the bot's answer.
import { ApplicationCommandOptionType, InteractionResponseType } from 'discord.js';
import type { APIEmbed, APIMessageTopLevelComponent } from 'discord.js';
import type { UploadedFile } from './http.js';
import type {
  ApiUser,
  CommandOptionDefinition,
  FakeAttachment,
  FakeMessage,
  RegisteredCommand,
} from './model.js';
import { MESSAGE_FLAG_EPHEMERAL, MESSAGE_FLAG_LOADING } from './model.js';

/** Option values as a user types them; integers, numbers, strings and booleans. */
export type OptionValues = Readonly<Record<string, string | number | boolean>>;

/** Who runs the interaction. Defaults: the fake's test user with @everyone's permissions. */
export interface Invoker {
  user?: ApiUser;
  /** Role ids the member has (created with fake.createRole). */
  roles?: string[];
  /** Overrides the member's computed channel permissions, as sent in `member.permissions`. */
  permissions?: bigint;
  locale?: string;
}

export interface InteractionCallback {
  /** InteractionResponseType: 4 message, 5 deferred message, 6 deferred update, 7 update, 8 autocomplete, 9 modal. */
  type: number;
  data: Record<string, unknown> | null;
  files: UploadedFile[];
  at: number;
}

/** The bot's answer as the user sees it. */
export interface BotReply {
  callbackType: number;
  /** Message flags; 64 is ephemeral. */
  flags: number;
  ephemeral: boolean;
  content: string;
  embeds: APIEmbed[];
  components: APIMessageTopLevelComponent[];
  files: FakeAttachment[];
  /** Autocomplete choices (callback type 8), else null. */
  choices: { name: string; value: string | number }[] | null;
  /** The message shown (null for autocomplete and modals). */
  message: FakeMessage | null;
}

export class InteractionRecord {
  callback: InteractionCallback | null = null;
  /** The message `@original` refers to: the reply, or for updates the component's message. */
  originalMessageId: string | null = null;
  readonly followUpIds: string[] = [];
  /** Revisions the component's message had when a deferred update (type 6) came. */
  sourceRevisionsAtCallback = 0;

  constructor(
    readonly id: string,
    readonly token: string,
    readonly type: number,
    readonly guildId: string,
    readonly channelId: string,
    readonly user: ApiUser,
    readonly createdAt: number,
    /** For component interactions: the message the component is on. */
    readonly sourceMessageId: string | null,
  ) {}
}

export interface InteractionHost {
  waitFor<T>(
    check: () => T | undefined | false,
    what: string,
    timeoutMs: number,
  ): Promise<Exclude<T, undefined | false>>;
  message(id: string): FakeMessage | undefined;
  readonly defaultTimeoutMs: number;
}

export class InteractionHandle {
  readonly #host: InteractionHost;
  readonly record: InteractionRecord;
  /** The INTERACTION_CREATE payload that was dispatched. */
  readonly payload: Record<string, unknown>;

  constructor(host: InteractionHost, record: InteractionRecord, payload: Record<string, unknown>) {
    this.#host = host;
    this.record = record;
    this.payload = payload;
  }

  get id(): string {
    return this.record.id;
  }

  get token(): string {
    return this.record.token;
  }

  /** The bot's first (and only accepted) response callback, as sent. */
  callback(timeoutMs = this.#host.defaultTimeoutMs): Promise<InteractionCallback> {
    return this.#host.waitFor(
      () => this.record.callback ?? undefined,
      `a response to interaction ${this.id}`,
      timeoutMs,
    );
  }

  /**
   * The reply the user ends up seeing: the message of a type 4 or 7 answer, the first edit after a
   * deferral (5, or 6 on the component's message), the choices of an autocomplete.
   */
  reply(timeoutMs = this.#host.defaultTimeoutMs): Promise<BotReply> {
    return this.#host.waitFor(() => this.#settledReply(), `the reply to interaction ${this.id}`, timeoutMs);
  }

  /** The bot's n-th follow-up message (0 = first). */
  followUp(index = 0, timeoutMs = this.#host.defaultTimeoutMs): Promise<FakeMessage> {
    return this.#host.waitFor(
      () => {
        const id = this.record.followUpIds[index];
        return id === undefined ? undefined : this.#host.message(id);
      },
      `follow-up ${index} of interaction ${this.id}`,
      timeoutMs,
    );
  }

  /** The `@original` message right now, if any. */
  original(): FakeMessage | null {
    const id = this.record.originalMessageId;
    return id === null ? null : (this.#host.message(id) ?? null);
  }

  #settledReply(): BotReply | undefined {
    const callback = this.record.callback;
    if (callback === null) return undefined;
    const message = this.original();
    switch (callback.type) {
      case InteractionResponseType.ChannelMessageWithSource:
      case InteractionResponseType.UpdateMessage:
        return message ? replyFromMessage(callback.type, message) : undefined;
      case InteractionResponseType.DeferredChannelMessageWithSource:
        return message && (message.flags & MESSAGE_FLAG_LOADING) === 0
          ? replyFromMessage(callback.type, message)
          : undefined;
      case InteractionResponseType.DeferredMessageUpdate:
        return message && message.revisions.length > this.record.sourceRevisionsAtCallback
          ? replyFromMessage(callback.type, message)
          : undefined;
      case InteractionResponseType.ApplicationCommandAutocompleteResult: {
        const choices = (callback.data?.choices ?? []) as { name: string; value: string | number }[];
        return { ...emptyReply(callback.type), choices };
      }
      default:
        return {
          ...emptyReply(callback.type),
          content: typeof callback.data?.title === 'string' ? callback.data.title : '',
          components: (callback.data?.components ?? []) as APIMessageTopLevelComponent[],
        };
    }
  }
}

function emptyReply(callbackType: number): BotReply {
  return {
    callbackType,
    flags: 0,
    ephemeral: false,
    content: '',
    embeds: [],
    components: [],
    files: [],
    choices: null,
    message: null,
  };
}

function replyFromMessage(callbackType: number, message: FakeMessage): BotReply {
  return {
    callbackType,
    flags: message.flags,
    ephemeral: (message.flags & MESSAGE_FLAG_EPHEMERAL) !== 0,
    content: message.content,
    embeds: message.embeds as APIEmbed[],
    components: message.components as APIMessageTopLevelComponent[],
    files: message.attachments,
    choices: null,
    message,
  };
}

// ---- option encoding ---------------------------------------------------------------------------

export interface EncodedOption {
  type: number;
  name: string;
  value?: string | number | boolean;
  focused?: boolean;
  options?: EncodedOption[];
}

/**
 * Encodes option values the way Discord does, using the registered command's definitions:
 * `name` may name a subcommand (`follow add`) or a group and subcommand (`admin limit set`).
 * Autocomplete sends the focused option's partial text as a string.
 */
export function encodeOptions(
  command: RegisteredCommand,
  path: readonly string[],
  values: OptionValues,
  focused: string | null,
): EncodedOption[] {
  let definitions = command.options ?? [];
  const wrappers: { type: number; name: string }[] = [];
  for (const name of path) {
    const sub = definitions.find(
      (d) =>
        d.name === name &&
        (d.type === ApplicationCommandOptionType.Subcommand ||
          d.type === ApplicationCommandOptionType.SubcommandGroup),
    );
    if (!sub) throw new Error(`fake Discord: /${command.name} has no subcommand "${name}"`);
    wrappers.push({ type: sub.type, name: sub.name });
    definitions = sub.options ?? [];
  }
  let options: EncodedOption[] = Object.entries(values).map(([name, value]) =>
    encodeValue(command.name, definitions, name, value, focused === name),
  );
  if (focused !== null && !(focused in values)) {
    throw new Error(`fake Discord: the focused option "${focused}" needs a value (the text typed so far)`);
  }
  for (const wrapper of wrappers.reverse()) options = [{ ...wrapper, options }];
  return options;
}

function encodeValue(
  commandName: string,
  definitions: readonly CommandOptionDefinition[],
  name: string,
  value: string | number | boolean,
  focused: boolean,
): EncodedOption {
  const definition = definitions.find((d) => d.name === name);
  if (!definition) {
    const known = definitions.map((d) => d.name).join(', ') || 'none';
    throw new Error(`fake Discord: /${commandName} has no option "${name}" (options: ${known})`);
  }
  if (focused) return { type: definition.type, name, value: String(value), focused: true };
  const expected: Record<number, string> = {
    [ApplicationCommandOptionType.String]: 'string',
    [ApplicationCommandOptionType.Integer]: 'integer',
    [ApplicationCommandOptionType.Number]: 'number',
    [ApplicationCommandOptionType.Boolean]: 'boolean',
  };
  const kind = expected[definition.type];
  const actual = typeof value === 'number' && Number.isInteger(value) ? 'integer' : typeof value;
  const fits = kind === actual || (kind === 'number' && actual === 'integer');
  if (kind === undefined || !fits) {
    throw new Error(
      `fake Discord: option "${name}" of /${commandName} is ${kind ?? `type ${definition.type}`}, got ${actual}`,
    );
  }
  return { type: definition.type, name, value };
}
