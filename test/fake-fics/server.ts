// A FICS server for tests, on 127.0.0.1 and a free port. It speaks as lasker or FatICS do in the
// shared transcripts: banner, guest and registered logins with telnet ECHO bytes around the
// prompts, prompts glued to what follows, "\n\r" or "\r\n", interface variables accepted or
// refused per dialect, block-mode framing, and the observer's commands. Games move only when the
// test says so (`playMove`), so tests are deterministic. It can also misbehave on purpose: drop
// connections, stall, split its output at any byte, send garbage, refuse guests, be full.
import { createServer, type Server, type Socket } from 'node:net';
import { systemClock, type Clock } from '../../src/fics/clock.js';
import type { GameResult } from '../../src/protocol/events.js';
import { FATICS, LASKER, UHLIN, type Dialect } from './dialect.js';
import { ScriptedGame, type BoardView, type GameScript } from './game.js';
import { waitFor } from '../support/wait.js';

export interface FakeFicsOptions {
  dialect?: 'fatics' | 'lasker' | 'uhlin';
  /**
   * The login dialogue replayed from a capture: `raw` sent up to `offsets[0]`, then after the
   * k-th line received up to `offsets[k + 1]`; after the last offset the session is logged in as
   * `name`.
   */
  loginReplay?: { raw: Uint8Array; offsets: readonly number[]; name: string };
  /** Read one input line per connection every this many ms (the FICS 1.6.2 lineage's wake-ups). */
  lineIntervalMs?: number;
  /** Accept `guest` logins (default true). */
  guests?: boolean;
  /** Registered handles and their passwords. */
  accounts?: Record<string, string>;
  /** Games one login may observe (FICS: 30). */
  maxObserved?: number;
  /** Refuse every login as full. */
  full?: boolean;
  /** For idle accounting (`enforceIdle`). */
  clock?: Clock;
  /** Write output in pieces of at most this many bytes. */
  chunkSize?: number;
  /** Glue pushed lines to the prompt (`fics% <12> ...`) instead of starting a new line. */
  gluePrompts?: boolean;
  /** Answer each command this long after it came (a slow or distant server); at once by default. */
  replyDelayMs?: number;
  /**
   * Know `pobserve <player>` (observe the other board of the player's bughouse game), as
   * freechess.org documents it. lasker and FatICS answer "pobserve: Command not found." (default).
   */
  pobserve?: boolean;
  /**
   * Answers a command in a form of the test's choosing (lines), or as usual when it returns
   * undefined: a reply Kibitz does not recognise, as another server version might send.
   */
  answer?: (command: string) => string[] | undefined;
  /** Bytes sent on connecting, before the banner (a hostile or broken server's). */
  preamble?: string | Uint8Array;
}

export interface Received {
  session: number;
  line: string;
  /** `login` for the login dialogue, `command` after it. */
  phase: 'login' | 'command';
}

type Phase = 'login' | 'password' | 'return' | 'prompt' | 'closed';

interface FakeSession {
  id: number;
  socket: Socket;
  phase: Phase;
  name: string | null;
  /** Set while a registered handle waits for its password. */
  account: string | null;
  block: boolean;
  ivars: Set<string>;
  gin: boolean;
  /** `set kibitz 1`: hears kibitzes and whispers of the games it observes (off until set). */
  kibitz: boolean;
  observed: Set<number>;
  lastCommandAt: number;
  input: string;
  held: Buffer[];
  /** Lines received, not yet read (lineIntervalMs). */
  queue: string[];
  reading: boolean;
  /** Login lines replayed so far (loginReplay). */
  replayed: number;
}

const IAC_WILL_ECHO = Buffer.from([0xff, 0xfb, 0x01]);
const IAC_WONT_ECHO = Buffer.from([0xff, 0xfc, 0x01]);
const PROMPT = 'fics% ';
const IDLE_LIMIT_MS = 60 * 60_000;
/** Block codes of the FICS protocol for the commands served here. */
const CODE = {
  badCommand: 512,
  date: 28,
  games: 43,
  iset: 56,
  moves: 77,
  observe: 80,
  refresh: 101,
  set: 109,
  unobserve: 138,
} as const;

export class FakeFics {
  readonly received: Received[] = [];
  private readonly dialect: Dialect;
  private readonly sessions: FakeSession[] = [];
  private readonly games = new Map<number, ScriptedGame>();
  /** Players the server knows to be logged in without a game. */
  private readonly idlePlayers = new Set<string>();
  private nextSession = 1;
  private guestSerial = 0;
  private stalled = false;
  private readonly clock: Clock;

  private constructor(
    private readonly server: Server,
    private readonly options: FakeFicsOptions,
  ) {
    this.dialect = options.dialect === 'lasker' ? LASKER : options.dialect === 'uhlin' ? UHLIN : FATICS;
    this.clock = options.clock ?? systemClock;
  }

  static async start(options: FakeFicsOptions = {}): Promise<FakeFics> {
    const server = createServer();
    const fake = new FakeFics(server, options);
    server.on('connection', (socket) => fake.accept(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  get port(): number {
    const address = this.server.address();
    if (address === null || typeof address === 'string') throw new Error('not listening');
    return address.port;
  }

  /** Sessions connected now (logged in or not). */
  get connected(): number {
    return this.sessions.filter((s) => s.phase !== 'closed').length;
  }

  /** Lines received after login, optionally from one session. */
  commands(session?: number): string[] {
    return this.received
      .filter((r) => r.phase === 'command' && (session === undefined || r.session === session))
      .map((r) => r.line);
  }

  /** Session ids observing a game. */
  observers(game: number): number[] {
    return this.sessions.filter((s) => s.phase !== 'closed' && s.observed.has(game)).map((s) => s.id);
  }

  /** Logged-in sessions with the games each observes. */
  loggedIn(): { id: number; name: string; observed: number[] }[] {
    return this.sessions
      .filter((s) => s.phase === 'prompt')
      .map((s) => ({ id: s.id, name: s.name!, observed: [...s.observed] }));
  }

  game(number: number): ScriptedGame | undefined {
    return this.games.get(number);
  }

  /** Starts a game under `number`, else the lowest free one; `set gin 1` sessions hear of it. */
  addGame(script: GameScript, number?: number): number {
    if (number === undefined) {
      number = 1;
      while (this.games.has(number)) number++;
    } else if (this.games.has(number)) throw new Error(`game ${number} is being played`);
    const game = new ScriptedGame(number, script);
    this.games.set(number, game);
    for (const session of this.loggedInSessions()) if (session.gin) this.push(session, [game.createdLine()]);
    return number;
  }

  /** Starts two linked bughouse boards (A's White partners B's Black). */
  addBughouse(a: GameScript, b: GameScript): [number, number] {
    const first = this.addGame({ ...a, variant: 'bughouse' });
    const second = this.addGame({ ...b, variant: 'bughouse' });
    const [ga, gb] = [this.games.get(first)!, this.games.get(second)!];
    ga.partner = gb;
    gb.partner = ga;
    return [first, second];
  }

  /** A player logged in and not playing. */
  addPlayer(name: string): void {
    this.idlePlayers.add(name.toLowerCase());
  }

  /** Plays the game's next scripted move and sends it to its observers; returns the SAN. */
  playMove(number: number): string {
    const game = this.games.get(number);
    if (game === undefined) throw new Error(`no game ${number}`);
    const played = game.play();
    if (played.passed !== null && game.partner !== null) {
      const partner = game.partner;
      // The partner board hears of the passed piece before the capturing board moves.
      const notice = partner.holdings(this.dialect.capitalisedHoldings, played.passed);
      for (const session of this.watching(partner.number)) {
        // As in the transcripts: lasker glues the notice to the prompt, FatICS leaves a blank line.
        if (this.dialect.name === 'lasker') this.push(session, [notice], true);
        else this.push(session, ['', notice]);
      }
    }
    for (const session of this.watching(number)) {
      const delta = game.variant === 'chess' && session.ivars.has('compressmove');
      this.push(session, delta ? [game.delta()] : this.board(session, game));
    }
    return played.san;
  }

  playMoves(number: number, count: number): string[] {
    return Array.from({ length: count }, () => this.playMove(number));
  }

  /** Plays every remaining move, then ends the game with the script's result. */
  playAll(number: number): void {
    while ((this.games.get(number)?.remaining ?? 0) > 0) this.playMove(number);
    this.endGame(number);
  }

  /**
   * Someone says something in a game, as freechess.org shows it to observers that listen
   * (`help kibitz`): `Handle(titles)(rating)[game] kibitzes: text`, or `whispers:`.
   */
  say(number: number, who: string, text: string, whisper = false): void {
    if (!this.games.has(number)) throw new Error(`no game ${number}`);
    const line = `${who}[${number}] ${whisper ? 'whispers' : 'kibitzes'}: ${text}`;
    for (const session of this.watching(number)) if (session.kibitz) this.push(session, [line]);
  }

  /** Ends a game: end line to observers (and `gin` sessions), then the number is free again. */
  endGame(number: number, result?: GameResult, reason?: string): void {
    const game = this.games.get(number);
    if (game === undefined) throw new Error(`no game ${number}`);
    game.ended = true;
    game.result = result ?? game.script.result ?? '*';
    game.reason = reason ?? game.script.reason ?? 'Game aborted by mutual agreement';
    for (const session of this.loggedInSessions()) {
      const observing = session.observed.has(number);
      if (!observing && !session.gin) continue;
      this.push(session, [game.endLine()]);
      if (observing && this.dialect.removingAfterEnd) {
        this.push(session, [`Removing game ${number} from observation list.`]);
      }
      session.observed.delete(number);
    }
    this.games.delete(number);
  }

  /** Closes connections (all, or one session's) as a network failure would. */
  drop(session?: number): void {
    for (const s of this.sessions) {
      if (s.phase !== 'closed' && (session === undefined || s.id === session)) s.socket.destroy();
    }
  }

  /**
   * The server killed and started again: every connection dropped, every game gone without an
   * end line; numbers start over.
   */
  restart(): void {
    this.drop();
    this.games.clear();
  }

  /** While stalled the server reads but answers nothing; un-stalling sends what was held. */
  stall(on: boolean): void {
    this.stalled = on;
    if (on) return;
    for (const session of this.sessions) {
      for (const chunk of session.held.splice(0)) this.write(session, chunk);
    }
  }

  /** Raw bytes to every logged-in session (garbage, odd lines). */
  sendRaw(data: string | Uint8Array): void {
    for (const session of this.loggedInSessions()) this.send(session, data);
  }

  /** Logs out sessions idle for more than 60 minutes of the clock, as FICS does. */
  enforceIdle(): void {
    for (const session of this.loggedInSessions()) {
      if (this.clock.now() - session.lastCommandAt <= IDLE_LIMIT_MS) continue;
      const { eol } = this.dialect;
      this.send(session, `${eol}**** Auto-logout because you were idle more than 60 minutes. ****${eol}`);
      session.socket.end();
    }
  }

  /** Waits (bounded) until `predicate` holds. */
  async waitFor(predicate: () => boolean, what: string, timeoutMs = 3_000): Promise<void> {
    await waitFor(predicate, `${what} (fake FICS)`, { timeoutMs, intervalMs: 2 });
  }

  async close(): Promise<void> {
    for (const session of this.sessions) session.socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(socket: Socket): void {
    socket.setNoDelay(true);
    const session: FakeSession = {
      id: this.nextSession++,
      socket,
      phase: 'login',
      name: null,
      account: null,
      block: false,
      ivars: new Set(),
      gin: false,
      kibitz: false,
      observed: new Set(),
      lastCommandAt: this.clock.now(),
      input: '',
      held: [],
      queue: [],
      reading: false,
      replayed: 0,
    };
    this.sessions.push(session);
    socket.on('data', (chunk: Buffer) => this.receive(session, chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      session.phase = 'closed';
      session.observed.clear();
    });
    const { eol } = this.dialect;
    if (this.options.preamble !== undefined) this.send(session, this.options.preamble);
    const replay = this.options.loginReplay;
    if (replay !== undefined) this.send(session, replay.raw.subarray(0, replay.offsets[0]));
    else this.send(session, `${this.dialect.banner.join(eol)}${eol}login: `);
  }

  private receive(session: FakeSession, chunk: Buffer): void {
    session.input += chunk.toString('latin1');
    let end: number;
    while ((end = session.input.indexOf('\n')) >= 0) {
      const line = session.input.slice(0, end).replace(/\r$/, '');
      session.input = session.input.slice(end + 1);
      if (this.options.lineIntervalMs === undefined) this.read(session, line);
      else session.queue.push(line);
    }
    if (this.options.lineIntervalMs !== undefined && !session.reading) this.readLater(session);
  }

  /** One queued line per wake-up, as a server that sleeps between reads. */
  private readLater(session: FakeSession): void {
    if (session.queue.length === 0) {
      session.reading = false;
      return;
    }
    session.reading = true;
    setTimeout(() => {
      this.read(session, session.queue.shift()!);
      this.readLater(session);
    }, this.options.lineIntervalMs);
  }

  private read(session: FakeSession, line: string): void {
    if (session.phase === 'closed') return;
    this.received.push({
      session: session.id,
      line,
      phase: session.phase === 'prompt' ? 'command' : 'login',
    });
    if (session.phase === 'prompt') this.command(session, line);
    else this.login(session, line);
  }

  private login(session: FakeSession, line: string): void {
    const replay = this.options.loginReplay;
    if (replay !== undefined) {
      const k = ++session.replayed;
      this.send(session, replay.raw.subarray(replay.offsets[k - 1], replay.offsets[k]));
      if (k === replay.offsets.length - 1) {
        session.name = replay.name;
        session.phase = 'prompt';
      }
      return;
    }
    const { eol } = this.dialect;
    const lasker = this.dialect.name === 'lasker';
    if (session.phase === 'return') {
      this.start(session, true);
      return;
    }
    if (session.phase === 'password') {
      this.send(session, IAC_WONT_ECHO);
      const account = session.account!;
      if (this.options.accounts?.[account] === line) {
        this.kickOther(session, account);
        session.name = account;
        this.start(session, false);
      } else {
        session.phase = 'login';
        this.send(session, `${eol}${eol}**** Invalid password! ****${eol}${eol}login: `);
      }
      return;
    }
    const name = line.trim();
    if (this.options.full) {
      this.send(session, `${eol}Sorry, the server is full.  Please try again later.${eol}`);
      session.socket.end();
      return;
    }
    if (!/^[A-Za-z]+$/.test(name)) {
      this.send(
        session,
        `${eol}Sorry, names can only consist of lower and upper case letters.  Try again.${eol}login: `,
      );
      return;
    }
    const account = Object.keys(this.options.accounts ?? {}).find(
      (a) => a.toLowerCase() === name.toLowerCase(),
    );
    if (account !== undefined) {
      session.phase = 'password';
      session.account = account;
      if (lasker) this.send(session, IAC_WILL_ECHO);
      this.send(
        session,
        `${eol}"${account}" is a registered name.  If it is yours, type the password.${eol}If not, just hit return to try another name.${eol}${eol}password: `,
      );
      if (!lasker) this.send(session, IAC_WILL_ECHO);
      return;
    }
    let guestName = name;
    if (name.toLowerCase() === 'guest' && !this.dialect.keepsGuestName) {
      if (this.options.guests === false) {
        this.send(
          session,
          `${eol}Due to abuse problems, guest connections have been prevented.${eol}login: `,
        );
        return;
      }
      guestName = this.guestName();
    } else if (this.loggedInSessions().some((s) => s.name?.toLowerCase() === name.toLowerCase())) {
      this.send(session, `${eol}*** Sorry ${name} is already logged in ***${eol}`);
      session.socket.end();
      return;
    }
    session.name = guestName;
    session.phase = 'return';
    const prompt = `Press return to enter the ${this.dialect.sessionLine ? 'server' : 'FICS'} as "${guestName}":`;
    if (lasker) {
      this.send(session, IAC_WILL_ECHO);
      this.send(session, `${eol}${this.dialect.guestIntro(guestName).join(eol)}${eol}${prompt}`);
    } else {
      this.send(session, `${eol}${this.dialect.guestIntro(guestName).join(eol)}${eol}${prompt}${eol}`);
      this.send(session, IAC_WILL_ECHO);
    }
  }

  private start(session: FakeSession, guest: boolean): void {
    const { eol } = this.dialect;
    session.phase = 'prompt';
    session.lastCommandAt = this.clock.now();
    this.send(session, IAC_WONT_ECHO);
    const started = this.dialect.sessionLine
      ? `${eol}**** Starting FICS session as ${session.name}${guest ? '(U)' : ''} ****`
      : '';
    this.send(
      session,
      `${started}${eol}Welcome to the fake FICS server of the Kibitz tests.${eol}${eol}${PROMPT}`,
    );
  }

  private kickOther(session: FakeSession, name: string): void {
    const other = this.loggedInSessions().find(
      (s) => s !== session && s.name?.toLowerCase() === name.toLowerCase(),
    );
    if (other === undefined) return;
    const { eol } = this.dialect;
    this.send(session, `${eol} **** ${name} is already logged in - kicking them out. ****${eol}`);
    this.send(other, `**** ${name} has arrived - you can't both be logged in. ****${eol}`);
    other.socket.end();
  }

  private command(session: FakeSession, raw: string): void {
    let line = raw.trim();
    // `$$` does not reset the idle timer; `$` only skips alias expansion.
    if (line.startsWith('$$')) line = line.slice(2);
    else session.lastCommandAt = this.clock.now();
    if (line.startsWith('$')) line = line.slice(1);
    let id: number | null = null;
    const framed = /^(\d+) (.*)$/.exec(line);
    if (session.block && framed !== null) {
      id = Number(framed[1]);
      line = framed[2]!;
    }
    const [word = '', ...args] = line.split(/\s+/);
    const reply = (code: number, lines: string[]): void => this.reply(session, id, code, lines);
    const answer = this.options.answer?.(line);
    if (answer !== undefined) {
      reply(CODE.badCommand, answer);
      return;
    }
    switch (word.toLowerCase()) {
      case '':
        this.send(session, PROMPT);
        return;
      case 'iset':
        this.iset(session, id, args[0] ?? '', args[1] ?? '');
        return;
      case 'set': {
        const [name = '', ...value] = args;
        if (name === 'gin') session.gin = value[0] === '1';
        if (name === 'kibitz') session.kibitz = value[0] === '1';
        reply(CODE.set, [this.dialect.setReply(name, value.join(' '))]);
        return;
      }
      case 'observe':
        reply(CODE.observe, this.observe(session, args[0] ?? ''));
        return;
      case 'pobserve':
        if (this.options.pobserve !== true) break;
        reply(CODE.observe, this.observe(session, args[0] ?? '', true));
        return;
      case 'unobserve': {
        const game = Number(args[0]);
        const was = session.observed.delete(game);
        reply(CODE.unobserve, [
          was ? `Removing game ${game} from observation list.` : `You are not observing game ${game}.`,
        ]);
        return;
      }
      case 'moves': {
        const game = this.games.get(Number(args[0]));
        reply(CODE.moves, game === undefined ? ['There is no such game.'] : game.moveList(this.dialect.name));
        return;
      }
      case 'refresh': {
        const game = this.games.get(Number(args[0]));
        if (game === undefined) reply(CODE.refresh, ['There is no such game.']);
        else if (this.dialect.observeHeader)
          reply(CODE.refresh, [game.header(), '', ...this.board(session, game)]);
        else reply(CODE.refresh, ['', ...this.board(session, game)]);
        return;
      }
      case 'games': {
        const rows = [...this.games.values()].sort((a, b) => a.number - b.number).map((g) => g.gamesRow());
        // Both servers say only this when nothing is played.
        if (rows.length === 0) reply(CODE.games, ['There are no games in progress.']);
        else reply(CODE.games, [...rows, '', this.dialect.gamesFooter(rows.length, rows.length)]);
        return;
      }
      case 'date':
        reply(CODE.date, [
          'Local time     - Fri Nov 21 2026 05:02',
          'Server time    - Fri Nov 21 2026 05:02',
          'GMT            - Fri Nov 21 2026 05:02',
        ]);
        return;
      case 'quit': {
        const { eol } = this.dialect;
        this.send(session, `Thank you for using a Free (GNU) Internet Chess server.${eol}`);
        session.socket.end();
        return;
      }
    }
    reply(CODE.badCommand, [this.dialect.unknownCommand(word)]);
  }

  private iset(session: FakeSession, id: number | null, name: string, value: string): void {
    if (this.dialect.isetStub) {
      this.reply(session, id, CODE.iset, [`com_iset: ${name} ${value}`]);
      return;
    }
    if (!this.dialect.ivars.has(name)) {
      this.reply(session, id, CODE.iset, [`No such ivariable "${name}".`]);
      return;
    }
    if (value === '1') session.ivars.add(name);
    else session.ivars.delete(name);
    const said =
      value === '1' ? this.dialect.ivarSet(name) : this.dialect.ivarSet(name).replace(' set', ' unset');
    this.reply(session, id, CODE.iset, [said]);
    // Block mode starts with the command after this one.
    if (name === 'block') session.block = value === '1';
  }

  private observe(session: FakeSession, target: string, partner = false): string[] {
    let game: ScriptedGame | undefined;
    if (/^\d+$/.test(target)) {
      game = this.games.get(Number(target));
      if (game === undefined) return ['There is no such game.'];
    } else {
      const name = target.toLowerCase();
      game = [...this.games.values()].find((g) =>
        [g.script.white, g.script.black].some((p) => p.toLowerCase() === name),
      );
      if (game === undefined) {
        const known =
          this.idlePlayers.has(name) || this.loggedInSessions().some((s) => s.name?.toLowerCase() === name);
        return [known ? this.dialect.notPlaying(target) : `${target} is not logged in.`];
      }
      if (partner) {
        if (game.partner === null) return [`${target} is not playing a bughouse game.`];
        game = game.partner;
      }
    }
    const number = game.number;
    if (session.observed.has(number)) {
      if (this.dialect.name !== 'lasker') return [`You are already observing game ${number}.`];
      // lasker: observing an observed game again stops observing it.
      session.observed.delete(number);
      return [`Removing game ${number} from observation list.`];
    }
    if (session.observed.size >= (this.options.maxObserved ?? 30)) {
      return ['You are already observing the maximum number of games.'];
    }
    session.observed.add(number);
    const lines = [`You are now observing game ${number}.`];
    if (this.dialect.observeHeader) {
      lines.push(game.header());
      if (session.ivars.has('gameinfo')) lines.push(game.gameInfo());
    }
    lines.push('', ...this.board(session, game));
    return lines;
  }

  /** A full board for this session, with the holdings line of crazyhouse and bughouse. */
  private board(session: FakeSession, game: ScriptedGame): string[] {
    const view: BoardView = {
      ms: this.dialect.honoursMs && session.ivars.has('ms'),
      lag: this.dialect.lag,
      lasker: this.dialect.name === 'lasker',
      relation: 0,
    };
    const lines = [game.style12(view)];
    if (game.variant !== 'chess') {
      // FatICS leaves a blank line between the two; lasker does not.
      if (this.dialect.name === 'fatics') lines.push('');
      lines.push(game.holdings(this.dialect.capitalisedHoldings));
    }
    return lines;
  }

  private reply(session: FakeSession, id: number | null, code: number, lines: string[]): void {
    const { eol } = this.dialect;
    const text = lines.join(eol);
    const answer =
      session.block && id !== null
        ? `\x15${id}\x16${code}\x16${text}${eol}\x17${eol}${PROMPT}`
        : `${text}${eol}${PROMPT}`;
    const delay = this.options.replyDelayMs ?? 0;
    // Every answer waits as long, so they keep their order.
    if (delay > 0) setTimeout(() => this.send(session, answer), delay);
    else this.send(session, answer);
  }

  /** Unrequested output: a new line, the lines, a prompt (or glued straight to the prompt). */
  private push(session: FakeSession, lines: string[], glue = this.options.gluePrompts ?? false): void {
    const { eol } = this.dialect;
    this.send(session, `${glue ? '' : eol}${lines.join(eol)}${eol}${PROMPT}`);
  }

  private send(session: FakeSession, data: string | Uint8Array): void {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data);
    if (this.stalled) session.held.push(bytes);
    else this.write(session, bytes);
  }

  private write(session: FakeSession, bytes: Buffer): void {
    if (session.socket.destroyed) return;
    const size = this.options.chunkSize ?? bytes.length;
    for (let at = 0; at < bytes.length; at += size) session.socket.write(bytes.subarray(at, at + size));
  }

  private watching(game: number): FakeSession[] {
    return this.loggedInSessions().filter((s) => s.observed.has(game));
  }

  private loggedInSessions(): FakeSession[] {
    return this.sessions.filter((s) => s.phase === 'prompt');
  }

  private guestName(): string {
    let n = this.guestSerial++;
    let letters = '';
    for (let i = 0; i < 4; i++, n = Math.floor(n / 26))
      letters = String.fromCharCode(65 + (n % 26)) + letters;
    return `Guest${letters}`;
  }
}
