// The requests the observer sends to FICS, each with the two ways its answer is recognised: the
// text of a block-mode reply (`iset block 1`), or, on servers without block mode (lasker), the
// events that follow it. Request text is built only from checked values (validate.ts) and
// constants.
import type { MoveList, ServerEvent } from '../protocol/events.js';
import { ObserverDecoder } from '../protocol/decode.js';
import { err, ok, type Result } from '../result.js';
import { FicsCommandError, type CommandFailure } from './errors.js';
import { parseGameNumber } from './validate.js';
import { isGamesFooter, isGamesRow, parseGamesList, type GamesList } from './games-list.js';
import type { GameNumber } from '../protocol/game-number.js';
import type { Handle } from '../protocol/handle.js';

/** What a command's answer meant: its value, or the refusal. */
export type Outcome<T> = Result<T, FicsCommandError>;

/**
 * What one event means to a command waiting without block mode: not its business (undefined),
 * part of its answer (`claimed`), or its outcome.
 */
export type Match<T> = undefined | 'claimed' | Outcome<T>;

export interface FicsRequest<T> {
  readonly text: string;
  /** Block mode: the whole reply. */
  reply(text: string): Outcome<T>;
  /** Without block mode: a fresh matcher per sending, or null when nothing recognisable comes back. */
  matcher(): ((event: ServerEvent) => Match<T>) | null;
  /** The value of a command sent without block mode and without a matcher. */
  readonly unanswered?: T;
}

/** How an observe went. */
export interface Observed {
  game: GameNumber;
  /**
   * lasker stops observing a game that is observed again ("Removing game N from observation
   * list."): the caller observes it once more.
   */
  toggledOff: boolean;
}

/**
 * An unknown command, in every dialect: `WORD: Command not found.` (lasker, FatICS, freechess.org),
 * `WORD: Command has failed.` (the FICS 1.6.2 lineage).
 */
const UNKNOWN_COMMAND = /^\S+: Command (?:not found|has failed)\.?\s*$/;

export function unknownCommand(line: string): boolean {
  return UNKNOWN_COMMAND.test(line.trim());
}

/** Known refusals, in the words of lasker, FatICS, freechess.org and the FICS 1.6.2 lineage. */
const REFUSALS: readonly [RegExp, CommandFailure][] = [
  [/^There is no such game\.?\s*$/, 'noSuchGame'],
  [/^You are already observing the maximum number of games\.?\s*$/, 'observeLimit'],
  [/^\S+ is not logged in\.?\s*$/, 'notLoggedIn'],
  [/^\S+ is (?:not playing|neither playing nor examining)\b.*$/, 'notPlaying'],
  // lasker's words for a handle not logged in now ("No user named "X" is logged in.").
  [/^No (?:user|player) named "[^"]*" is (?:logged in|online)\b/, 'notLoggedIn'],
  [/^No (?:user|player) named "[^"]*"/, 'noSuchPlayer'],
  [UNKNOWN_COMMAND, 'unknownCommand'],
  [/^Ambiguous (?:name|command)\b/, 'refused'],
  [/^You are not observing game \d+\.?\s*$/, 'refused'],
];

/** The refusal in a reply or line, if it is one. */
function refusal(command: string, text: string): FicsCommandError | null {
  for (const line of text.split('\n')) {
    for (const [pattern, code] of REFUSALS) {
      if (pattern.test(line))
        return new FicsCommandError(code, command, refusalMessage(code, command, line), line);
    }
  }
  return null;
}

function refusalMessage(code: CommandFailure, command: string, said: string): string {
  switch (code) {
    case 'noSuchGame':
      return `FICS has no such game ("${command}"): it may have ended, or the number is wrong.`;
    case 'observeLimit':
      return 'This FICS connection already observes as many games as the server allows.';
    case 'notLoggedIn':
      return `That player is not logged in to FICS ("${said}").`;
    case 'notPlaying':
      return `That player is not playing a game right now ("${said}").`;
    case 'noSuchPlayer':
      return `FICS knows no such player ("${said}").`;
    default:
      return `FICS refused "${command}": ${said}`;
  }
}

function lineOf(event: ServerEvent): string | null {
  return event.kind === 'other' || event.kind === 'undecoded' ? event.line : null;
}

/** `set name value` for our own constant settings; the reply text is only logged. */
export function setVariable(name: string, value: string): FicsRequest<string> {
  return { text: `set ${name} ${value}`, reply: ok, matcher: () => null, unanswered: '' };
}

/**
 * How a server took `iset name 1`: set, refused, or not understood at all (the FICS 1.6.2 lineage's
 * `iset` only echoes `com_iset: name 1`; a server without `iset` calls it an unknown command).
 */
export type IvarAnswer = 'set' | 'refused' | 'unsupported';

/** `iset name 1`. */
export function setInterfaceVariable(name: string): FicsRequest<IvarAnswer> {
  const accepted = new RegExp(String.raw`^${name} set\.?\s*$`, 'i');
  const refused = new RegExp(
    String.raw`^(?:No such ivariable "?${name}"?|Unknown ivariable|Bad value .*${name}|${name} unset)`,
    'i',
  );
  const stub = /^com_iset:/;
  const answer = (line: string): IvarAnswer | undefined => {
    if (accepted.test(line)) return 'set';
    if (refused.test(line)) return 'refused';
    return stub.test(line) || unknownCommand(line) ? 'unsupported' : undefined;
  };
  return {
    text: `iset ${name} 1`,
    reply: (text) => {
      const lines = text.split('\n').map((line) => line.trim());
      const answers = lines.map(answer);
      return ok(answers.find((a) => a === 'set') ?? answers.find((a) => a !== undefined) ?? 'refused');
    },
    matcher: () => (event) => {
      const line = lineOf(event)?.trim();
      if (line === undefined) return undefined;
      const said = answer(line);
      return said === undefined ? undefined : ok(said);
    },
  };
}

const OBSERVING = /You are now observing game (\d+)\./;
const ALREADY = /You are already observing game (\d+)\./;
const REMOVED = /Removing game (\d+) from observation list\./;

function observed(command: string, text: string): Outcome<Observed> {
  const now = OBSERVING.exec(text) ?? ALREADY.exec(text);
  const removed = now === null ? REMOVED.exec(text) : null;
  // The server's number is checked like a user's before anything sends it back.
  const game = parseGameNumber((now ?? removed)?.[1]);
  if (game.ok) return ok({ game: game.value, toggledOff: now === null });
  const refused = refusal(command, text);
  return err(
    refused ?? new FicsCommandError('refused', command, `FICS did not confirm "${command}": ${text}`, text),
  );
}

/** A game the server says is observed (or toggled off), its number checked; else no match. */
function observedGame(game: number, toggledOff: boolean): Match<Observed> {
  const checked = parseGameNumber(game);
  return checked.ok ? ok({ game: checked.value, toggledOff }) : undefined;
}

/**
 * Unframed, a removal answers the observe only when it names a game that observe could have
 * toggled off: the one asked for, or (by handle) one observed when it was sent.
 */
function observeMatcher(
  command: string,
  game: number | null,
  observing: ReadonlySet<number>,
): () => (event: ServerEvent) => Match<Observed> {
  return () => (event) => {
    if (event.kind === 'observing' && (game === null || event.game === game)) {
      return observedGame(event.game, false);
    }
    if (
      event.kind === 'stoppedObserving' &&
      (game === null ? observing.has(event.game) : event.game === game)
    ) {
      return observedGame(event.game, true);
    }
    const line = lineOf(event);
    if (line === null) return undefined;
    if (ALREADY.test(line)) return observed(command, line);
    const refused = refusal(command, line);
    return refused === null ? undefined : err(refused);
  };
}

export function observeGame(game: GameNumber): FicsRequest<Observed> {
  const text = `observe ${game}`;
  return { text, reply: (reply) => observed(text, reply), matcher: observeMatcher(text, game, new Set()) };
}

/**
 * Observes the game a player is playing now, or with `partner` the other board of the player's
 * bughouse game (`pobserve`: freechess.org has it; lasker and FatICS answer "pobserve: Command not
 * found."). `observing` = the games observed when it is sent.
 */
export function observePlayer(
  handle: Handle,
  observing: ReadonlySet<number>,
  partner = false,
): FicsRequest<Observed> {
  const text = `${partner ? 'pobserve' : 'observe'} ${handle}`;
  return {
    text,
    reply: (reply) => observed(text, reply),
    matcher: observeMatcher(text, null, new Set(observing)),
  };
}

export function unobserve(game: GameNumber): FicsRequest<true> {
  const text = `unobserve ${game}`;
  const done = (said: string): Outcome<true> => {
    const refused = refusal(text, said);
    // Not observing it is what we wanted.
    return refused === null || refused.code === 'refused' ? ok(true) : err(refused);
  };
  return {
    text,
    reply: done,
    matcher: () => (event) => {
      if (event.kind === 'stoppedObserving' && event.game === game) return ok(true);
      const line = lineOf(event);
      return line !== null && /^You are not observing game \d+/.test(line) ? ok(true) : undefined;
    },
  };
}

/** `moves N`: the game's move list so far. lasker's list names no game; the caller fills it in. */
export function moves(game: GameNumber): FicsRequest<MoveList> {
  const text = `moves ${game}`;
  return {
    text,
    reply: (reply) => {
      const list = new ObserverDecoder()
        .lines(reply.split('\n'))
        .find((event): event is MoveList => event.kind === 'moveList');
      if (list !== undefined) return ok({ ...list, game });
      return err(
        refusal(text, reply) ??
          new FicsCommandError('refused', text, `FICS sent no move list for "${text}": ${reply}`, reply),
      );
    },
    matcher: () => (event) => {
      if (event.kind === 'moveList' && (event.game === null || event.game === game))
        return ok({ ...event, game });
      const line = lineOf(event);
      const refused = line === null ? null : refusal(text, line);
      return refused === null ? undefined : err(refused);
    },
  };
}

/** `refresh N`: the server sends the game's board again. */
export function refresh(game: GameNumber): FicsRequest<true> {
  const text = `refresh ${game}`;
  return {
    text,
    reply: (reply) => {
      if (reply.includes('<12> ')) return ok(true);
      return err(
        refusal(text, reply) ?? new FicsCommandError('refused', text, `FICS sent no board: ${reply}`, reply),
      );
    },
    matcher: () => (event) => {
      if (event.kind === 'style12' && event.game === game) return ok(true);
      const line = lineOf(event);
      const refused = line === null ? null : refusal(text, line);
      return refused === null ? undefined : err(refused);
    },
  };
}

/** `games`: every game on the server. */
export function games(): FicsRequest<GamesList> {
  return {
    text: 'games',
    reply: (reply) => ok(parseGamesList(reply)),
    matcher: () => {
      const lines: string[] = [];
      return (event) => {
        const line = lineOf(event);
        if (line === null) return undefined;
        if (isGamesRow(line)) {
          lines.push(line);
          return 'claimed';
        }
        if (!isGamesFooter(line)) return undefined;
        lines.push(line);
        return ok(parseGamesList(lines.join('\n')));
      };
    },
  };
}

/**
 * A harmless command that resets the server's idle timer (a `$$` prefix would not). `date` exists
 * on lasker, FatICS and freechess.org and changes nothing.
 */
export function keepAlive(): FicsRequest<string> {
  return { text: 'date', reply: ok, matcher: () => null, unanswered: '' };
}

/** Game results and creations for every game (`set gin 1`): how followed players are noticed. */
export function gameNotices(on: boolean): FicsRequest<string> {
  return setVariable('gin', on ? '1' : '0');
}
