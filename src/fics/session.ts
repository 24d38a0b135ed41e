// One TCP session with a FICS server: connect, log in, set the interface variables the decoders
// expect, then carry commands and pushed events until the socket closes. A session never
// reconnects; the connection (connection.ts) makes new ones.
import { connect, type Socket } from 'node:net';
import { shortened } from '../log.js';
import { droppedForSize, ObserverDecoder, type Decoded } from '../protocol/decode.js';
import type { FramingLimits } from '../protocol/framer.js';
import type { ServerEvent, Undecoded } from '../protocol/events.js';
import type { Clock, Timer } from './clock.js';
import {
  keepAlive,
  setInterfaceVariable,
  setVariable,
  type FicsRequest,
  type Match,
  type Outcome,
} from './requests.js';
import { FicsCommandError, FicsLoginError } from './errors.js';
import { SkippedLineLog, type FicsLogger } from './logger.js';
import { distinctGuestName, LoginMachine, type Credentials, type LoginStep } from './login.js';
import { CommandPacer, DEFAULT_PACE, type PaceOptions } from './pacer.js';
import { assertWireLine } from './validate.js';

/** What the server accepted after login; the decoders cope with every combination. */
export interface Capabilities {
  /** Replies framed with ids (`iset block 1`). */
  block: boolean;
  /** `<d1>` delta boards. */
  compressmove: boolean;
  nowrap: boolean;
  /** Accepted; lasker accepts `ms` and still sends seconds, which the decoder tells by itself. */
  ms: boolean;
  /** `<g1>` lines (partner boards of bughouse games). */
  gameinfo: boolean;
  startpos: boolean;
  defprompt: boolean;
}

/** Interface variables asked for after `block`, in this order. */
const IVARS = ['ms', 'nowrap', 'compressmove', 'gameinfo', 'startpos', 'defprompt'] as const;
type IvarName = (typeof IVARS)[number];

export interface SessionOptions {
  host: string;
  port: number;
  /** Null logs in as a guest. */
  credentials: Credentials | null;
  /** Sent as `set interface <name>`. */
  interfaceName: string;
  logger: FicsLogger;
  clock: Clock;
  loginTimeoutMs: number;
  commandTimeoutMs: number;
  /** Idle time after which a harmless command is sent (FICS logs out after 60 minutes). */
  keepAliveMs: number;
  /** Picks guest names where the server keeps the typed one; Math.random when omitted. */
  random?: () => number;
  /**
   * Interface variables this server refused before: not asked again (a server that reads one
   * line per wake-up answers each seconds apart). Kept by the connection across sessions.
   */
  refusedSettings?: Set<string>;
  /** How fast commands go out (src/fics/pacer.ts); DEFAULT_PACE when omitted. */
  pace?: PaceOptions;
  /** Limits of the framing (line, reply and telnet subnegotiation sizes); defaults when omitted. */
  framing?: Partial<FramingLimits>;
  /** Where lines dropped for their size are logged; one of its own when omitted. */
  skippedLines?: SkippedLineLog;
  /** Every event after the login, in order. */
  onEvent(event: ServerEvent): void;
  /** Once, when the socket is gone (after `open` resolved). `error` is null after `close()`. */
  onClose(error: Error | null): void;
}

interface Pending<T> {
  command: FicsRequest<T>;
  resolve(value: T): void;
  reject(error: Error): void;
  timer: Timer;
}

interface Waiting<T> extends Pending<T> {
  match(event: ServerEvent): Match<T>;
}

/** Block ids run 1..MAX_ID and wrap; 0 is the server's own (pose) block. */
const MAX_ID = 9_999;
const NO_TIMER: Timer = { cancel() {} };
/** How long an unframed `iset` answer is waited for. */
const UNFRAMED_IVAR_WAIT_MS = 5_000;

export class FicsSession {
  handle: string | null = null;
  guest = true;
  readonly capabilities: Capabilities = {
    block: false,
    compressmove: false,
    nowrap: false,
    ms: false,
    gameinfo: false,
    startpos: false,
    defprompt: false,
  };
  private readonly decoder: ObserverDecoder;
  private readonly skippedLines: SkippedLineLog;
  private readonly server: string;
  private socket: Socket | null = null;
  private login: LoginMachine;
  private loginDone: ((error: Error | null) => void) | null = null;
  private readonly pending = new Map<number, Pending<unknown>>();
  private waiting: Waiting<unknown>[] = [];
  private nextId = 1;
  private readonly pacer: CommandPacer;
  private keepAliveTimer: Timer | null = null;
  private ended = false;
  private closedByUs = false;
  /** `onClose` is for sessions `open` handed out; earlier failures reject `open` instead. */
  private opened = false;

  private constructor(private readonly options: SessionOptions) {
    this.server = `${options.host}:${options.port}`;
    const random = options.random ?? Math.random;
    this.login = new LoginMachine(options.credentials, this.server, () => distinctGuestName(random));
    this.pacer = new CommandPacer(options.pace ?? DEFAULT_PACE, options.clock);
    this.decoder = new ObserverDecoder(options.framing);
    this.skippedLines = options.skippedLines ?? new SkippedLineLog(options.logger, options.clock);
  }

  /** Connects, logs in and sets the interface variables. Rejects with FicsLoginError. */
  static async open(options: SessionOptions): Promise<FicsSession> {
    const session = new FicsSession(options);
    await session.connectAndLogin();
    try {
      await session.setUp();
    } catch (error) {
      session.close();
      throw error;
    }
    session.opened = true;
    return session;
  }

  /**
   * Sends a command (in its turn: see CommandPacer) and resolves with its answer; rejects with
   * FicsCommandError, at once when too many commands wait already.
   */
  run<T>(command: FicsRequest<T>, timeoutMs = this.options.commandTimeoutMs): Promise<T> {
    if (this.ended) {
      return Promise.reject(
        new FicsCommandError(
          'closed',
          command.text,
          `the FICS connection closed before "${command.text}" was sent`,
        ),
      );
    }
    return new Promise<T>((resolve, reject) => {
      const admitted = this.pacer.admit({
        send: () => this.send(command, timeoutMs, resolve, reject),
        drop: reject,
      });
      if (admitted) return;
      const waiting = this.pacer.queued;
      reject(
        new FicsCommandError(
          'overloaded',
          command.text,
          `Kibitz has ${waiting} commands waiting for FICS already; try again in a moment.`,
        ),
      );
    });
  }

  private send<T>(
    command: FicsRequest<T>,
    timeoutMs: number,
    resolve: (value: T) => void,
    reject: (error: Error) => void,
  ): void {
    // Sent from the pacer's timer too, where a throw would end the process.
    try {
      if (this.capabilities.block) {
        const id = this.allocateId();
        const entry: Pending<T> = { command, resolve, reject, timer: NO_TIMER };
        entry.timer = this.expire(entry, timeoutMs, () => this.pending.delete(id), true);
        this.pending.set(id, entry as Pending<unknown>);
        this.write(`${id} ${command.text}`);
        return;
      }
      const match = command.matcher();
      this.write(command.text);
      if (match === null) {
        resolve(command.unanswered as T);
        return;
      }
      const entry: Waiting<T> = { command, resolve, reject, match, timer: NO_TIMER };
      entry.timer = this.expire(entry, timeoutMs, () => {
        this.waiting = this.waiting.filter((w) => w !== entry);
      });
      this.waiting.push(entry as Waiting<unknown>);
    } catch (error) {
      reject(error as Error);
    }
  }

  /** Says goodbye and closes; pending commands reject with `closed`. */
  close(): void {
    if (this.ended) return;
    this.closedByUs = true;
    const socket = this.socket;
    if (socket !== null && !socket.destroyed && this.handle !== null) {
      // Say goodbye, then let go once it is written (a stalled server must not keep us).
      socket.end('quit\n', () => socket.destroy());
    } else socket?.destroy();
    this.finish(null);
  }

  private connectAndLogin(): Promise<void> {
    const { host, port, clock, loginTimeoutMs } = this.options;
    return new Promise<void>((resolve, reject) => {
      const timer = clock.after(loginTimeoutMs, () =>
        this.loginSteps(this.login.timedOut(loginTimeoutMs / 1000)),
      );
      this.loginDone = (error) => {
        this.loginDone = null;
        timer.cancel();
        if (error === null) resolve();
        else {
          this.socket?.destroy();
          reject(error);
        }
      };
      const socket = connect({ host, port });
      this.socket = socket;
      socket.setNoDelay(true);
      socket.setKeepAlive(true, 60_000);
      socket.on('data', (chunk: Buffer) => this.guard(() => this.receive(chunk)));
      socket.on('error', (error) => {
        if (this.loginDone !== null) {
          this.loginDone(
            new FicsLoginError(
              'closed',
              `cannot reach FICS at ${this.server}: ${error.message}. Kibitz will try again.`,
            ),
          );
        } else this.finish(error);
      });
      socket.on('close', () =>
        this.guard(() => {
          if (this.loginDone !== null) this.loginSteps(this.login.closed());
          else this.finish(this.closedByUs ? null : new Error(`${this.server} closed the connection`));
        }),
      );
    });
  }

  private async setUp(): Promise<void> {
    const log = this.options.logger;
    const refused = this.options.refusedSettings ?? new Set<string>();
    // Without block mode an answer is recognised by its text; one not recognised means "no".
    const unframedWait = Math.min(this.options.commandTimeoutMs, UNFRAMED_IVAR_WAIT_MS);
    const ask = async (name: IvarName | 'block', wait?: number): Promise<boolean> => {
      if (refused.has(name)) return false;
      const answer = await this.run(setInterfaceVariable(name), wait).catch(() => null);
      // A server whose `iset` does nothing is not asked for the others either, now or later.
      if (answer === 'unsupported') for (const ivar of ['block', ...IVARS]) refused.add(ivar);
      else if (answer === 'refused') refused.add(name);
      return answer === 'set';
    };
    // Block mode first: every later reply can then be matched by id.
    this.capabilities.block = await ask('block', unframedWait);
    // Only what the decoders need or what saves traffic: BEL bytes are dropped by the framer.
    const sets = [
      setVariable('style', '12'),
      setVariable('seek', '0'),
      // Observers hear a game's kibitzes and whispers only with it on (`help kibitz`).
      setVariable('kibitz', '1'),
      setVariable('interface', this.options.interfaceName),
    ];
    if (this.capabilities.block) {
      const accepted = await Promise.all(IVARS.map((name) => ask(name)));
      IVARS.forEach((name, i) => (this.capabilities[name] = accepted[i]!));
      await Promise.all(sets.map((command) => this.run(command)));
    } else {
      // Without ids, one at a time: each answer is recognised by its text.
      for (const command of sets) await this.run(command);
      for (const name of IVARS) this.capabilities[name] = await ask(name, unframedWait);
    }
    log.info(
      { server: this.server, handle: this.handle, guest: this.guest, capabilities: this.capabilities },
      'logged in to FICS',
    );
    this.armKeepAlive();
  }

  /**
   * Runs a socket handler. Whatever it throws (a bug, or input no limit foresaw) drops this
   * connection, which the connection then makes again, instead of ending the process.
   */
  private guard(handler: () => void): void {
    try {
      handler();
    } catch (caught) {
      const error = caught instanceof Error ? caught : new Error(String(caught));
      this.options.logger.error(
        { server: this.server, error: shortened(error.message), stack: error.stack?.slice(0, 2_000) },
        'FICS connection failed while reading; reconnecting',
      );
      this.socket?.destroy();
      const failure = new Error(`reading from ${this.server} failed: ${shortened(error.message)}`);
      if (this.loginDone !== null)
        this.loginDone(new FicsLoginError('closed', `${failure.message}. Kibitz will try again.`));
      else this.finish(failure);
    }
  }

  private receive(chunk: Buffer): void {
    const decoded = this.decoder.push(chunk);
    for (let i = 0; i < decoded.length; i++) {
      const item = decoded[i]!;
      if (this.loginDone !== null) {
        if (item.kind === 'undecoded' && droppedForSize(item)) this.skipped(item);
        else if (item.kind === 'other' || item.kind === 'undecoded')
          this.loginSteps(this.login.line(item.line));
      } else if (!this.ended) {
        this.deliver(item);
      }
    }
    if (this.loginDone !== null) this.loginSteps(this.login.partial(this.decoder.partial));
    if (this.loginDone !== null && this.decoder.takePrompt()) this.loginSteps(this.login.prompted());
  }

  private loginSteps(steps: LoginStep[]): void {
    for (const step of steps) {
      switch (step.type) {
        case 'send':
          this.write(step.text, step.secret);
          break;
        case 'notice':
          this.options.logger.warn({ server: this.server, said: shortened(step.text) }, 'FICS login notice');
          break;
        case 'loggedIn':
          this.handle = step.handle;
          this.guest = step.guest;
          this.loginDone?.(null);
          break;
        case 'failed':
          this.loginDone?.(step.error);
          break;
      }
    }
  }

  private skipped(item: Undecoded): void {
    this.skippedLines.skipped({
      from: this.server,
      kind: item.lineKind,
      reason: item.reason,
      line: item.line,
    });
  }

  private deliver(item: Decoded): void {
    if (item.kind === 'reply') {
      const pending = this.pending.get(item.id);
      if (pending === undefined) {
        this.options.logger.debug(
          { id: item.id, code: item.code, length: item.text.length, start: shortened(item.text) },
          'FICS reply to no waiting command',
        );
        return;
      }
      this.pending.delete(item.id);
      const text = pending.command.text;
      this.settle(
        pending,
        item.dropped
          ? {
              ok: false,
              error: new FicsCommandError(
                'refused',
                text,
                `the FICS reply to "${text}" was too large and was dropped`,
              ),
            }
          : pending.command.reply(item.text),
      );
      return;
    }
    for (const waiting of this.waiting) {
      const match = waiting.match(item);
      if (match === undefined) continue;
      if (match !== 'claimed') {
        // The same command sent again gets the same answer: an earlier one still waiting (its
        // answer came in a form not recognised) must not take the later one's and leave it to
        // time out.
        const same = this.waiting.filter((w) => w.command.text === waiting.command.text);
        this.waiting = this.waiting.filter((w) => !same.includes(w));
        for (const entry of same) this.settle(entry, match);
      }
      break;
    }
    this.options.onEvent(item);
  }

  private settle<T>(pending: Pending<T>, outcome: Outcome<T>): void {
    pending.timer.cancel();
    if (outcome.ok) pending.resolve(outcome.value);
    else pending.reject(outcome.error);
  }

  private expire<T>(entry: Pending<T>, ms: number, forget: () => void, fatal = false): Timer {
    return this.options.clock.after(ms, () => {
      forget();
      const text = entry.command.text;
      entry.reject(
        new FicsCommandError('timeout', text, `FICS did not answer "${text}" within ${ms / 1000} s`),
      );
      // In block mode every command is answered: silence means the connection is dead.
      if (fatal && !this.ended) {
        this.options.logger.warn(
          { server: this.server, command: text },
          'FICS stopped answering; reconnecting',
        );
        this.socket?.destroy();
        this.finish(new Error(`${this.server} stopped answering ("${text}" timed out)`));
      }
    });
  }

  private allocateId(): number {
    for (let tries = 0; tries < MAX_ID; tries++) {
      const id = this.nextId;
      this.nextId = id >= MAX_ID ? 1 : id + 1;
      if (!this.pending.has(id)) return id;
    }
    throw new Error('every block id is in use');
  }

  private write(text: string, secret = false): void {
    assertWireLine(text);
    if (this.socket === null || this.socket.destroyed) return;
    this.options.logger.debug({ server: this.server, sent: secret ? '[secret]' : text }, 'to FICS');
    this.socket.write(`${text}\n`);
    if (this.handle !== null) this.armKeepAlive();
  }

  private armKeepAlive(): void {
    this.keepAliveTimer?.cancel();
    if (this.ended) return;
    this.keepAliveTimer = this.options.clock.after(this.options.keepAliveMs, () => {
      this.keepAliveTimer = null;
      this.run(keepAlive()).catch((error: Error) =>
        this.options.logger.warn({ server: this.server, error: error.message }, 'keep-alive failed'),
      );
    });
  }

  private finish(error: Error | null): void {
    if (this.ended) return;
    this.ended = true;
    this.keepAliveTimer?.cancel();
    for (const entry of [...this.pending.values(), ...this.waiting]) {
      entry.timer.cancel();
      const text = entry.command.text;
      entry.reject(
        new FicsCommandError('closed', text, `the FICS connection closed before the reply to "${text}"`),
      );
    }
    this.pending.clear();
    this.waiting = [];
    this.pacer.close(
      new FicsCommandError('closed', '', 'the FICS connection closed before the command was sent'),
    );
    if (this.opened) this.options.onClose(error);
  }
}
