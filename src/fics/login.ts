// The login dialogue as a pure state machine: server text in, what to send (or the outcome) out.
// Prompts (`login: `, `password: `, `Press return ... "GuestXXXX":`) often have no line end until
// we answer, so both complete lines and the unterminated text are offered; each prompt is answered
// once. Texts are those of lasker 2.2 and FatICS (the recorded fixtures), of freechess.org and of
// the FICS 1.6.2 lineage (uhlin/fics): no session line there (the first `fics% ` prompt after the
// name exchange ends the login), and a guest keeps the name it typed, so each connection types a
// name of its own where the banner does not offer "guest".
import { shortened } from '../log.js';
import { FicsLoginError } from './errors.js';

export interface Credentials {
  user: string;
  password: string;
}

export type LoginStep =
  | { type: 'send'; text: string; secret: boolean }
  | { type: 'loggedIn'; handle: string; guest: boolean }
  | { type: 'failed'; error: FicsLoginError }
  /** Worth a log line, not a failure (our registered handle was logged in elsewhere). */
  | { type: 'notice'; text: string };

type Phase = 'prompt' | 'name' | 'password' | 'return' | 'done';

const LOGIN_PROMPT = /(?:^|\s)login:\s*$/;
const PASSWORD_PROMPT = /(?:^|\s)password:\s*$/;
const PRESS_RETURN = /Press return to enter the (?:server|FICS) as "([A-Za-z]+)":/;
const STARTING = /^\s*\*{3,4} Starting \w+ session as ([A-Za-z]+)((?:\([A-Z*]+\))*) \*{3,4}/;
const FAILURES: readonly [RegExp, FicsLoginError['code']][] = [
  [/guest connections have been prevented/i, 'guestsDisabled'],
  [/Invalid password/i, 'badPassword'],
  [/^\s*\*+ Sorry \S+ is already logged in/i, 'handleInUse'],
  [/names can only consist of|name should be at least|names may be at most/i, 'badHandle'],
  [/is banned|nobody from your site may log ?in/i, 'banned'],
  [/server is full|too many (?:users|players)|maximum number of (?:users|players)/i, 'serverFull'],
];
const KICKING = /is already logged in - kicking/i;
/** lasker, FatICS, freechess.org: `enter the login name "guest"` (the server assigns GuestXXXX). */
const GUEST_OFFERED = /login name "guest"/i;
/** Names typed on one connection when the server keeps typed names and says one is taken. */
const MAX_GUEST_NAMES = 3;

/** A guest name of its own (`Guest` and four letters), for servers that keep the typed name. */
export function distinctGuestName(random: () => number): string {
  let letters = '';
  for (let i = 0; i < 4; i++) letters += String.fromCharCode(65 + Math.floor(random() * 26));
  return `Guest${letters}`;
}

export class LoginMachine {
  private phase: Phase = 'prompt';
  /** The unterminated prompt already answered, so its completed line does not count twice. */
  private answered: string | null = null;
  private readonly recent: string[] = [];
  /** The banner said to type "guest": the server names the guest itself. */
  private guestOffered = false;
  /** The name typed last, and how many were typed. */
  private typed: string | null = null;
  private namesTyped = 0;
  /** The name the server offered at `Press return`. */
  private offered: string | null = null;
  /** The server said our guest name is taken (it may ask again, or close). */
  private taken: string | null = null;

  constructor(
    private readonly credentials: Credentials | null,
    /** `host:port`, for messages. */
    private readonly server: string,
    /** A fresh guest name per call, typed where the banner does not offer "guest". */
    private readonly guestName: () => string = () => 'guest',
  ) {}

  get done(): boolean {
    return this.phase === 'done';
  }

  /** A complete line from the server. */
  line(text: string): LoginStep[] {
    if (this.phase === 'done') return [];
    if (this.answered !== null && text.trim() === this.answered.trim()) {
      this.answered = null;
      return [];
    }
    if (text.trim() !== '') {
      // Kept for error messages: a server's text goes in shortened and on one line.
      this.recent.push(shortened(text));
      if (this.recent.length > 6) this.recent.shift();
    }
    return this.read(text);
  }

  /** The text received after the last line end (a prompt waiting for an answer). */
  partial(text: string): LoginStep[] {
    // A prompt may arrive a byte at a time: `login:` then `login: ` is one prompt.
    if (this.phase === 'done' || text.trim() === '' || text.trim() === this.answered?.trim()) return [];
    const steps = this.prompt(text);
    if (steps.length > 0) this.answered = text;
    return steps;
  }

  /**
   * A `fics% ` prompt came. After the name (and password) exchange it ends the login on servers
   * that send no session line; the line, where it comes, comes first.
   */
  prompted(): LoginStep[] {
    if (this.phase === 'return' && this.offered !== null) return this.loggedIn(this.offered, true);
    if (this.phase === 'password' && this.credentials !== null)
      return this.loggedIn(this.credentials.user, false);
    return [];
  }

  /** The connection ended before the login finished. */
  closed(): LoginStep[] {
    if (this.phase === 'done') return [];
    if (this.taken !== null) return this.failure('handleInUse', this.taken);
    return this.fail(
      'closed',
      `${this.server} closed the connection during the login${this.recent.length > 0 ? ` (last text: "${this.recent.join(' / ')}")` : ''}. Kibitz will try again.`,
      this.recent.join('\n') || null,
    );
  }

  /** No progress in time. */
  timedOut(seconds: number): LoginStep[] {
    if (this.phase === 'done') return [];
    return this.fail(
      'timeout',
      `${this.server} did not complete the login within ${seconds} s (${this.phase === 'prompt' ? 'no login prompt' : `stuck after sending the ${this.phase}`}). Is FICS_HOST/FICS_PORT a FICS server?`,
    );
  }

  private read(text: string): LoginStep[] {
    for (const [pattern, code] of FAILURES) {
      if (!pattern.test(text)) continue;
      if (code === 'handleInUse' && this.retryable(text)) {
        // The server kept the name we typed and someone has it: type another if it asks again.
        this.taken = shortened(text);
        this.phase = 'prompt';
        return [{ type: 'notice', text: this.taken }];
      }
      return this.failure(code, shortened(text));
    }
    if (KICKING.test(text)) return [{ type: 'notice', text: shortened(text) }];
    if (GUEST_OFFERED.test(text)) this.guestOffered = true;
    const started = STARTING.exec(text);
    if (started !== null) return this.loggedIn(started[1]!, started[2]!.includes('(U)'));
    return this.prompt(text);
  }

  /** The guest name we typed is the one taken, and another may be typed. */
  private retryable(said: string): boolean {
    const typed = this.typed?.toLowerCase();
    return (
      this.credentials === null &&
      this.namesTyped < MAX_GUEST_NAMES &&
      typed !== undefined &&
      said.toLowerCase().includes(`sorry ${typed} is`)
    );
  }

  private loggedIn(handle: string, guest: boolean): LoginStep[] {
    this.phase = 'done';
    return [{ type: 'loggedIn', handle, guest }];
  }

  private nameToType(): string {
    if (this.credentials !== null) return this.credentials.user;
    return this.guestOffered && this.taken === null ? 'guest' : this.guestName();
  }

  private prompt(text: string): LoginStep[] {
    const press = PRESS_RETURN.exec(text);
    if (press !== null) {
      if (this.phase !== 'name') return [];
      if (this.credentials !== null) {
        return this.fail(
          'notRegistered',
          `FICS_USER "${this.credentials.user}" is not a registered handle on ${this.server} (the server offered to log in as an unregistered guest "${press[1]}"). Check FICS_USER, or unset FICS_USER and FICS_PASSWORD to log in as a guest.`,
          shortened(text),
        );
      }
      this.phase = 'return';
      this.offered = press[1]!;
      return [{ type: 'send', text: '', secret: false }];
    }
    if (PASSWORD_PROMPT.test(text)) {
      if (this.phase !== 'name') return [];
      if (this.credentials === null) {
        return this.fail(
          'badHandle',
          `${this.server} asked for a password for the guest login.`,
          shortened(text),
        );
      }
      this.phase = 'password';
      return [{ type: 'send', text: this.credentials.password, secret: true }];
    }
    if (LOGIN_PROMPT.test(text)) {
      if (this.phase === 'prompt') {
        this.phase = 'name';
        this.typed = this.nameToType();
        this.namesTyped++;
        return [{ type: 'send', text: this.typed, secret: false }];
      }
      // Asked again: what we sent was refused without one of the known messages.
      if (this.phase === 'password') return this.failure('badPassword', this.recent.join(' / '));
      return this.fail(
        'badHandle',
        `${this.server} refused the login name "${this.typed}" and asked again (server said: "${this.recent.join(' / ')}").`,
        this.recent.join('\n') || null,
      );
    }
    return [];
  }

  private failure(code: FicsLoginError['code'], said: string): LoginStep[] {
    const user = this.credentials?.user;
    const messages: Record<FicsLoginError['code'], string> = {
      guestsDisabled: `${this.server} does not accept guest logins right now ("${said}"). Set FICS_USER and FICS_PASSWORD to a registered FICS account.`,
      badPassword: `${this.server} rejected the password for FICS_USER "${user}" ("${said}"). Check FICS_PASSWORD.`,
      notRegistered: `FICS_USER "${user}" is not a registered handle on ${this.server}.`,
      handleInUse: `${this.server} refused the login because "${user ?? 'that guest name'}" is already logged in ("${said}"). Kibitz will try again.`,
      badHandle: `${this.server} refused the login name "${user ?? this.typed}" ("${said}"). Check FICS_USER.`,
      banned: `${this.server} refuses logins from this handle or address ("${said}").`,
      serverFull: `${this.server} is full and refused the login ("${said}"). Kibitz will try again.`,
      timeout: `${this.server} did not answer in time.`,
      closed: `${this.server} closed the connection during the login.`,
    };
    return this.fail(code, messages[code], said);
  }

  private fail(code: FicsLoginError['code'], message: string, said: string | null = null): LoginStep[] {
    this.phase = 'done';
    return [{ type: 'failed', error: new FicsLoginError(code, message, said) }];
  }
}
