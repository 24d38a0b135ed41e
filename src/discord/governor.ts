// Bot-wide restraint on Discord's REST API. Discord bans an IP for a while after 10,000 invalid
// answers (401, 403, 429 other than those of a shared bucket) in 10 minutes, and its edge answers
// a banned or nearly banned IP with 429s that carry no wait at all. The governor counts those
// answers as they come, and when header-less 429s or a burst of invalid answers show up it pauses
// what can wait (board edits) for the whole bot, with a pause that doubles while the trouble lasts.
import { backoffDelay } from '../backoff.js';
import type { Logger } from '../log.js';

export interface GovernorOptions {
  logger: Logger;
  now?: () => number;
  /** Discord's counting window for invalid answers. */
  windowMs?: number;
  /** Invalid answers per window at which edits pause: a tenth of Discord's 10,000. */
  budget?: number;
  /** A burst: this many invalid answers within `burstWindowMs` pause edits as well. */
  burst?: number;
  burstWindowMs?: number;
  /** First pause; each further pause while the trouble lasts doubles it, up to `maxPauseMs`. */
  firstPauseMs?: number;
  maxPauseMs?: number;
  /** After a pause, while the trouble may last, one edit at a time per this long tries Discord. */
  probeMs?: number;
}

/** What one REST answer tells the governor. */
export interface RestAnswer {
  status: number;
  /** X-RateLimit-Scope, when sent. */
  scope: string | null;
  /** Retry-After, when sent. */
  retryAfter: string | null;
}

export interface GovernorFigures {
  /** Invalid answers in the last window (10 minutes). */
  invalid: number;
  /** 429s that carried no wait, since the start. */
  headerless429: number;
  /** Pauses since the start. */
  pauses: number;
  /** Ms until edits may go again (0: they may). */
  pausedForMs: number;
}

/** An answer Discord counts toward its invalid-request ban. */
export function countsAsInvalid(answer: RestAnswer): boolean {
  return (
    answer.status === 401 || answer.status === 403 || (answer.status === 429 && answer.scope !== 'shared')
  );
}

export class RestGovernor {
  private readonly now: () => number;
  private readonly windowMs: number;
  private readonly budget: number;
  private readonly burst: number;
  private readonly burstWindowMs: number;
  private readonly firstPauseMs: number;
  private readonly maxPauseMs: number;
  /** When each invalid answer of the window came. */
  private readonly invalidAt: number[] = [];
  private pausedUntil = 0;
  /** Until then, after a pause, the edit sent to try Discord again has the road to itself. */
  private probeUntil = 0;
  private readonly probeMs: number;
  /** Pauses in a row without a good answer in between: the next pause is 2^streak longer. */
  private streak = 0;
  private headerless = 0;
  private pauses = 0;

  constructor(private readonly options: GovernorOptions) {
    this.now = options.now ?? Date.now;
    this.windowMs = options.windowMs ?? 10 * 60_000;
    this.budget = options.budget ?? 1_000;
    this.burst = options.burst ?? 20;
    this.burstWindowMs = options.burstWindowMs ?? 10_000;
    this.firstPauseMs = options.firstPauseMs ?? 1_000;
    this.maxPauseMs = options.maxPauseMs ?? 5 * 60_000;
    this.probeMs = options.probeMs ?? 1_000;
  }

  /** Takes note of one answer from Discord. */
  record(answer: RestAnswer): void {
    const now = this.now();
    if (answer.status < 400) {
      if (this.streak > 0 && now >= this.pausedUntil) {
        this.options.logger.info(this.figures(), 'Discord answers normally again: board edits resumed');
        this.streak = 0;
        this.probeUntil = 0;
      }
      return;
    }
    if (!countsAsInvalid(answer)) return;
    this.invalidAt.push(now);
    while (this.invalidAt.length > 0 && this.invalidAt[0]! <= now - this.windowMs) this.invalidAt.shift();
    const noWait = answer.status === 429 && answer.retryAfter === null;
    if (noWait) this.headerless++;
    const recent = this.invalidAt.filter((at) => at > now - this.burstWindowMs).length;
    if (noWait || recent >= this.burst || this.invalidAt.length >= this.budget) this.pause(now, noWait);
  }

  /** Ms until board edits may go again; 0 when they may go now. */
  pausedForMs(): number {
    return Math.max(0, this.pausedUntil - this.now());
  }

  /**
   * Asked before each board edit: 0 when it may go now, else how long to wait. After a pause,
   * until Discord answers normally again, one edit at a time tries it (the others wait), so that
   * a hundred boards waiting out a pause do not all go at its end.
   */
  admit(): number {
    const now = this.now();
    if (now < this.pausedUntil) return this.pausedUntil - now;
    if (this.streak === 0) return 0;
    if (now < this.probeUntil) return this.probeUntil - now;
    this.probeUntil = now + this.probeMs;
    return 0;
  }

  figures(): GovernorFigures {
    const since = this.now() - this.windowMs;
    return {
      invalid: this.invalidAt.filter((at) => at > since).length,
      headerless429: this.headerless,
      pauses: this.pauses,
      pausedForMs: this.pausedForMs(),
    };
  }

  private pause(now: number, noWait: boolean): void {
    // Answers to requests sent before the pause began do not lengthen it.
    if (now < this.pausedUntil) return;
    const ms = backoffDelay(
      { initialMs: this.firstPauseMs, maxMs: this.maxPauseMs, factor: 2, jitter: 0 },
      this.streak,
    );
    this.pausedUntil = now + ms;
    this.pauses++;
    // Told once per episode, not on every pause of it.
    if (this.streak === 0) {
      this.options.logger.warn(
        { ...this.figures(), cause: noWait ? 'a 429 without Retry-After' : 'a burst of invalid answers' },
        'Discord is refusing requests: board edits paused bot-wide, resuming by themselves',
      );
    }
    this.streak++;
  }
}
