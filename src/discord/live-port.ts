// The relay's message port on Discord: live posts are normal channel messages sent with the bot
// token (an interaction token dies after 15 minutes; a game outlives it), edited in place.
import { ALT_TEXT_MAX } from '../../render/index.js';
import { backoffDelay, type BackoffOptions } from '../backoff.js';
import {
  AttachmentBuilder,
  ButtonStyle,
  ComponentType,
  DiscordAPIError,
  PermissionFlagsBits,
  RateLimitError,
  RequestMethod,
  Routes,
  SnowflakeUtil,
  type APIMessage,
  type RequestData,
  type TextBasedChannel,
  type APIActionRowComponent,
  type APIButtonComponent,
  type APIEmbed,
  type Client,
  type MessageCreateOptions,
  type MessageEditOptions,
} from 'discord.js';
import { Refused, RetryLater } from '../relay/latest-wins.js';
import type { EditPace } from '../relay/schedule.js';
import {
  BOARD_IMAGE,
  PARTNER_BOARD,
  PARTNER_IMAGE,
  type LiveAttachment,
  type LiveMessage,
  type Outcome,
} from '../relay/message.js';
import type { PostPort } from '../relay/ports.js';
import { cleanText, truncate } from '../text.js';
import { customId } from './custom-id.js';
import { makeMultipart } from './multipart.js';
import { postNonce } from './nonce.js';
import { passingFailure } from './passing.js';
import type { RestGovernor } from './governor.js';

/** Button ids: `<prefix>:<live post id>`. */
export const LIVE_BUTTONS = {
  flip: 'flip',
  pgn: 'pgn',
  stop: 'stop',
  engine: 'engine',
  arrow: 'arrow',
} as const;

/** The final post's button: `clip:<live post id>`, the game's last moves as a GIF (commands/clip.ts). */
export const CLIP_BUTTON = 'clip';

// Plain API objects rather than EmbedBuilder and ButtonBuilder: the builders validate every field
// on every call (building an error object for each optional check), about 2 % of the bot's CPU at
// 300 games.
// Names and end texts come from FICS and ChessLive! files: every text is cut to Discord's limits
// here, so that no input makes Discord refuse a post or its final edit.
/** A live post's message as Discord's API takes it: the JSON and the files it refers to. */
export interface MessageBody {
  json: {
    embeds: APIEmbed[];
    components: APIActionRowComponent<APIButtonComponent>[];
    /** One entry per file (`id` is its index), with its description; absent without files. */
    attachments?: { id: string; description?: string }[];
  };
  files: LiveAttachment[];
}

export function makeMessageBody(message: LiveMessage, postId: number, at: number): MessageBody {
  const image = message.image ?? { name: BOARD_IMAGE };
  const color = OUTCOME_COLOURS[message.outcome ?? (message.live ? 'live' : 'unknown')];
  const embed: APIEmbed = {
    title: truncate(cleanText(message.title), EMBED_LIMITS.title),
    // The title opens the game's live page while there is one (Discord takes URLs of 2,048).
    ...(message.watchUrl !== undefined && message.watchUrl.length <= 2_048 ? { url: message.watchUrl } : {}),
    color,
    // When this position was shown: readers see how fresh the board is.
    timestamp: new Date(at).toISOString(),
    description: truncate(message.lines.map(cleanText).join('\n'), EMBED_LIMITS.description),
    image: { url: `attachment://${image.name}` },
    ...(message.footer === null
      ? {}
      : { footer: { text: truncate(cleanText(message.footer), EMBED_LIMITS.footer) } }),
  };
  // Bughouse: the partner board in a second embed, its picture its own. It has no `url`: Discord
  // merges embeds sharing one into a single gallery.
  // An edit keeping the pictures keeps the partner's embed as the post's stored pair says.
  const partner: APIEmbed[] = message.partner
    ? [partnerEmbed(message.partner.title, message.partner.image.name, color)]
    : message.keeps === 'pair'
      ? [partnerEmbed(PARTNER_BOARD, PARTNER_IMAGE, color)]
      : [];
  const pictures =
    message.image === null ? [] : [message.image, ...(message.partner ? [message.partner.image] : [])];
  const files = [...pictures, ...message.files].map((f): LiveAttachment =>
    f.description === undefined
      ? { name: f.name, data: f.data }
      : // What a screen reader says for the picture (render/alt-text.ts).
        { ...f, description: truncate(cleanText(f.description), EMBED_LIMITS.attachmentDescription) },
  );
  const button = (
    label: string,
    prefix: string,
    style: ButtonStyle.Secondary | ButtonStyle.Danger | ButtonStyle.Primary,
  ) => ({
    type: ComponentType.Button as const,
    custom_id: customId(prefix, postId),
    label,
    style,
  });
  // A link button opens the game's live web page; Discord takes URLs of up to 512 characters.
  const watch: APIButtonComponent[] =
    message.watchUrl !== undefined && message.watchUrl.length <= 512
      ? [{ type: ComponentType.Button, style: ButtonStyle.Link, label: 'Watch live', url: message.watchUrl }]
      : [];
  const analyse: APIButtonComponent[] =
    message.analysisUrl !== undefined && message.analysisUrl.length <= 512
      ? [
          {
            type: ComponentType.Button,
            style: ButtonStyle.Link,
            label: 'Analyse on lichess',
            url: message.analysisUrl,
          },
        ]
      : [];
  // Discord takes at most five buttons in a row: the post's own buttons and its link in one, the
  // engine toggles (with an engine, KIBITZ_ENGINE=on; lit while on) in a second; the final
  // message of a game that ended (the one with its files) has a Clip button (its last moves as a
  // GIF), and any final message its link to lichess's analysis board; a stopped post has neither.
  const rows: APIButtonComponent[][] = message.live
    ? [
        [
          button('Flip', LIVE_BUTTONS.flip, ButtonStyle.Secondary),
          button('PGN', LIVE_BUTTONS.pgn, ButtonStyle.Secondary),
          button('Stop', LIVE_BUTTONS.stop, ButtonStyle.Danger),
          ...watch,
        ],
        message.engine === undefined
          ? []
          : [
              button('Engine', LIVE_BUTTONS.engine, lit(message.engine.eval)),
              ...(message.engine.eval
                ? [button('Best move', LIVE_BUTTONS.arrow, lit(message.engine.arrow))]
                : []),
            ],
      ]
    : [
        [
          ...(message.files.length > 0
            ? [button('Clip last moves', CLIP_BUTTON, ButtonStyle.Secondary)]
            : []),
          ...analyse,
        ],
      ];
  const components: APIActionRowComponent<APIButtonComponent>[] = rows
    .filter((row) => row.length > 0)
    .map((row) => ({ type: ComponentType.ActionRow, components: row }));
  // With a new picture the files replace every old attachment (the list names them all). Without
  // one, neither files nor an attachments list is sent: Discord then keeps the attachments the
  // message has (an empty list would delete the picture).
  const embeds = [embed, ...partner];
  if (message.image === null) return { json: { embeds, components }, files: [] };
  const attachments = files.map((f, index) => ({
    id: String(index),
    ...(f.description === undefined ? {} : { description: f.description }),
  }));
  return { json: { embeds, components, attachments }, files };
}

function partnerEmbed(title: string, picture: string, color: number): APIEmbed {
  return {
    title: truncate(cleanText(title), EMBED_LIMITS.title),
    color,
    image: { url: `attachment://${picture}` },
  };
}

/** The same message as discord.js's options, for its replies (a flipped board, a continuation). */
export function makeDiscordMessage(
  message: LiveMessage,
  postId: number,
  at: number,
): MessageCreateOptions & MessageEditOptions {
  const { json, files } = makeMessageBody(message, postId, at);
  const { embeds, components } = json;
  if (json.attachments === undefined) return { embeds, components };
  return {
    embeds,
    components,
    files: files.map(
      (f) =>
        new AttachmentBuilder(f.data, {
          name: f.name,
          ...(f.description === undefined ? {} : { description: f.description }),
        }),
    ),
    attachments: [],
  };
}

/**
 * A REST request carrying a message: JSON alone, or with its files one multipart body built at
 * once (multipart.ts). Player handles and game text never ping anyone.
 */
function messageRequest(message: MessageBody, extra: Record<string, unknown> = {}): RequestData {
  const json = { ...message.json, allowed_mentions: { parse: [] }, ...extra };
  if (message.json.attachments === undefined) return { body: json };
  const { body, contentType } = makeMultipart(JSON.stringify(json), message.files);
  return { body, passThroughBody: true, headers: { 'Content-Type': contentType } };
}

/** Embed colours by how the game stands: blurple while live, light or dark for the winner. */
export const OUTCOME_COLOURS: Readonly<Record<Outcome, number>> = {
  live: 0x5865f2,
  white: 0xf0f0f0,
  black: 0x23272a,
  draw: 0x99aab5,
  unknown: 0x4f545c,
};

function lit(on: boolean): ButtonStyle.Primary | ButtonStyle.Secondary {
  return on ? ButtonStyle.Primary : ButtonStyle.Secondary;
}

/**
 * Discord's limits on what one message carries (UTF-16 code units). The texts of all its embeds
 * together stay under 6,000 (message#embed-object-embed-limits): the game's title, description and
 * footer, 256 + 4,096 + 1,024 (the footer is cut shorter than its own 2,048 for that), and a
 * bughouse partner board's title, 256: 5,632.
 */
export const EMBED_LIMITS = {
  title: 256,
  description: 4_096,
  footer: 1_024,
  content: 2_000,
  threadName: 100,
  /** An attachment's alt text. */
  attachmentDescription: ALT_TEXT_MAX,
};

/**
 * A board older than this continues in a new message: Discord limits edits of messages older
 * than an hour to an unpublished, low rate (30046), and a standard game lasts two hours or more.
 */
export const CONTINUE_AFTER_MS = 50 * 60_000;

/**
 * Discord allows a bot 50 requests a second over all its connections ("All bots can make up to 50
 * requests per second", rate-limits#global-rate-limit); interaction answers do not count. Posts and
 * edits take 40 of them: the rest is for thread creations, notices and command registration, and
 * for the replies to commands, which discord.js counts in its own 50 (only the first answer to an
 * interaction is outside its count; at 300 games, 45 made it wait 122 times in two minutes).
 */
export const POSTS_AND_EDITS_PER_SECOND = 40;

/**
 * The pace of live posts and edits on Discord, for the relay's scheduler: `perSecond` is this
 * process's share (shards of one bot split the 40 by their shard count, shard.ts shareOf; a
 * fleet's processes by demand). A
 * channel's message edits share one bucket, announced as 5 per 5 s (the fake does the same);
 * the window is kept a little longer, as answers reach Discord later than turns are given. While
 * the governor holds edits back bot-wide, no turn is given at all.
 */
export function discordEditPace(perSecond: () => number, governor: RestGovernor | null): EditPace {
  return {
    // Read at each turn: a fleet's processes share the bot's rate by demand (fleet/rate-share.ts).
    get perSecond() {
      return perSecond();
    },
    burst: 2,
    perBucket: { limit: 5, windowMs: 5_250 },
    // About a second of Discord's answers: enough to keep the rate when Discord answers slowly.
    get inFlight() {
      return Math.max(4, Math.ceil(perSecond()));
    },
    ...(governor === null ? {} : { pausedForMs: () => governor.pausedForMs() }),
  };
}

/** Why Discord refused a post for good, in words for the channel and the log. */
const REFUSALS: Record<number, string> = {
  10003: 'the channel was deleted',
  10004: 'Kibitz is no longer in this server',
  10008: 'the board message was deleted',
  50001: 'Kibitz can no longer see this channel',
  50013: 'Kibitz lacks a permission it needs in this channel',
  50083: 'the thread was archived',
  40005: 'the message was too large for Discord',
  50035: 'Discord refused the message as malformed',
};

/** Waits before retrying an edit Discord failed (1 s, doubling, at most a minute). */
const EDIT_RETRY: BackoffOptions = { initialMs: 1_000, maxMs: 60_000, factor: 2, jitter: 0 };

/** Tries of a new post before its failure is reported (its waits: 1, 2 and 4 s). */
export const POST_ATTEMPTS = 4;

export class DiscordPostPort implements PostPort {
  /** Failed edits in a row per message, for the retry back-off. */
  private readonly failures = new Map<string, number>();

  constructor(
    private readonly client: Client,
    /** Holds edits back bot-wide while Discord refuses requests (governor.ts). */
    private readonly governor: RestGovernor | null = null,
    /** The clock messages' ages are measured by. */
    private readonly now: () => number = Date.now,
    /** Waits before a post is tried again (a test's clock). */
    private readonly wait: (ms: number) => Promise<void> = (ms) =>
      new Promise((resolve) => setTimeout(resolve, ms)),
  ) {}

  async post(postId: number, channelId: string, message: LiveMessage, threadName: string | null) {
    // Cached mostly (the Guilds intent); a GET when not, tried again as the post is.
    const channel = await this.tried(() => this.client.channels.fetch(channelId));
    if (channel === null || !channel.isSendable()) throw new Error('that channel cannot take messages');
    let target = channel;
    let threadId: string | null = null;
    if (threadName !== null) {
      if (!('threads' in channel) || channel.isThread())
        throw new Error('threads cannot be made in that channel');
      const thread = await channel.threads.create({
        name: truncate(cleanText(threadName), EMBED_LIMITS.threadName),
        autoArchiveDuration: 1440,
      });
      target = thread;
      threadId = thread.id;
    }
    // One nonce for every try: Discord returns the message the first try made, if it made one,
    // rather than a second (enforce_nonce), so a try whose answer was lost is never a duplicate.
    const nonce = postNonce();
    const request = messageRequest(makeMessageBody(message, postId, this.now()), {
      nonce,
      enforce_nonce: true,
    });
    // Straight to REST: discord.js would build a Message object from the answer, only for its id.
    const sent = await this.tried(async () => {
      const made = (await this.client.rest.post(Routes.channelMessages(target.id), request)) as APIMessage;
      return made.id;
    });
    return { messageChannelId: target.id, messageId: sent, threadId };
  }

  /**
   * Runs a send again after a connection cut or a 5xx (EPIPE, ECONNRESET, no answer: under load a
   * kept-alive connection may be closed by the other side just as a request goes out), after 1 s,
   * 2 s, 4 s; what Discord refused is thrown at once, and so is the last failure. (A thread's
   * creation is not run again: it has no nonce, and a try whose answer was lost would make a
   * second thread. The member who asked is told the post failed.)
   */
  private async tried<T>(send: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await send();
      } catch (error) {
        if (attempt + 1 >= POST_ATTEMPTS || !passingFailure(error)) throw error;
        await this.wait(backoffDelay(EDIT_RETRY, attempt));
      }
    }
  }

  async edit(
    postId: number,
    channelId: string,
    messageId: string,
    message: LiveMessage,
  ): Promise<{ continuedIn: string } | void> {
    // Board edits are what can wait when Discord is refusing requests bot-wide.
    const paused = this.governor?.admit() ?? 0;
    if (paused > 0) throw new RetryLater(paused);
    try {
      const channel = await this.client.channels.fetch(channelId);
      if (channel === null || !channel.isTextBased())
        throw new Refused(REFUSALS[10003]!, { code: 10003, tooLarge: false, canNotify: false });
      if (
        message.image !== null &&
        this.now() - SnowflakeUtil.timestampFrom(messageId) >= CONTINUE_AFTER_MS
      ) {
        const continued = await this.continueIn(channel, messageId, message, postId);
        this.failures.delete(messageId);
        return { continuedIn: continued };
      }
      const body = makeMessageBody(message, postId, this.now());
      // An edit that keeps the pictures (a game gone while Kibitz was offline) keeps the embeds
      // showing them past the game's own: a bughouse partner.png would otherwise show loose. The
      // post's stored pair says which (`keeps`); only a post stored before it was reads them.
      if (message.image === null && message.keeps === 'shown') {
        // Without Read Message History (asked for, not checked) the end goes out all the same.
        const shown = await channel.messages.fetch(messageId).catch((error: unknown) => {
          if (error instanceof DiscordAPIError && error.status === 403) return null;
          throw error;
        });
        const color = body.json.embeds[0]?.color;
        const kept = shown?.embeds.slice(1) ?? [];
        body.json.embeds.push(
          ...kept.map((e) => ({ ...e.toJSON(), ...(color === undefined ? {} : { color }) })),
        );
      }
      // Straight to REST: discord.js would build a Message object from every answer (its message
      // cache is off, client.ts), and its FormData costs a socket write per part.
      // Its answer (the whole message) is not read: nothing here needs it (buffered-request.ts).
      await this.client.rest.queueRequest({
        fullRoute: Routes.channelMessage(channel.id, messageId),
        method: RequestMethod.Patch,
        ...messageRequest(body),
      });
      this.failures.delete(messageId);
    } catch (error) {
      if (error instanceof Refused) throw error;
      // What Discord refused for good (message deleted, permission gone, too large) ends the post.
      if (error instanceof DiscordAPIError && error.status !== 429 && error.status < 500)
        throw this.refusal(error, channelId);
      // A 429 that said how long to wait: the relay waits that long (discord.js does not, for an
      // edit: client.ts), then sends the newest position.
      const given = error instanceof RateLimitError ? error.retryAfter : 0;
      if (given > 0) throw new RetryLater(Math.max(given, this.governor?.pausedForMs() ?? 0));
      // A 429 without a wait (Discord's edge refusing a banned IP), a 5xx or a connection cut
      // (discord.js resends neither: client.ts): tried again after a back-off that starts at a
      // second, so that no final position or PGN is lost to a passing failure.
      if (!(error instanceof RateLimitError) && !passingFailure(error)) throw error;
      const failed = (this.failures.get(messageId) ?? 0) + 1;
      this.failures.set(messageId, failed);
      const backoff = backoffDelay(EDIT_RETRY, failed - 1);
      throw new RetryLater(Math.max(backoff, this.governor?.pausedForMs() ?? 0));
    }
  }

  /**
   * Discord allows edits of messages older than an hour only rarely (30046): before a board's
   * message is that old, the board goes on in a new message, and the old one becomes a link to it
   * (or, when that edit is refused, is deleted).
   */
  private async continueIn(
    channel: TextBasedChannel,
    messageId: string,
    message: LiveMessage,
    postId: number,
  ): Promise<string> {
    if (!channel.isSendable())
      throw new Refused(REFUSALS[50013]!, { code: 50013, tooLarge: false, canNotify: false });
    const sent = await channel.send(makeDiscordMessage(message, postId, this.now()));
    const link: APIEmbed = {
      title: truncate(cleanText(message.title), EMBED_LIMITS.title),
      description: `The board goes on in a newer message: ${sent.url}`,
      footer: { text: 'continued below' },
    };
    // The old message loses its picture and buttons. Discord may refuse the edit: after a long
    // downtime the message is past the hour, whose edits it rations (30046). Deleting is not
    // rationed, and no second board with live buttons is left behind.
    await channel.messages
      .edit(messageId, { embeds: [link], components: [], attachments: [] })
      .catch(() => channel.messages.delete(messageId))
      .catch(() => undefined);
    return sent.id;
  }

  private refusal(error: DiscordAPIError, channelId: string): Refused {
    const code = typeof error.code === 'number' ? error.code : 0;
    const tooLarge = error.status === 413 || code === 40005 || code === 50035;
    const reason = REFUSALS[code] ?? `Discord refused it (${error.status}, code ${code})`;
    // Only where a notice can still go: the message is gone or too large, or a permission other
    // than sending is missing; never where the channel itself is gone or out of sight.
    const canNotify = (code === 10008 || code === 50013 || tooLarge) && this.canSay(channelId);
    return new Refused(reason, { code, tooLarge, canNotify });
  }

  /** The bot may send a plain message in the channel, by the permissions it has cached. */
  private canSay(channelId: string): boolean {
    const channel = this.client.channels.cache.get(channelId);
    if (channel === undefined || !channel.isSendable() || channel.isDMBased()) return false;
    const me = this.client.user;
    const need = channel.isThread()
      ? PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessagesInThreads
      : PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages;
    return (
      me !== null &&
      channel.permissionsFor(me)?.has(need) === true &&
      !(channel.isThread() && channel.archived === true)
    );
  }

  async say(channelId: string, text: string): Promise<void> {
    const channel = await this.client.channels.fetch(channelId);
    if (channel === null || !channel.isSendable()) throw new Error('that channel cannot take messages');
    await channel.send({ content: truncate(text, EMBED_LIMITS.content), allowedMentions: { parse: [] } });
  }
}
