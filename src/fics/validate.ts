// The only ways user text becomes part of a FICS command. FICS reads one command per line and
// treats `;` (and its aliases) specially, so a value is accepted only when it is exactly what it
// claims to be: a game number is digits, a handle is letters. Everything else is refused here,
// with a message that says what was expected.
import { isGameNumber, LARGEST_GAME_NUMBER, type GameNumber } from '../protocol/game-number.js';
import { HANDLE_MAX_LENGTH, type Handle } from '../protocol/handle.js';
import { err, ok, type Result } from '../result.js';
import { FicsInputError } from './errors.js';

/** FICS game numbers have 1 to 9 digits; anything longer is a mistake or an attack. */
const DIGITS = /^[0-9]{1,9}$/;
const HANDLE = new RegExp(`^[A-Za-z]{3,${HANDLE_MAX_LENGTH}}$`);
/** Printable ASCII without space: what a password may hold and still travel as one line. */
const PASSWORD = /^[!-~]{1,64}$/;
/** Printable ASCII only: no CR, LF, NUL, telnet IAC or block-mode control bytes. */
const WIRE_LINE = /^[ -~]{0,1000}$/;

/** Shows user text with its control characters visible (`"12\r\nquit"`). */
function shown(input: unknown): string {
  const text = typeof input === 'string' ? input : String(input);
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
}

export function parseGameNumber(input: unknown): Result<GameNumber, FicsInputError> {
  const value =
    typeof input === 'number' ? input : typeof input === 'string' && DIGITS.test(input) ? Number(input) : NaN;
  if (!isGameNumber(value)) {
    return err(
      new FicsInputError(
        'game',
        String(input),
        `${shown(input)} is not a FICS game number: use the number FICS shows for the game (a whole number from 1 to ${LARGEST_GAME_NUMBER}, digits only).`,
      ),
    );
  }
  return ok(value);
}

export function parseHandle(input: unknown): Result<Handle, FicsInputError> {
  if (typeof input !== 'string' || !HANDLE.test(input)) {
    return err(
      new FicsInputError(
        'handle',
        String(input),
        `${shown(input)} is not a FICS handle: handles are 3 to 17 letters (A-Z, a-z), with no spaces, digits or other characters.`,
      ),
    );
  }
  return ok(input as Handle);
}

export function parsePassword(input: string): Result<string, FicsInputError> {
  if (!PASSWORD.test(input)) {
    // Never echo a password, not even a refused one.
    return err(
      new FicsInputError(
        'password',
        '',
        'FICS_PASSWORD must be 1 to 64 printable characters without spaces or line breaks.',
      ),
    );
  }
  return ok(input);
}

/** The last check before bytes leave: one printable line. Throws; callers built it from checked parts. */
export function assertWireLine(line: string): void {
  if (!WIRE_LINE.test(line)) {
    throw new FicsInputError('command', line, `refused to send ${shown(line)}: not one printable line`);
  }
}

/** Unwraps a check, throwing its error (for callers that report errors by rejecting). */
export function orThrow<T, E>(result: Result<T, E>): T {
  if (!result.ok) throw result.error;
  return result.value;
}

/**
 * Handles read back from storage: each was checked on its way in; one that does not pass now
 * (a database edited by hand) is left out rather than sent to FICS.
 */
export function storedHandles(stored: readonly string[]): Handle[] {
  return stored.flatMap((text) => {
    const handle = parseHandle(text);
    return handle.ok ? [handle.value] : [];
  });
}
