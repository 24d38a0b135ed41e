// Structured logging (pino, JSON lines). Secrets are kept out twice: known secret-bearing fields
// are redacted by path, and the finished line is scrubbed of the secret strings themselves, so a
// token that reaches a message or an error text by some other route still never gets written.
import { pino } from 'pino';
import type { DestinationStream, Logger } from 'pino';
import { cleanText, truncate } from './text.js';

export type { Logger } from 'pino';

/** The levels LOG_LEVEL may name (pino's, and `silent`). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface LoggerOptions {
  level: LogLevel;
  /** Strings that must never appear in output (the Discord token, the FICS password). */
  secrets?: readonly string[];
  /** Where lines go; stdout when omitted (as JSON lines, or readable ones when stdout is a terminal). */
  destination?: DestinationStream;
}

const REDACTED = '[redacted]';

const REDACT_PATHS = [
  'token',
  'password',
  'authorization',
  '*.token',
  '*.password',
  '*.authorization',
  'headers.authorization',
  '*.headers.authorization',
  'config.discord.token',
  'config.fics.password',
];

export function createLogger(options: LoggerOptions): Logger {
  const destination = options.destination ?? stdoutDestination();
  const secrets = (options.secrets ?? []).filter((secret) => secret.length > 0);
  return pino(
    {
      level: options.level,
      base: { name: 'kibitz' },
      redact: { paths: REDACT_PATHS, censor: REDACTED },
    },
    secrets.length === 0 ? destination : scrubbing(destination, secrets),
  );
}

/** JSON lines for a file or a log collector; readable lines for a person at a terminal. */
function stdoutDestination(): DestinationStream {
  const stdout = pino.destination({ fd: 1, sync: true });
  if (!process.stdout.isTTY) return stdout;
  return { write: (line: string) => void stdout.write(makeReadableLine(line)) };
}

const LEVEL_NAMES: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO ',
  40: 'WARN ',
  50: 'ERROR',
  60: 'FATAL',
};

/**
 * One JSON log line as a person reads it: `12:04:05.120 WARN  message key=value ...` (UTC time,
 * the fields that are always there left out). A line that is not a JSON object is kept as it is.
 */
export function makeReadableLine(line: string): string {
  let record: unknown;
  try {
    record = JSON.parse(line);
  } catch {
    return line;
  }
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return line;
  const { level, time, msg, name: _name, ...fields } = record as Record<string, unknown>;
  const at = typeof time === 'number' ? new Date(time).toISOString().slice(11, 23) : '';
  const label = typeof level === 'number' ? (LEVEL_NAMES[level] ?? String(level)) : '';
  const rest = Object.entries(fields).map(([key, value]) => `${key}=${JSON.stringify(value)}`);
  return `${[at, label, typeof msg === 'string' ? msg : '', ...rest].filter((part) => part !== '').join(' ')}\n`;
}

/**
 * Outside text (a server line, a file's field, an error quoting either) for a log field: one line,
 * at most `max` characters, and only that much of it is looked at however long it is.
 */
export function shortened(text: string, max = 120): string {
  return truncate(cleanText(text.slice(0, max + 1)), max);
}

/** Wraps a destination so that no written line contains any of `secrets`. */
export function scrubbing(destination: DestinationStream, secrets: readonly string[]): DestinationStream {
  // JSON output escapes some characters; scrub the escaped form of each secret as well.
  const forms = [...new Set(secrets.flatMap((secret) => [secret, JSON.stringify(secret).slice(1, -1)]))];
  return {
    write(line: string): void {
      let clean = line;
      for (const secret of forms) clean = clean.split(secret).join(REDACTED);
      destination.write(clean);
    },
  };
}

/**
 * Logs unhandled promise rejections instead of letting Node end the process (its default since
 * v15): one forgotten `await` in a handler must not take every live game down. Returns a function
 * that removes the handler. `target` is the process except in tests.
 */
export function logUnhandledRejections(
  logger: Logger,
  target: Pick<NodeJS.EventEmitter, 'on' | 'off'> = process,
): () => void {
  const onRejection = (reason: unknown): void => {
    logger.error({ err: reason }, 'unhandled promise rejection');
  };
  target.on('unhandledRejection', onRejection);
  return () => target.off('unhandledRejection', onRejection);
}
