// Fuzz targets: each takes one generated or mutated input and says what, if anything, went wrong.
// "Wrong" is an exception escaping, an event or result that breaks its own type's promises (a NaN,
// an error without a place), or state corrupted: a game's moves and position that no longer agree,
// or garbage about one game changing another.
import { parseFen, makeFen } from 'chessops/fen';
import { parseUci } from 'chessops/util';
import { setupPosition } from 'chessops/variant';
import { makeChessLive, parseChessLive } from '../../src/chesslive/index.js';
import { ChessLiveReader } from '../../src/chesslive/read.js';
import { snapshotOfRead } from '../../src/chesslive/source.js';
import { parseGameNumber, parseHandle } from '../../src/fics/validate.js';
import { renderChart, type ChartScene } from '../../render/chart.js';
import { OpeningTrail, openingOf } from '../../src/game/openings.js';
import { rulesFor, type Variant } from '../../src/game/variants.js';
import type { GameSnapshot } from '../../src/game/snapshot.js';
import { makeSnapshotPgn, parsePgn } from '../../src/game/pgn.js';
import { cleanText } from '../../src/text.js';
import { GameTracker } from '../../src/game/tracker.js';
import { decodeLine, ObserverDecoder, type Decoded } from '../../src/protocol/decode.js';
import type { ServerEvent } from '../../src/protocol/events.js';
import {
  chunks,
  damagedBytes,
  mutate,
  oversizedBytes,
  randomOrMutated,
  randomText,
  SMALL_FRAMING,
} from './fuzz-inputs.js';
import type { Dice } from './random.js';
import { gameId } from '../support/fics-values.js';

export interface Finding {
  target: string;
  /**
   * `failure`: an exception escaped, or state broke its promises (the goals). `note`: a value
   * that passed although it cannot be right (a game number of -1), harmless where it goes now.
   */
  severity: 'failure' | 'note';
  problem: string;
  /** The input, JSON-quoted and cut to a readable length. */
  input: string;
}

export interface FuzzTarget {
  name: string;
  /** Feeds one input; null when all was well. */
  run(dice: Dice): Finding | null;
}

export interface Corpus {
  lines: string[];
  transcripts: Buffer[];
  chessLive: string[];
}

function shown(input: string | Buffer): string {
  const text = typeof input === 'string' ? input : input.toString('latin1');
  return JSON.stringify(text.length > 400 ? `${text.slice(0, 400)}…` : text);
}

function fail(target: string, problem: string, input: string | Buffer): Finding {
  return { target, severity: 'failure', problem, input: shown(input) };
}

function caught(target: string, input: string | Buffer, error: unknown): Finding {
  return fail(target, `threw ${(error as Error)?.stack ?? String(error)}`, input);
}

/** A finding about a decoded event, if any. */
function eventFinding(target: string, event: Decoded, input: string | Buffer): Finding | null {
  const bad = badEvent(event);
  if (bad !== null) return fail(target, bad, input);
  if ('game' in event && event.game !== null && !(Number.isSafeInteger(event.game) && event.game >= 1))
    return { target, severity: 'note', problem: `decoded game number ${event.game}`, input: shown(input) };
  return null;
}

/** What is wrong with a decoded event, if anything: every number finite, every refusal explained. */
export function badEvent(event: Decoded): string | null {
  if (typeof event.kind !== 'string') return 'event without a kind';
  if (event.kind === 'undecoded' && event.reason.length === 0) return 'undecoded without a reason';
  const walk = (value: unknown, path: string, depth: number): string | null => {
    if (typeof value === 'number' && !Number.isFinite(value)) return `${path} is ${value}`;
    if (depth > 4 || value === null || typeof value !== 'object') return null;
    for (const [key, inner] of Object.entries(value)) {
      const bad = walk(inner, `${path}.${key}`, depth + 1);
      if (bad !== null) return bad;
    }
    return null;
  };
  return walk(event, event.kind, 0);
}

/** What is wrong with a game's state, if anything: its moves, times and position must agree. */
export function badSnapshot(s: GameSnapshot): string | null {
  if (s.san.length !== s.uci.length) return `game ${s.game}: ${s.san.length} SAN but ${s.uci.length} UCI`;
  if (s.clocksMs.length !== s.san.length || s.moveTimesMs.length !== s.san.length)
    return `game ${s.game}: per-ply clocks or times do not match the moves`;
  if (!Number.isFinite(s.whiteClockMs) || !Number.isFinite(s.blackClockMs))
    return `game ${s.game}: clock not finite`;
  if (parseFen(s.fen).isErr) return `game ${s.game}: FEN "${s.fen}" does not parse`;
  // Crazyhouse and bughouse hands come from the server's holdings lines, which a replay of the
  // moves cannot know: the replay check is for chess.
  if (s.variant !== 'chess' || s.san.length === 0) return null;
  // Replaying the moves from the start position must give the position shown.
  const setup = parseFen(s.startFen);
  if (setup.isErr) return `game ${s.game}: start FEN "${s.startFen}" does not parse`;
  const start = setupPosition(rulesFor(s.variant), setup.value);
  if (start.isErr) return `game ${s.game}: ${s.san.length} moves from an unplayable start position`;
  const pos = start.value;
  for (const [i, uci] of s.uci.entries()) {
    const move = parseUci(uci);
    if (move === undefined || !pos.isLegal(move)) return `game ${s.game}: ply ${i + 1} (${uci}) is not legal`;
    pos.play(move);
  }
  const board = (fen: string): string => fen.split(' ')[0]!.replace(/\[.*\]$/, '');
  if (board(makeFen(pos.toSetup())) !== board(s.fen))
    return `game ${s.game}: moves lead to ${makeFen(pos.toSetup())}, state shows ${s.fen}`;
  return null;
}

/** decodeLine on random text and on mutated real lines. */
function lineTarget(corpus: Corpus): FuzzTarget {
  return {
    name: 'decodeLine',
    run(dice) {
      const line = randomOrMutated(dice, corpus.lines, 0.3);
      try {
        return eventFinding('decodeLine', decodeLine(line), line);
      } catch (error) {
        return caught('decodeLine', line, error);
      }
    },
  };
}

/** The byte decoder (telnet, framing, block mode, move lists) on damaged transcripts in random reads. */
function bytesTarget(corpus: Corpus): FuzzTarget {
  return {
    name: 'ObserverDecoder',
    run(dice) {
      const bytes = damagedBytes(dice, corpus.transcripts);
      try {
        const decoder = new ObserverDecoder();
        const events = chunks(dice, bytes).flatMap((chunk) => decoder.push(chunk));
        for (const event of [...events, ...decoder.end()]) {
          const finding = eventFinding('ObserverDecoder', event, bytes);
          if (finding !== null) return finding;
        }
        return null;
      } catch (error) {
        return caught('ObserverDecoder', bytes, error);
      }
    },
  };
}

interface Stream {
  events: ServerEvent[];
  /** Game numbers and players the stream has, and each game's final moves and position. */
  numbers: Set<number>;
  players: string[];
  finals: Map<number, string>;
}

/** A transcript's events as an observer connection gets them, the boards in block replies included. */
export function eventsOf(bytes: Buffer): ServerEvent[] {
  const decoder = new ObserverDecoder();
  const out: ServerEvent[] = [];
  const replies = new ObserverDecoder();
  for (const event of [...decoder.push(bytes), ...decoder.end()]) {
    // A block reply carries boards too (the answer to observe, refresh, moves).
    const decoded = event.kind === 'reply' ? replies.lines(event.text.split(/\r?\n\r?/)) : [event];
    for (const e of decoded) if (e.kind !== 'reply') out.push(e);
  }
  return out;
}

function finalOf(s: GameSnapshot): string {
  return `${s.key}|${s.san.join(' ')}|${s.fen}|${s.result}`;
}

function streamOf(bytes: Buffer): Stream {
  const events = eventsOf(bytes);
  const tracker = new GameTracker();
  for (const event of events) tracker.apply(event);
  const games = tracker.games();
  return {
    events,
    numbers: new Set(games.map((g) => g.game)),
    players: [...new Set(games.flatMap((g) => [g.white, g.black]))].filter((p) => p.length > 0),
    finals: new Map(games.map((g) => [g.game, finalOf(g)])),
  };
}

/**
 * The tracker fed real transcripts with garbage lines mixed in. `foreign`: the garbage is about
 * other games and players only, so every real game must end exactly as without it. `own`: the
 * garbage names the stream's own games, so they may change, but never into a state whose moves
 * and position disagree.
 */
function trackerTarget(corpus: Corpus, mode: 'foreign' | 'own'): FuzzTarget {
  const name = `GameTracker (${mode} garbage)`;
  const streams = corpus.transcripts.map(streamOf).filter((s) => s.events.length > 0);
  let stream = streams[0]!;
  let tracker = new GameTracker();
  let at = 0;
  /** This stream's garbage so far: the culprit is one of them. */
  let garbageLines: string[] = [];
  const culprits = (): string => shown(garbageLines.slice(-20).join('\n'));
  const aimedElsewhere = (line: string): string => {
    let out = line.replace(/\d+/g, (digits) => (stream.numbers.has(Number(digits)) ? `9${digits}` : digits));
    for (const player of stream.players) out = out.split(player).join('Zzfuzzer');
    return out;
  };
  const endOfStream = (dice: Dice): Finding | null => {
    let finding: Finding | null = null;
    for (const snapshot of tracker.games()) {
      const bad = badSnapshot(snapshot);
      if (bad !== null) finding = { target: name, severity: 'failure', problem: bad, input: culprits() };
    }
    if (finding === null && mode === 'foreign') {
      for (const [game, expected] of stream.finals) {
        const now = tracker.snapshot(gameId(game));
        // The serial in the key counts games the tracker created, garbage ones included.
        const strip = (text: string): string => text.replace(/^\d+:\d+\|/, '');
        if (now === undefined || strip(finalOf(now)) !== strip(expected)) {
          finding = {
            target: name,
            severity: 'failure',
            problem: `game ${game} corrupted by garbage about other games: ${now === undefined ? 'gone' : finalOf(now)} instead of ${expected}`,
            input: culprits(),
          };
        }
      }
    }
    stream = dice.pick(streams);
    tracker = new GameTracker();
    at = 0;
    garbageLines = [];
    return finding;
  };
  return {
    name,
    run(dice) {
      const source = randomOrMutated(dice, corpus.lines, 0.2);
      const garbage = mode === 'foreign' ? aimedElsewhere(source) : source;
      garbageLines.push(garbage);
      try {
        for (const event of new ObserverDecoder().lines([garbage])) {
          if (event.kind !== 'reply') tracker.apply(event);
        }
        for (let n = 1 + dice.int(2); n > 0 && at < stream.events.length; n--)
          tracker.apply(stream.events[at++]!);
      } catch (error) {
        return caught(name, garbage, error);
      }
      return at >= stream.events.length ? endOfStream(dice) : null;
    },
  };
}

/** parseChessLive on random text and mutated real move files, complete and growing. */
function chessLiveTarget(corpus: Corpus): FuzzTarget {
  const name = 'parseChessLive';
  return {
    name,
    run(dice) {
      const text = randomOrMutated(dice, corpus.chessLive, 0.1);
      const growing = dice.chance(0.3);
      const variant = dice.chance(0.2) ? 'crazyhouse' : 'chess';
      try {
        const read = parseChessLive(text, { growing, variant });
        if (!read.ok) {
          const { line, column, message } = read.error;
          const lines = text.split('\n').length;
          if (message.length === 0) return fail(name, 'error without a message', text);
          if (!(line >= 1 && line <= lines && column >= 1))
            return fail(name, `error placed at ${line}:${column} in ${lines} lines`, text);
          return null;
        }
        const { game, completeMoves, fen } = read.value;
        if (game.uci.length !== completeMoves)
          return fail(name, `${completeMoves} complete moves but ${game.uci.length} read`, text);
        if (parseFen(fen).isErr) return fail(name, `FEN "${fen}" does not parse`, text);
        if (growing) return null;
        // What was read writes back to a file that reads as the same moves.
        const written = makeChessLive(game);
        if (!written.ok) return fail(name, `read but not writable: ${written.error}`, text);
        const again = parseChessLive(written.value, { variant });
        if (!again.ok || again.value.game.uci.join(' ') !== game.uci.join(' '))
          return fail(name, 'written back, it reads as other moves', text);
        return null;
      } catch (error) {
        return caught(name, text, error);
      }
    },
  };
}

/**
 * The byte decoder at small limits on real output with something oversized put in: nothing it
 * gives may be over a limit, and every board of the real output after it must still be read.
 */
function oversizedTarget(corpus: Corpus): FuzzTarget {
  const name = 'ObserverDecoder (oversized input)';
  const boards = (events: Decoded[]): string[] =>
    events.flatMap((e) => (e.kind === 'style12' ? [JSON.stringify(e)] : []));
  return {
    name,
    run(dice) {
      const { bytes, after } = oversizedBytes(dice, corpus.transcripts);
      try {
        const decoder = new ObserverDecoder(SMALL_FRAMING);
        const events = [...chunks(dice, bytes).flatMap((chunk) => decoder.push(chunk)), ...decoder.end()];
        for (const event of events) {
          const finding = eventFinding(name, event, bytes);
          if (finding !== null) return finding;
          const text = event.kind === 'reply' ? event.text : 'line' in event ? event.line : '';
          const limit = event.kind === 'reply' ? SMALL_FRAMING.maxReplyBytes : SMALL_FRAMING.maxLineBytes;
          // A byte decodes to at most one UTF-16 unit (an invalid one to U+FFFD).
          if (text.length > limit) return fail(name, `${event.kind} of ${text.length} characters`, bytes);
        }
        const plain = new ObserverDecoder();
        const expected = boards([...plain.push(bytes.subarray(after)), ...plain.end()]);
        const got = boards(events);
        let i = 0;
        for (const board of got) if (board === expected[i]) i++;
        if (i < expected.length)
          return fail(name, `board ${i + 1} of ${expected.length} after it was lost`, bytes);
        return null;
      } catch (error) {
        return caught(name, bytes, error);
      }
    },
  };
}

/** A move file read in pieces, a few fields at a time, reads as a whole read of each prefix. */
function growingTarget(corpus: Corpus): FuzzTarget {
  const name = 'ChessLiveReader (growing in pieces)';
  return {
    name,
    run(dice) {
      const text = randomOrMutated(dice, corpus.chessLive, 0.1);
      try {
        const reader = new ChessLiveReader();
        let at = 0;
        for (let pieces = 0; at < text.length && pieces < 6; pieces++) {
          const piece = pieces === 5 ? text.length - at : 1 + dice.int(Math.max(1, text.length / 3));
          reader.append(text.slice(at, at + piece));
          at += piece;
          while (reader.advance(1 + dice.int(8)));
          const whole = parseChessLive(text.slice(0, at), { growing: true });
          if (JSON.stringify(reader.read()) !== JSON.stringify(whole))
            return fail(name, `read in pieces up to ${at}, it differs from a whole read`, text);
        }
        return null;
      } catch (error) {
        return caught(name, text, error);
      }
    },
  };
}

/** Names and reasons of any bytes: the PGN written reads back as one game with clean tags. */
function pgnTagsTarget(corpus: Corpus): FuzzTarget {
  const name = 'PGN tags (names from outside)';
  const read = corpus.chessLive.map((text) => parseChessLive(text)).find((r) => r.ok);
  if (read === undefined || !read.ok) throw new Error('no move file of standard chess in the corpus');
  const base = snapshotOfRead(read.value, { key: '1:1', game: gameId(1), source: 'fuzz' });
  return {
    name,
    run(dice) {
      const [white, black, reason] = [0, 1, 2].map(() => randomText(dice, corpus.lines).slice(0, 200));
      const input = `${white}|${black}|${reason}`;
      try {
        const pgn = makeSnapshotPgn({
          ...base,
          white: white!,
          black: black!,
          reason: reason!,
          result: '1-0',
          ended: true,
        });
        const back = parsePgn(pgn);
        if (!back.ok) return fail(name, `the PGN does not read back: ${back.error}`, input);
        if (back.value.length !== 1)
          return fail(name, `the PGN reads back as ${back.value.length} games`, input);
        const game = back.value[0]!;
        if ([game.white, game.black, game.reason ?? ''].some((tag) => cleanText(tag) !== tag))
          return fail(name, 'a tag kept a control character or a line break', input);
        if (game.san.length !== base.san.length) return fail(name, 'the moves changed', input);
        return null;
      } catch (error) {
        return caught(name, input, error);
      }
    },
  };
}

/**
 * A game's opening followed move by move through takebacks, garbled moves, other variants and
 * bad start positions: never an exception, always what a whole replay of the same moves gives.
 */
function openingTarget(corpus: Corpus): FuzzTarget {
  const name = 'OpeningTrail (moves from outside)';
  const games = corpus.chessLive
    .map((text) => parseChessLive(text))
    .flatMap((r) => (r.ok && r.value.game.variant === 'chess' ? [r.value.game.uci] : []));
  if (games.length === 0) throw new Error('no move file of standard chess in the corpus');
  const start = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
  const variants: Variant[] = ['chess', 'chess', 'chess', 'crazyhouse', 'wild', 'losers'];
  return {
    name,
    run(dice) {
      const trail = new OpeningTrail();
      let moves = [...dice.pick(games)];
      const steps: string[] = [];
      try {
        for (let step = 0; step < 8; step++) {
          if (dice.chance(0.3)) moves = moves.slice(0, dice.int(moves.length + 1));
          if (dice.chance(0.2))
            moves.splice(dice.int(moves.length + 1), 0, mutate(dice, 'e2e4', corpus.lines));
          const variant = dice.pick(variants);
          const fen = dice.chance(0.1) ? mutate(dice, start, corpus.lines) : start;
          const shown = moves.slice(0, dice.int(moves.length + 1));
          steps.push(`${variant} ${fen} ${shown.join(' ')}`);
          const followed = trail.follow(variant, fen, shown);
          const whole = openingOf(variant, fen, shown);
          if (JSON.stringify(followed) !== JSON.stringify(whole))
            return fail(
              name,
              `followed ${JSON.stringify(followed)}, a whole replay ${JSON.stringify(whole)}`,
              steps.join('\n'),
            );
          if (variant !== 'chess' && followed !== null)
            return fail(name, `an opening in ${variant}`, steps.join('\n'));
        }
        return null;
      } catch (error) {
        return caught(name, steps.join('\n'), error);
      }
    },
  };
}

/** Clock charts of any numbers: a PNG within the size range, or an error saying why; never a throw. */
function chartTarget(corpus: Corpus): FuzzTarget {
  const name = 'renderChart (any numbers)';
  const odd = [Number.NaN, Infinity, -Infinity, -1, 0, 1e15, -1e15, 2 ** 53, 0.5];
  const value = (dice: Dice, usual: () => number): number | null =>
    dice.chance(0.1) ? null : dice.chance(0.1) ? dice.pick(odd) : usual();
  return {
    name,
    run(dice) {
      const plies = dice.chance(0.05) ? 0 : dice.int(300);
      const scene: ChartScene = {
        white: randomText(dice, corpus.lines).slice(0, 300),
        black: randomText(dice, corpus.lines).slice(0, 300),
        firstMover: dice.chance(0.5) ? 'white' : 'black',
        firstMoveNumber: dice.chance(0.2) ? dice.pick(odd) : 1 + dice.int(200),
        clocksMs: Array.from({ length: plies }, () => value(dice, () => dice.int(3_600_000))),
        initialClockMs: value(dice, () => dice.int(3_600_000)),
        ...(dice.chance(0.3)
          ? {
              evaluations: Array.from({ length: dice.int(plies + 2) }, () =>
                value(dice, () => dice.int(2000) / 100 - 10),
              ),
            }
          : {}),
        ...(dice.chance(0.2) ? { width: dice.pick(odd), height: dice.pick([...odd, 300, 5000]) } : {}),
      };
      const input = JSON.stringify({ ...scene, clocksMs: scene.clocksMs.slice(0, 20) });
      try {
        const png = renderChart(scene);
        if (!png.ok) return png.error === '' ? fail(name, 'error without a message', input) : null;
        const width = png.value.readUInt32BE(16);
        const height = png.value.readUInt32BE(20);
        if (!(width >= 400 && width <= 1600 && height >= 200 && height <= 800))
          return fail(name, `a ${width}x${height} picture`, input);
        return null;
      } catch (error) {
        return caught(name, input, error);
      }
    },
  };
}

/** The checks every user value passes before it can become part of a FICS command. */
function validateTarget(corpus: Corpus): FuzzTarget {
  const name = 'validate (game numbers, handles)';
  return {
    name,
    run(dice) {
      const input: unknown = dice.chance(0.3)
        ? dice.pick([
            0,
            -1,
            1.5,
            Number.NaN,
            Infinity,
            1e6,
            999_999_999,
            1e9,
            2 ** 53,
            -0,
            dice.int(2_000_000),
          ])
        : dice.chance(0.5)
          ? randomText(dice, corpus.lines).slice(0, 30)
          : mutate(dice, dice.pick(['GuestABCD', '12', 'Kasparov', '999999', 'abc']), corpus.lines);
      try {
        const game = parseGameNumber(input);
        const handle = parseHandle(input);
        if (game.ok && !/^[1-9]\d{0,8}$/.test(String(game.value)))
          return fail(name, `game number ${String(game.value)} accepted`, String(input));
        if (handle.ok && !/^[A-Za-z]{3,17}$/.test(handle.value))
          return fail(name, `handle ${handle.value} accepted`, String(input));
        for (const refused of [game, handle]) {
          // The refusal is shown to the user: one line, control characters escaped.
          if (!refused.ok && [...refused.error.message].some((c) => c < ' '))
            return fail(name, 'error message carries control characters', String(input));
        }
        return null;
      } catch (error) {
        return caught(name, String(input), error);
      }
    },
  };
}

export function fuzzTargets(corpus: Corpus): FuzzTarget[] {
  return [
    lineTarget(corpus),
    bytesTarget(corpus),
    trackerTarget(corpus, 'foreign'),
    trackerTarget(corpus, 'own'),
    chessLiveTarget(corpus),
    validateTarget(corpus),
    oversizedTarget(corpus),
    growingTarget(corpus),
    pgnTagsTarget(corpus),
    openingTarget(corpus),
    chartTarget(corpus),
  ];
}
