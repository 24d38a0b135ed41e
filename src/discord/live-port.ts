// The relay's message port on Discord: live posts are normal channel messages sent with the bot
// token (an interaction token dies after 15 minutes; a game outlives it), edited in place.
import {
  AttachmentBuilder,
  ButtonStyle,
  ComponentType,
  DiscordAPIError,
  DiscordjsError,
  HTTPError,
  RateLimitError,
  type APIActionRowComponent,
  type APIButtonComponent,
  type APIEmbed,
  type Client,
  type MessageCreateOptions,
  type MessageEditOptions,
} from 'discord.js';
import { RetryLater } from '../relay/latest-wins.js';
import { BOARD_IMAGE, type LiveMessage } from '../relay/message.js';
import type { MessagePort } from '../relay/relay.js';
import { customId } from './custom-id.js';

/** Button ids: `<prefix>:<live post id>`. */
export const LIVE_BUTTONS = { flip: 'flip', pgn: 'pgn', stop: 'stop' } as const;

// Plain API objects rather than EmbedBuilder and ButtonBuilder: the builders validate every field
// on every call (building an error object for each optional check), about 2 % of the bot's CPU at
// 300 games.
// What goes in is ours (titles and lines of a few dozen characters), never a user's free text.
function render(message: LiveMessage, postId: number): MessageCreateOptions & MessageEditOptions {
  const image = message.image ?? { name: BOARD_IMAGE };
  const embed: APIEmbed = {
    title: message.title,
    description: message.lines.join('\n'),
    image: { url: `attachment://${image.name}` },
    ...(message.footer === null ? {} : { footer: { text: message.footer } }),
  };
  const files = [...(message.image === null ? [] : [message.image]), ...message.files].map(
    (f) => new AttachmentBuilder(f.data, { name: f.name }),
  );
  const button = (label: string, prefix: string, style: ButtonStyle.Secondary | ButtonStyle.Danger) => ({
    type: ComponentType.Button as const,
    custom_id: customId(prefix, postId),
    label,
    style,
  });
  const components: APIActionRowComponent<APIButtonComponent>[] = message.live
    ? [
        {
          type: ComponentType.ActionRow,
          components: [
            button('Flip', LIVE_BUTTONS.flip, ButtonStyle.Secondary),
            button('PGN', LIVE_BUTTONS.pgn, ButtonStyle.Secondary),
            button('Stop', LIVE_BUTTONS.stop, ButtonStyle.Danger),
          ],
        },
      ]
    : [];
  // With a new picture the files replace every old attachment. Without one, neither files nor an
  // attachments list is sent: Discord then keeps the attachments the message has (an empty
  // list, which discord.js sends for `files: []`, would delete the picture).
  if (message.image === null) return { embeds: [embed], components };
  return { embeds: [embed], components, files, attachments: [] };
}

/** Waits before retrying an edit Discord failed (1 s, doubling, at most a minute). */
const RETRY_FIRST_MS = 1_000;
const RETRY_MAX_MS = 60_000;

/** A failure that may pass: Discord's 5xx, a connection cut, reset or timed out. */
function passing(error: unknown): boolean {
  if (error instanceof HTTPError) return error.status >= 500;
  if (!(error instanceof Error) || error instanceof DiscordAPIError || error instanceof DiscordjsError)
    return false;
  // undici and node:net errors carry a string code: UND_ERR_SOCKET, ECONNRESET, EPIPE...
  const code = (error as { code?: unknown }).code;
  return error.name === 'AbortError' || (typeof code === 'string' && /^(UND_ERR_|E[A-Z]+$)/.test(code));
}

export class DiscordMessagePort implements MessagePort {
  /** Failed edits in a row per message, for the retry back-off. */
  private readonly failures = new Map<string, number>();

  constructor(private readonly client: Client) {}

  async post(postId: number, channelId: string, message: LiveMessage, threadName: string | null) {
    const channel = await this.client.channels.fetch(channelId);
    if (channel === null || !channel.isSendable()) throw new Error('that channel cannot take messages');
    let target = channel;
    let threadId: string | null = null;
    if (threadName !== null) {
      if (!('threads' in channel) || channel.isThread())
        throw new Error('threads cannot be made in that channel');
      const thread = await channel.threads.create({
        name: threadName.slice(0, 100),
        autoArchiveDuration: 1440,
      });
      target = thread;
      threadId = thread.id;
    }
    const sent = await target.send(render(message, postId));
    return { messageChannelId: target.id, messageId: sent.id, threadId };
  }

  async edit(postId: number, channelId: string, messageId: string, message: LiveMessage): Promise<void> {
    const channel = await this.client.channels.fetch(channelId);
    if (channel === null || !channel.isTextBased()) throw new Error('that channel is gone');
    try {
      await channel.messages.edit(messageId, render(message, postId));
      this.failures.delete(messageId);
    } catch (error) {
      // discord.js does not wait out an edit's rate limit (client.ts): the relay does.
      if (error instanceof RateLimitError) throw new RetryLater(error.retryAfter);
      // A 5xx after discord.js's own retries, or a connection cut (which it never retries): the
      // edit is tried again, so that no final position or PGN is lost to a passing failure. What
      // Discord refused (message deleted, permission gone) or what could not be sent stays failed.
      if (!passing(error)) throw error;
      const failed = (this.failures.get(messageId) ?? 0) + 1;
      this.failures.set(messageId, failed);
      throw new RetryLater(Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** (failed - 1)));
    }
  }

  async say(channelId: string, text: string): Promise<void> {
    const channel = await this.client.channels.fetch(channelId);
    if (channel === null || !channel.isSendable()) throw new Error('that channel cannot take messages');
    await channel.send({ content: text, allowedMentions: { parse: [] } });
  }
}
