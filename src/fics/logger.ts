// The logging the FICS code needs: a pino logger fits, and so does anything with these methods.
import { shortened } from '../log.js';
import type { Clock } from './clock.js';

type LogMethod = (fields: object, message: string) => void;

export interface FicsLogger {
  debug: LogMethod;
  info: LogMethod;
  warn: LogMethod;
  error: LogMethod;
}

const ignore: LogMethod = () => {};

export const silentLogger: FicsLogger = { debug: ignore, info: ignore, warn: ignore, error: ignore };

/** A server line Kibitz skipped: undecodable, or dropped for its size. */
export interface SkippedLine {
  /** The connection (`fics#1`) or server (`host:port`) it came from. */
  from: string;
  /** What it was taken for (`style12`, `moveList`, `line`, `reply`...). */
  kind: string;
  reason: string;
  line: string;
}

export interface SkippedLineLimits {
  /** Lines logged per window; the rest are only counted. */
  burst: number;
  windowMs: number;
}

export const SKIPPED_LINE_LIMITS: SkippedLineLimits = { burst: 10, windowMs: 60_000 };

/** Characters of a skipped line (and of its reason) that reach the log. */
const SHOWN_CHARS = 120;

/**
 * Logs skipped server lines, each as its kind, length and first characters, at most `burst` per
 * window: a hostile or broken server cannot fill the disk or the logger's memory. Lines not
 * logged are counted; the count is logged when their window ends.
 */
export class SkippedLineLog {
  private windowStart = Number.NEGATIVE_INFINITY;
  private logged = 0;
  private suppressed = 0;
  private from = '';

  constructor(
    private readonly logger: FicsLogger,
    private readonly clock: Clock,
    private readonly limits: SkippedLineLimits = SKIPPED_LINE_LIMITS,
  ) {}

  skipped(line: SkippedLine): void {
    const now = this.clock.now();
    if (now - this.windowStart >= this.limits.windowMs) {
      this.windowStart = now;
      this.logged = 0;
    }
    if (this.logged >= this.limits.burst) {
      if (this.suppressed++ === 0) {
        this.from = line.from;
        this.clock.after(this.windowStart + this.limits.windowMs - now, () => this.reportSuppressed());
      }
      return;
    }
    this.logged++;
    this.logger.warn(
      {
        from: line.from,
        kind: line.kind,
        reason: shortened(line.reason, 2 * SHOWN_CHARS),
        length: line.line.length,
        start: shortened(line.line),
      },
      'skipped a server line that could not be decoded',
    );
  }

  private reportSuppressed(): void {
    const suppressed = this.suppressed;
    this.suppressed = 0;
    this.logger.warn(
      { from: this.from, suppressed, windowMs: this.limits.windowMs },
      'skipped more server lines that could not be decoded; not logged one by one',
    );
  }
}
