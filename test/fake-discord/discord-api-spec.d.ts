// discord-api-spec ships its Zod schemas as plain JavaScript (its "types" entry points at the .js
// file): these are the ones the fake uses, typed as Zod schemas.
declare module 'discord-api-spec/zod' {
  import type { ZodMiniType } from 'zod/mini';

  export const ApplicationCommandAutocompleteCallbackRequestSchema: ZodMiniType;
  export const ApplicationCommandUpdateRequestSchema: ZodMiniType;
  export const CreateMessageInteractionCallbackRequestSchema: ZodMiniType;
  export const CreateTextThreadWithMessageRequestSchema: ZodMiniType;
  export const CreateTextThreadWithoutMessageRequestSchema: ZodMiniType;
  export const IncomingWebhookRequestPartialSchema: ZodMiniType;
  export const IncomingWebhookUpdateRequestPartialSchema: ZodMiniType;
  export const LaunchActivityInteractionCallbackRequestSchema: ZodMiniType;
  export const MessageCreateRequestSchema: ZodMiniType;
  export const MessageEditRequestPartialSchema: ZodMiniType;
  export const ModalInteractionCallbackRequestSchema: ZodMiniType;
  export const PongInteractionCallbackRequestSchema: ZodMiniType;
  export const UpdateMessageInteractionCallbackRequestSchema: ZodMiniType;
}
