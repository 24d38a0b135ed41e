// Style 12 (`<12>`) board lines as FICS `help style12` documents them, plus what lasker, FatICS
// and freechess.org really send.
import type { Relation, Style12, Undecoded } from './events.js';
import { isGameNumber } from './game-number.js';
import { handleProblem } from './handle.js';
import { Fields } from './tokens.js';
import { undecoded } from './undecoded.js';

/** The help documents 31 fields including `<12>`; anything after is optional or future. */
const DOCUMENTED_FIELDS = 30;
/** Token indexes after `<12>`. */
const F = {
  doublePush: 9,
  whiteShort: 10,
  whiteLong: 11,
  blackShort: 12,
  blackLong: 13,
  halfmove: 14,
  game: 15,
  white: 16,
  black: 17,
  relation: 18,
  initialTime: 19,
  increment: 20,
  whiteStrength: 21,
  blackStrength: 22,
  whiteClock: 23,
  blackClock: 24,
  moveNumber: 25,
  verbose: 26,
  moveTime: 27,
  san: 28,
  flip: 29,
  ticking: 30,
  lag: 31,
} as const;
/** Scratch space for the numeric fields of the line being decoded. */
const numbers: number[] = [];
const NUMERIC_FIELDS = [
  F.doublePush,
  F.whiteShort,
  F.whiteLong,
  F.blackShort,
  F.blackLong,
  F.halfmove,
  F.game,
  F.relation,
  F.initialTime,
  F.increment,
  F.whiteStrength,
  F.blackStrength,
  F.whiteClock,
  F.blackClock,
  F.moveNumber,
  F.flip,
];

/** Parses `(m:ss)` / `(h:mm:ss)` / `(m:ss.mmm)`; null when malformed. A hand loop: hot path. */
export function parseMoveTime(token: string): { ms: number; precise: boolean } | null {
  const end = token.length - 1;
  if (end < 4 || token.charCodeAt(0) !== 40 || token.charCodeAt(end) !== 41) return null;
  let total = 0;
  let part = 0;
  let digits = 0;
  let colons = 0;
  let fraction = -1;
  for (let i = 1; i < end; i++) {
    const c = token.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      part = part * 10 + (c - 48);
      digits++;
    } else if (c === 58 && fraction < 0 && digits > 0 && colons < 2) {
      total = total * 60 + part;
      part = 0;
      digits = 0;
      colons++;
    } else if (c === 46 && fraction < 0 && colons > 0 && digits > 0) {
      total = total * 60 + part;
      fraction = i;
      part = 0;
      digits = 0;
    } else {
      return null;
    }
  }
  if (colons === 0 || digits === 0) return null;
  if (fraction < 0) return { ms: (total * 60 + part) * 1000, precise: false };
  if (digits > 3) return null;
  return { ms: total * 1000 + part * 10 ** (3 - digits), precise: true };
}

/** Square characters of a Style 12 rank, by char code. */
const SQUARE_CHAR = new Uint8Array(128);
for (const c of '-PNBRQKpnbrqk') SQUARE_CHAR[c.charCodeAt(0)] = 1;

function isRank(rank: string): boolean {
  if (rank.length !== 8) return false;
  for (let i = 0; i < 8; i++) if (SQUARE_CHAR[rank.charCodeAt(i)] !== 1) return false;
  return true;
}

/** Room for every documented field plus a few a future server may add. */
const fields = new Fields(48);

export function decodeStyle12(line: string): Style12 | Undecoded {
  if (!line.startsWith('<12>')) return undecoded('style12', 'does not start with <12>', line);
  // The help's own example glues the first rank to the tag (`<12>rnbqkb-r`).
  const t = fields.scan(line, 4);
  if (t.count < DOCUMENTED_FIELDS) {
    return undecoded('style12', `${t.count + 1} fields, at least 31 expected`, line);
  }
  const ranks: string[] = [];
  for (let i = 0; i < 8; i++) {
    const rank = t.text(i);
    if (!isRank(rank)) return undecoded('style12', `bad rank "${rank}"`, line);
    ranks.push(rank);
  }
  const blackToMove = t.is(8, 'B');
  if (!blackToMove && !t.is(8, 'W')) return undecoded('style12', `bad side to move "${t.text(8)}"`, line);
  const n = numbers;
  for (const i of NUMERIC_FIELDS) {
    n[i] = t.int(i);
    if (Number.isNaN(n[i]))
      return undecoded('style12', `field ${i + 2} "${t.text(i)}" is not a number`, line);
  }
  const dpp = n[F.doublePush]!;
  const relation = n[F.relation]!;
  const game = n[F.game]!;
  const moveNo = n[F.moveNumber]!;
  if (dpp < -1 || dpp > 7) return undecoded('style12', `bad double-push file ${dpp}`, line);
  if (relation < -4 || relation > 2) return undecoded('style12', `bad relation ${relation}`, line);
  if (!isGameNumber(game)) return undecoded('style12', `bad game number ${game}`, line);
  if (moveNo < 1) return undecoded('style12', `bad move number ${moveNo}`, line);
  const time = parseMoveTime(t.text(F.moveTime));
  if (time === null) return undecoded('style12', `bad move time "${t.text(F.moveTime)}"`, line);
  const scale = time.precise ? 1 : 1000;
  const ticking = t.count > F.ticking ? t.int(F.ticking) : null;
  const lag = t.count > F.lag ? t.int(F.lag) : null;
  if (ticking !== null && Number.isNaN(ticking)) {
    return undecoded('style12', `bad clock-ticking field "${t.text(F.ticking)}"`, line);
  }
  if (lag !== null && Number.isNaN(lag))
    return undecoded('style12', `bad lag field "${t.text(F.lag)}"`, line);
  const white = t.text(F.white);
  const black = t.text(F.black);
  const badHandle = handleProblem(white) ?? handleProblem(black);
  if (badHandle !== null) return undecoded('style12', badHandle, line);
  const verbose = t.text(F.verbose);
  const san = t.text(F.san);
  return {
    kind: 'style12',
    ranks,
    sideToMove: blackToMove ? 'black' : 'white',
    doublePushFile: dpp,
    castling: {
      whiteShort: n[F.whiteShort] !== 0,
      whiteLong: n[F.whiteLong] !== 0,
      blackShort: n[F.blackShort] !== 0,
      blackLong: n[F.blackLong] !== 0,
    },
    halfmoveClock: n[F.halfmove]!,
    game,
    white,
    black,
    relation: relation as Relation,
    initialTime: n[F.initialTime]!,
    incrementSec: n[F.increment]!,
    whiteStrength: n[F.whiteStrength]!,
    blackStrength: n[F.blackStrength]!,
    whiteClockMs: n[F.whiteClock]! * scale,
    blackClockMs: n[F.blackClock]! * scale,
    clocksInMs: time.precise,
    moveNumber: moveNo,
    ply: (moveNo - 1) * 2 + (blackToMove ? 1 : 0),
    verboseMove: verbose === 'none' ? null : verbose,
    moveTimeMs: time.ms,
    san: san === 'none' ? null : san,
    flip: n[F.flip] !== 0,
    clockTicking: ticking === null ? null : ticking !== 0,
    lagMs: lag,
    extra: t.rest(F.lag + 1),
  };
}

/** The board part of a FEN (`rnbqkbnr/pppppppp/8/...`) from Style 12 ranks. */
export function ranksToBoardFen(ranks: readonly string[]): string {
  return ranks.map((rank) => rank.replace(/-+/g, (run) => String(run.length))).join('/');
}
