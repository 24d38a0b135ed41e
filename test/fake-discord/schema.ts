// Every request body the fake receives is checked against Discord's own published description of
// its API (discord/discord-api-spec, as Zod schemas by the discord-api-spec package), so a body
// Discord would refuse is refused here too, the way Discord refuses it: 400, code 50035
// "Invalid Form Body", `errors` nested by the failing path with `_errors: [{ code, message }]`
// at each leaf (e.g. `components.0.components._errors` for a row of six buttons).
import {
  ApplicationCommandAutocompleteCallbackRequestSchema,
  ApplicationCommandUpdateRequestSchema,
  CreateMessageInteractionCallbackRequestSchema,
  CreateTextThreadWithMessageRequestSchema,
  CreateTextThreadWithoutMessageRequestSchema,
  IncomingWebhookRequestPartialSchema,
  IncomingWebhookUpdateRequestPartialSchema,
  LaunchActivityInteractionCallbackRequestSchema,
  MessageCreateRequestSchema,
  MessageEditRequestPartialSchema,
  ModalInteractionCallbackRequestSchema,
  PongInteractionCallbackRequestSchema,
  UpdateMessageInteractionCallbackRequestSchema,
} from 'discord-api-spec/zod';
import * as z from 'zod/mini';
import type { core } from 'zod/mini';
import { ApiError } from './http.js';

type Schema = z.ZodMiniType;
type Issue = core.$ZodIssue;

/** Discord's cap on commands in one bulk overwrite (100 chat-input commands per scope). */
const MAX_COMMANDS = 100;
const COMMAND_LIST = z.array(ApplicationCommandUpdateRequestSchema).check(z.maxLength(MAX_COMMANDS));

/** Interaction callback bodies by their `type` (the spec's union for the callback route). */
const CALLBACKS: Readonly<Record<number, Schema>> = {
  1: PongInteractionCallbackRequestSchema,
  4: CreateMessageInteractionCallbackRequestSchema,
  5: CreateMessageInteractionCallbackRequestSchema,
  6: UpdateMessageInteractionCallbackRequestSchema,
  7: UpdateMessageInteractionCallbackRequestSchema,
  8: ApplicationCommandAutocompleteCallbackRequestSchema,
  9: ModalInteractionCallbackRequestSchema,
  12: LaunchActivityInteractionCallbackRequestSchema,
};

/** The request schema of each route the fake serves with a body, by `METHOD template`. */
const BODIES: Readonly<Record<string, (body: unknown) => Schema>> = {
  'POST /channels/:channel_id/messages': () => MessageCreateRequestSchema,
  'PATCH /channels/:channel_id/messages/:message_id': () => MessageEditRequestPartialSchema,
  'POST /channels/:channel_id/threads': () => CreateTextThreadWithoutMessageRequestSchema,
  'POST /channels/:channel_id/messages/:message_id/threads': () => CreateTextThreadWithMessageRequestSchema,
  'POST /interactions/:interaction_id/:interaction_token/callback': (body) => {
    const type = (body as { type?: unknown } | null)?.type;
    // An unknown type fails on `type` against any of them: answer with the message one.
    return (
      (typeof type === 'number' ? CALLBACKS[type] : undefined) ??
      CreateMessageInteractionCallbackRequestSchema
    );
  },
  'POST /webhooks/:application_id/:interaction_token': () => IncomingWebhookRequestPartialSchema,
  'PATCH /webhooks/:application_id/:interaction_token/messages/:message_id': () =>
    IncomingWebhookUpdateRequestPartialSchema,
  'PUT /applications/:application_id/commands': () => COMMAND_LIST,
  'PUT /applications/:application_id/guilds/:guild_id/commands': () => COMMAND_LIST,
};

/**
 * The 50035 error Discord answers for this body, or null when the body is valid. A body on a route
 * without a schema is a gap in the fake: it throws (the fake answers 500 and records it).
 */
export function checkBody(method: string, template: string, body: unknown): ApiError | null {
  const schema = BODIES[`${method} ${template}`]?.(body);
  if (schema === undefined) {
    if (body === null) return null;
    throw new Error(`fake Discord: no schema for the body of ${method} ${template}`);
  }
  // reportInput: to tell a missing field (BASE_TYPE_REQUIRED) from a wrong one.
  const result = schema.safeParse(body, { reportInput: true });
  return result.success ? null : invalidFormBody(result.error.issues.flatMap((issue) => leaves(issue, [])));
}

/** Discord's 400 50035: each failure under its path, as `{ a: { 0: { b: { _errors: [...] } } } }`. */
export function invalidFormBody(failures: readonly Leaf[]): ApiError {
  const errors: Record<string, unknown> = {};
  for (const failure of failures) {
    let node = errors;
    for (const key of failure.path) {
      node[key] ??= {};
      node = node[key] as Record<string, unknown>;
    }
    ((node._errors ??= []) as unknown[]).push({ code: failure.code, message: failure.message });
  }
  return new ApiError(400, 50035, 'Invalid Form Body', errors);
}

/** The failing paths of a 50035 `errors` object, dotted (`components.0.components`). */
export function errorPaths(errors: unknown, prefix = ''): string[] {
  if (errors === null || typeof errors !== 'object') return [];
  return Object.entries(errors).flatMap(([key, value]) =>
    key === '_errors' ? [prefix || '_root'] : errorPaths(value, prefix ? `${prefix}.${key}` : key),
  );
}

export interface Leaf {
  path: string[];
  code: string;
  message: string;
}

/**
 * The issues to report for one Zod issue. A union (a component, an option) is reported through
 * the branch whose `type` matched, as Discord reports the component it recognised; when no branch
 * matched, the value itself is wrong.
 */
function leaves(issue: Issue, prefix: readonly string[]): Leaf[] {
  const path = [...prefix, ...issue.path.map(String)];
  if (issue.code === 'invalid_union') {
    const matching = issue.errors.filter(
      (branch) => !branch.some((i) => i.code === 'invalid_value' && i.path.join('.') === 'type'),
    );
    const best = matching.sort((a, b) => a.length - b.length)[0];
    if (best !== undefined && best.length > 0) return best.flatMap((i) => leaves(i, path));
    return [{ path, code: 'UNION_TYPE_CHOICES', message: 'Value is not one of the accepted types.' }];
  }
  return [{ path, ...describe(issue) }];
}

/** Discord's code and wording for one failed check. */
function describe(issue: Issue): { code: string; message: string } {
  switch (issue.code) {
    case 'too_big':
      return issue.origin === 'string' || issue.origin === 'array'
        ? { code: 'BASE_TYPE_MAX_LENGTH', message: `Must be ${issue.maximum} or fewer in length.` }
        : { code: 'NUMBER_TYPE_MAX', message: `Value should be less than or equal to ${issue.maximum}.` };
    case 'too_small':
      return issue.origin === 'string' || issue.origin === 'array'
        ? { code: 'BASE_TYPE_MIN_LENGTH', message: `Must be ${issue.minimum} or more in length.` }
        : { code: 'NUMBER_TYPE_MIN', message: `Value should be greater than or equal to ${issue.minimum}.` };
    case 'invalid_type':
      return issue.input === undefined
        ? { code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }
        : {
            code: `BASE_TYPE_${issue.expected.toUpperCase()}`,
            message: `Must be of type ${issue.expected}.`,
          };
    case 'invalid_value':
      return {
        code: 'BASE_TYPE_CHOICES',
        message: `Value must be one of (${issue.values.map((v) => JSON.stringify(v)).join(', ')}).`,
      };
    case 'invalid_format':
      return { code: 'BASE_TYPE_FORMAT', message: `Value is not in the ${issue.format} format.` };
    default:
      return { code: 'BASE_TYPE_INVALID', message: issue.message };
  }
}
