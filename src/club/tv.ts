// FICS TV: each guild may have one channel that always shows the most interesting game in
// progress (src/game/tv-score.ts). When its game ends (its post gets its final edit like any
// post), the channel gets the next best game as a new post and a one-line "Now showing" note: a
// new message, not an edit of the finished one, so the finished game keeps its result, PGN and
// GIF, and the new game is at the bottom of the channel where people read. Games come from the
// pool's cached `games` list (one request per few seconds at most, shared with autocomplete), and
// every post goes through the relay's watch(): the guild's cap and its share of FICS apply.
import type { GamesListRow } from '../fics/games-list.js';
import { nowShowing, tvDue, tvStep, type TvFilter } from '../game/tv-score.js';
import type { Logger } from '../log.js';
import type { Relay } from '../relay/relay.js';
import { errorMessage } from '../result.js';
import { Serial } from '../serial.js';
import type { LivePost, Storage, TvChannel } from '../storage/index.js';
import type { GameId } from '../game/game-id.js';

/** How long a TV that found nothing (or no room) waits before it looks again. */
export const TV_RETRY_MS = 60_000;
/** Games a TV tries in one look when the best ones cannot be observed (gone meanwhile). */
const TRIES_PER_LOOK = 3;

/** What the TV needs of the relay. */
export type TvRelay = Pick<Relay, 'watch' | 'notice' | 'stop' | 'hasRoom' | 'onPostEnded'>;

export interface TvPosterOptions {
  /** The server's games in progress, a few seconds old at most (the pool's GamesCache). */
  games: () => Promise<readonly GamesListRow[]>;
  relay: TvRelay;
  storage: Storage;
  logger: Logger;
  /** The guilds this process relays. */
  owns: (guildId: string) => boolean;
  now?: () => number;
  retryMs?: number;
}

/** What a TV did when it looked for a game. */
export type TvOutcome =
  | { kind: 'showing'; game: GamesListRow; post: LivePost }
  /** Nothing qualifies now, or the server has no room (`full`), or FICS did not answer. */
  | { kind: 'waiting'; why: 'nothing' | 'full' | 'unavailable'; detail: string };

/** In memory per guild: when to look again, and what the channel was told already. */
interface Waiting {
  retryAt: number | null;
  said: 'nothing' | 'full' | null;
  /** The game that just ended: the games list may still show it for a few seconds. */
  ended: GameId | null;
}

export class TvPoster {
  private readonly now: () => number;
  private readonly retryMs: number;
  private readonly waiting = new Map<string, Waiting>();
  /** One look per guild at a time, so that two looks never post two games. */
  private readonly looks = new Serial<string>();
  private readonly pending = new Set<Promise<unknown>>();
  private timer: NodeJS.Timeout | undefined;
  /** The round of looks in progress (lookAll). */
  private round: Promise<void> | null = null;
  private closed = false;

  constructor(private readonly options: TvPosterOptions) {
    this.now = options.now ?? Date.now;
    this.retryMs = options.retryMs ?? TV_RETRY_MS;
    options.relay.onPostEnded((post) => this.background(this.postEnded(post)));
  }

  /** Looks for every TV without a game now and then every `retryMs`. */
  start(): void {
    if (this.closed || this.timer !== undefined) return;
    this.background(this.lookAll());
    this.timer = setInterval(() => this.background(this.lookAll()), this.retryMs);
    this.timer.unref();
  }

  close(): void {
    this.closed = true;
    clearInterval(this.timer);
  }

  /** Turns the guild's TV on (or moves or refilters it) and looks for a game at once. */
  async turnOn(
    guildId: string,
    channelId: string,
    filter: TvFilter,
    requestedBy: string,
  ): Promise<TvOutcome> {
    return this.looks.run(guildId, async () => {
      const before = await this.options.storage.tv.get(guildId);
      const tv = await this.options.storage.tv.set({ guildId, channelId, ...filter, createdBy: requestedBy });
      this.waiting.delete(guildId);
      // Its old post (another channel or filter) stops: a server has one TV.
      if (before?.postId != null) await this.options.relay.stop(before.postId);
      return this.fill(tv);
    });
  }

  /** Turns the guild's TV off, its post stopped; false when it had none. */
  async turnOff(guildId: string): Promise<boolean> {
    return this.looks.run(guildId, async () => {
      const tv = await this.options.storage.tv.get(guildId);
      if (tv === null) return false;
      await this.options.storage.tv.delete(guildId);
      this.waiting.delete(guildId);
      if (tv.postId !== null) await this.options.relay.stop(tv.postId);
      return true;
    });
  }

  /** The guild's TV and its live post, if any. */
  async show(guildId: string): Promise<{ tv: TvChannel; post: LivePost | null } | null> {
    const tv = await this.options.storage.tv.get(guildId);
    if (tv === null) return null;
    return { tv, post: await this.livePost(tv) };
  }

  /**
   * Every TV that shows nothing and may look again looks now (the timer, and after a restart);
   * while one round is running, another joins it rather than start a second.
   */
  lookAll(): Promise<void> {
    this.round ??= this.lookRound().finally(() => (this.round = null));
    return this.round;
  }

  private async lookRound(): Promise<void> {
    if (this.closed) return;
    for (const tv of await this.options.storage.tv.list()) {
      if (this.closed) return;
      if (!this.options.owns(tv.guildId)) continue;
      await this.look(tv.guildId);
    }
  }

  /** Waits for the looks started by events and timers (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all(this.pending);
    await this.looks.idle();
  }

  /** One guild's TV looks for a game when it is due (see tvDue). */
  private look(guildId: string): Promise<TvOutcome | null> {
    return this.looks.run(guildId, async () => {
      const tv = await this.options.storage.tv.get(guildId);
      if (tv === null || this.closed) return null;
      const wait = this.waiting.get(guildId);
      const post = await this.livePost(tv);
      if (!tvDue(post !== null, wait?.retryAt ?? null, this.now())) return null;
      return this.fill(tv);
    });
  }

  /** The TV's post ended (game over, stopped, gone): it switches to the next game. */
  private async postEnded(post: LivePost): Promise<void> {
    const tv = await this.options.storage.tv.byPost(post.id);
    if (tv === null || this.closed) return;
    await this.options.storage.tv.setPost(tv.guildId, null);
    // The guild removed the bot: its TV is kept, inactive, for when the bot is added back.
    if (!(await this.options.storage.guildSettings.isActive(tv.guildId))) return;
    if (post.endReason !== null) {
      // Discord refused the post for good (channel or permission gone): the TV stops rather than
      // post again where it cannot.
      this.options.logger.warn({ guildId: tv.guildId, reason: post.endReason }, 'TV post refused: TV off');
      await this.options.storage.tv.delete(tv.guildId);
      return;
    }
    this.waiting.set(tv.guildId, { retryAt: null, said: null, ended: post.game });
    await this.look(tv.guildId);
  }

  /** Shows the best game it may (it shows none now), or says once why it cannot and waits. */
  private async fill(tv: TvChannel): Promise<TvOutcome> {
    const { relay, storage } = this.options;
    const wait = this.waiting.get(tv.guildId) ?? { retryAt: null, said: null, ended: null };
    if (!(await relay.hasRoom(tv.guildId)))
      return this.wait(
        tv,
        wait,
        'full',
        'This server already relays as many live games as its limit allows.',
      );
    let rows: readonly GamesListRow[];
    try {
      rows = await this.options.games();
    } catch (error) {
      return this.wait(tv, wait, 'unavailable', errorMessage(error));
    }
    const excluded = new Set((await storage.livePosts.listLiveInGuild(tv.guildId)).map((p) => p.game));
    if (wait.ended !== null) excluded.add(wait.ended);
    for (let i = 0; i < TRIES_PER_LOOK; i++) {
      const step = tvStep({
        saidNothing: wait.said === 'nothing',
        now: this.now(),
        retryMs: this.retryMs,
        candidates: rows,
        filter: tv,
        excluded,
      });
      if (step.kind === 'none') break;
      const game = step.game;
      const result = await relay.watch({
        guildId: tv.guildId,
        channelId: tv.channelId,
        game: game.game,
        options: { flip: false, thread: false },
        requestedBy: tv.createdBy,
      });
      if (result.ok) {
        await storage.tv.setPost(tv.guildId, result.value.post.id);
        this.waiting.delete(tv.guildId);
        await relay.notice(tv.channelId, nowShowing(game));
        return { kind: 'showing', game, post: result.value.post };
      }
      if (result.error.kind === 'full') return this.wait(tv, wait, 'full', result.error.message);
      // Over or gone since the list was made: the next best.
      this.options.logger.info(
        { guildId: tv.guildId, game: game.game, error: result.error },
        'TV game not shown',
      );
      excluded.add(game.game);
    }
    return this.wait(tv, wait, 'nothing', 'No game in progress fits this TV now.');
  }

  /** No game now: the channel hears it once (per reason), and the TV looks again after retryMs. */
  private async wait(
    tv: TvChannel,
    wait: Waiting,
    why: 'nothing' | 'full' | 'unavailable',
    detail: string,
  ): Promise<TvOutcome> {
    const retryAt = this.now() + this.retryMs;
    const tell = why !== 'unavailable' && wait.said !== why;
    this.waiting.set(tv.guildId, { retryAt, said: tell ? why : wait.said, ended: wait.ended });
    if (tell)
      await this.options.relay.notice(
        tv.channelId,
        why === 'full'
          ? `FICS TV waits for room: ${detail} It looks again every ${Math.round(this.retryMs / 1000)} s.`
          : `FICS TV: no game in progress fits this channel's TV now (${filterText(tv)}). It looks again every ${Math.round(this.retryMs / 1000)} s.`,
      );
    else if (why === 'unavailable')
      this.options.logger.warn({ guildId: tv.guildId, error: detail }, 'TV: no games list');
    return { kind: 'waiting', why, detail };
  }

  private async livePost(tv: TvChannel): Promise<LivePost | null> {
    if (tv.postId === null) return null;
    const post = await this.options.storage.livePosts.get(tv.postId);
    return post?.state === 'live' ? post : null;
  }

  /** Event-started work, in view of idle(); a failure is logged. */
  private background(task: Promise<unknown>): void {
    const done = task.catch((error: unknown) => this.options.logger.error({ err: error }, 'TV work failed'));
    this.pending.add(done);
    void done.finally(() => this.pending.delete(done));
  }
}

/** A TV's filter in words: `chess, both players 1800+`. */
export function filterText(filter: TvFilter): string {
  const variant = filter.variant === 'any' ? 'any variant' : filter.variant;
  return filter.minRating > 0 ? `${variant}, both players ${filter.minRating}+` : variant;
}
