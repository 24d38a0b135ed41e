export { BLOCKED_BODY, FakeDiscord, OLD_MESSAGE_MS } from './fake-discord.js';
export type {
  ChannelInit,
  Fault,
  FakeDiscordOptions,
  GuildInit,
  ImmediateRetry,
  OverwriteInit,
  RequestMatch,
} from './fake-discord.js';
export type { GatewayLogEntry } from './gateway.js';
export type { RecordedRequest, UploadedFile } from './http.js';
export type {
  BotReply,
  InteractionCallback,
  InteractionHandle,
  Invoker,
  OptionValues,
} from './interactions.js';
export type {
  ApiUser,
  FakeAttachment,
  FakeChannel,
  FakeGuild,
  FakeMessage,
  FakeRole,
  MessageRevision,
  RegisteredCommand,
} from './model.js';
export { MESSAGE_FLAG_EPHEMERAL, MESSAGE_FLAG_LOADING } from './model.js';
export { EMBED_LIMITS, MAX_UPLOAD_BYTES } from './messages.js';
export { ALL_PERMISSIONS, DEFAULT_BOT_PERMISSIONS, DEFAULT_EVERYONE_PERMISSIONS } from './permissions.js';
export { DEFAULT_RATE_LIMITS } from './rate-limits.js';
export type { BucketSpec, RateLimitConfig } from './rate-limits.js';
