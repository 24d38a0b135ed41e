// The logging the FICS code needs: a pino logger fits, and so does anything with these methods.
import { shortened } from '../log.js';
import { LogWindow, type LogWindowLimits } from '../log-window.js';
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

export type SkippedLineLimits = LogWindowLimits;

export const SKIPPED_LINE_LIMITS: SkippedLineLimits = { burst: 10, windowMs: 60_000 };

/** Characters of a skipped line (and of its reason) that reach the log. */
const SHOWN_CHARS = 120;

/**
 * Logs skipped server lines, each as its kind, length and first characters, at most `burst` per
 * window: a hostile or broken server cannot fill the disk or the logger's memory. Lines not
 * logged are counted; the count is logged when their window ends.
 */
export class SkippedLineLog {
  private readonly window: LogWindow;
  private from = '';

  constructor(
    private readonly logger: FicsLogger,
    clock: Clock,
    limits: SkippedLineLimits = SKIPPED_LINE_LIMITS,
  ) {
    this.window = new LogWindow(clock, limits, (suppressed, windowMs) =>
      this.logger.warn(
        { from: this.from, suppressed, windowMs },
        'skipped more server lines that could not be decoded; not logged one by one',
      ),
    );
  }

  skipped(line: SkippedLine): void {
    if (!this.window.admit()) {
      this.from = line.from;
      return;
    }
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
}
