// Creating and editing messages from a REST payload, with Discord's validation (content length,
// empty messages, attachment counts and size) and its attachment rules for edits.
import type { UploadedFile } from './http.js';
import { ApiError } from './http.js';
import type { ApiUser, FakeAttachment, FakeMessage, FakeState } from './model.js';
import { MESSAGE_FLAG_EPHEMERAL, MESSAGE_FLAG_LOADING } from './model.js';
import { invalidFormBody } from './schema.js';

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
const SUPPRESS_EMBEDS = 4;
const SUPPRESS_NOTIFICATIONS = 4096;

export interface MessagePayload {
  content?: unknown;
  embeds?: unknown;
  components?: unknown;
  flags?: unknown;
  attachments?: unknown;
  nonce?: unknown;
  enforce_nonce?: unknown;
}

export interface NewMessage {
  channelId: string;
  guildId: string | null;
  author: ApiUser;
  type: number;
  interaction: FakeMessage['interaction'];
  webhookId: string | null;
}

export function createMessage(
  state: FakeState,
  init: NewMessage,
  payload: MessagePayload,
  files: readonly UploadedFile[],
  extraFlags = 0,
): FakeMessage {
  const content = readContent(payload);
  const embeds = checkEmbeds(readList(payload.embeds, 'embeds', 10) ?? []);
  const components = readList(payload.components, 'components', 40) ?? [];
  const attachments = newAttachments(state, payload, files);
  if (
    content === '' &&
    embeds.length === 0 &&
    components.length === 0 &&
    attachments.length === 0 &&
    extraFlags === 0
  ) {
    throw new ApiError(400, 50006, 'Cannot send an empty message');
  }
  const allowed = MESSAGE_FLAG_EPHEMERAL | SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS;
  const flags = ((typeof payload.flags === 'number' ? payload.flags : 0) & allowed) | extraFlags;
  const now = state.now();
  const message: FakeMessage = {
    id: state.ids.next(now),
    ...init,
    content,
    embeds,
    components,
    attachments,
    flags,
    createdAt: now,
    editedAt: null,
    deleted: false,
    revisions: [],
    threadId: null,
  };
  noteUnresolvedPictures(state, message.id, embeds, attachments);
  snapshot(message, now);
  state.messages.set(message.id, message);
  const channel = state.channels.get(init.channelId);
  if (channel && (flags & MESSAGE_FLAG_EPHEMERAL) === 0) {
    channel.lastMessageId = message.id;
    channel.messageCount += 1;
  }
  return message;
}

/**
 * Applies an edit. Fields left out stay as they were. `attachments`, when present, lists the
 * attachments to keep: existing ones by id and new uploads by their `files[n]` index; without
 * it, existing attachments stay and uploads are added.
 */
export function editMessage(
  state: FakeState,
  message: FakeMessage,
  payload: MessagePayload,
  files: readonly UploadedFile[],
): FakeMessage {
  if (message.deleted) throw new ApiError(404, 10008, 'Unknown Message');
  // Validate everything before changing anything: a refused edit leaves the message as it was.
  const content = 'content' in payload ? readContent(payload) : message.content;
  const embeds = checkEmbeds(readList(payload.embeds, 'embeds', 10) ?? message.embeds);
  const components = readList(payload.components, 'components', 40) ?? message.components;
  const uploads = newAttachments(state, payload, files);
  let attachments: FakeAttachment[];
  if (Array.isArray(payload.attachments)) {
    const keep = new Set(payload.attachments.map((a: { id?: unknown }) => String(a?.id)));
    attachments = [...message.attachments.filter((a) => keep.has(a.id)), ...uploads];
  } else {
    attachments = [...message.attachments, ...uploads];
  }
  if (attachments.length > 10) {
    throw formError('attachments', 'BASE_TYPE_MAX_LENGTH', 'Must be 10 or fewer in length.');
  }
  if (content === '' && embeds.length === 0 && components.length === 0 && attachments.length === 0) {
    throw new ApiError(400, 50006, 'Cannot send an empty message');
  }
  noteUnresolvedPictures(state, message.id, embeds, attachments);
  noteLoosePictures(state, message.id, message.embeds, embeds, attachments);
  const now = state.now();
  message.content = content;
  message.embeds = embeds;
  message.components = components;
  message.attachments = attachments;
  if (typeof payload.flags === 'number') {
    message.flags = (message.flags & ~SUPPRESS_EMBEDS) | (payload.flags & SUPPRESS_EMBEDS);
  }
  // The first edit of a deferred reply ends its "thinking..." state.
  message.flags &= ~MESSAGE_FLAG_LOADING;
  message.editedAt = now;
  snapshot(message, now);
  return message;
}

function snapshot(message: FakeMessage, at: number): void {
  message.revisions.push({
    at,
    content: message.content,
    embeds: message.embeds,
    components: message.components,
    attachments: message.attachments,
    flags: message.flags,
  });
}

/** Discord's embed limits (characters, counted in UTF-16 code units as Discord does). */
export const EMBED_LIMITS = {
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  author: 256,
  total: 6000,
} as const;

interface EmbedText {
  title?: unknown;
  description?: unknown;
  fields?: { name?: unknown; value?: unknown }[] | null;
  footer?: { text?: unknown } | null;
  author?: { name?: unknown } | null;
}

/**
 * Refuses embeds over 6,000 characters in all with 50035, as Discord does. Each field's own limit
 * is in Discord's schema, checked before this (schema.ts).
 */
function checkEmbeds(embeds: unknown[]): unknown[] {
  const length = (value: unknown): number => (typeof value === 'string' ? value.length : 0);
  const total = embeds.reduce<number>((sum, raw) => {
    const embed = (raw ?? {}) as EmbedText;
    return (
      sum +
      length(embed.title) +
      length(embed.description) +
      length(embed.footer?.text) +
      length(embed.author?.name) +
      (embed.fields ?? []).reduce((n, field) => n + length(field.name) + length(field.value), 0)
    );
  }, 0);
  if (total > EMBED_LIMITS.total)
    throw formError('embeds', 'MAX_EMBED_SIZE_EXCEEDED', 'Embed size exceeds maximum size of 6000');
  return embeds;
}

/** The fields of an embed that may name an attachment (`attachment://name`). */
const PICTURE_FIELDS = ['image', 'thumbnail', 'author', 'footer'] as const;

/** The attachment names an embed's pictures give (`attachment://<name>`), with where each is. */
function embedPictures(embeds: readonly unknown[]): { at: string; name: string }[] {
  const pictures: { at: string; name: string }[] = [];
  for (const [i, raw] of embeds.entries()) {
    const embed = (raw ?? {}) as Record<string, { url?: unknown; icon_url?: unknown } | undefined>;
    for (const field of PICTURE_FIELDS) {
      const url = embed[field]?.url ?? embed[field]?.icon_url;
      if (typeof url === 'string' && url.startsWith('attachment://'))
        pictures.push({ at: `embeds.${i}.${field}`, name: url.slice('attachment://'.length) });
    }
  }
  return pictures;
}

/**
 * An embed picture names an uploaded file of its message by `attachment://<filename>`
 * (reference#uploading-files). Discord takes a message whose name matches none, but shows no
 * picture in the embed: the file, if any, shows below it as a loose attachment (discordgo#810,
 * discord.js#7253). Noted, not refused, so that a test world can fail on it (test/e2e/harness.ts).
 */
function noteUnresolvedPictures(
  state: FakeState,
  where: string,
  embeds: readonly unknown[],
  attachments: readonly FakeAttachment[],
): void {
  const names = new Set(attachments.map((a) => a.filename));
  for (const { at, name } of embedPictures(embeds))
    if (!names.has(name)) state.unresolvedPictures.push(`${where} ${at}: attachment://${name}`);
}

/**
 * An attachment an embed showed before an edit, kept by the edit but shown by no embed after it:
 * Discord shows it as a loose file under the message (a bughouse post's partner.png once its
 * embed is gone). Noted, not refused, so that a test world can fail on it (test/e2e/harness.ts).
 */
function noteLoosePictures(
  state: FakeState,
  where: string,
  before: readonly unknown[],
  after: readonly unknown[],
  attachments: readonly FakeAttachment[],
): void {
  const shown = new Set(embedPictures(after).map((p) => p.name));
  const kept = new Set(attachments.map((a) => a.filename));
  for (const name of new Set(embedPictures(before).map((p) => p.name)))
    if (kept.has(name) && !shown.has(name)) state.loosePictures.push(`${where}: ${name}`);
}

function readContent(payload: MessagePayload): string {
  const content = payload.content ?? '';
  if (typeof content !== 'string') throw formError('content', 'BASE_TYPE_STRING', 'Must be a string.');
  if (content.length > 2000)
    throw formError('content', 'BASE_TYPE_MAX_LENGTH', 'Must be 2000 or fewer in length.');
  return content;
}

function readList(value: unknown, field: string, max: number): unknown[] | undefined {
  if (value === undefined || value === null) return value === null ? [] : undefined;
  if (!Array.isArray(value)) throw formError(field, 'BASE_TYPE_ARRAY', 'Must be an array.');
  if (value.length > max)
    throw formError(field, 'BASE_TYPE_MAX_LENGTH', `Must be ${max} or fewer in length.`);
  return value;
}

function newAttachments(
  state: FakeState,
  payload: MessagePayload,
  files: readonly UploadedFile[],
): FakeAttachment[] {
  if (files.length > 10) throw formError('files', 'BASE_TYPE_MAX_LENGTH', 'Must be 10 or fewer in length.');
  const described = Array.isArray(payload.attachments)
    ? (payload.attachments as { id?: unknown; filename?: unknown; description?: unknown }[])
    : [];
  // The limit is on the request's uploads together, not on each file.
  const total = files.reduce((sum, file) => sum + file.bytes.length, 0);
  if (total > MAX_UPLOAD_BYTES) throw new ApiError(413, 40005, 'Request entity too large');
  return files.map((file) => {
    const meta = described.find((a) => String(a?.id) === String(file.index));
    // Its description's length is Discord's schema's rule (schema.ts checks it before this).
    return {
      id: state.ids.next(),
      filename: typeof meta?.filename === 'string' ? meta.filename : file.filename,
      contentType: file.contentType,
      description: typeof meta?.description === 'string' ? meta.description : null,
      bytes: file.bytes,
    };
  });
}

export function formError(field: string, code: string, message: string): ApiError {
  return invalidFormBody([{ path: field.split('.'), code, message }]);
}
