// Style 12 (`<12>`) board lines: seeds/001 and 002, plus what real servers send (notes).
import type { Relation, Style12, Undecoded } from './events.js';
import { parseInteger as int } from './numbers.js';
import { undecoded } from './undecoded.js';

/** `(0:06)`, `(1:02:03)`, `(0:00.703)` */
const MOVE_TIME = /^\((?:(\d+):)?(\d+):(\d+)(?:\.(\d{1,3}))?\)$/;
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

/** Parses `(m:ss)` / `(h:mm:ss)` / `(m:ss.mmm)`; null when malformed. */
export function parseMoveTime(token: string): { ms: number; precise: boolean } | null {
  const m = MOVE_TIME.exec(token);
  if (m === null) return null;
  const hours = m[1] === undefined ? 0 : Number(m[1]);
  const fraction = m[4] === undefined ? 0 : Number(m[4].padEnd(3, '0'));
  return {
    ms: ((hours * 60 + Number(m[2])) * 60 + Number(m[3])) * 1000 + fraction,
    precise: m[4] !== undefined,
  };
}

/** Square characters of a Style 12 rank, by char code. */
const SQUARE_CHAR = new Uint8Array(128);
for (const c of '-PNBRQKpnbrqk') SQUARE_CHAR[c.charCodeAt(0)] = 1;

function isRank(rank: string): boolean {
  if (rank.length !== 8) return false;
  for (let i = 0; i < 8; i++) if (SQUARE_CHAR[rank.charCodeAt(i)] !== 1) return false;
  return true;
}

export function decodeStyle12(line: string): Style12 | Undecoded {
  if (!line.startsWith('<12>')) return undecoded('style12', 'does not start with <12>', line);
  // The help's own example glues the first rank to the tag (`<12>rnbqkb-r`).
  let tokens = line.slice(4).trim().split(' ');
  if (tokens.includes('')) tokens = tokens.filter((t) => t !== '');
  if (tokens.length < DOCUMENTED_FIELDS) {
    return undecoded('style12', `${tokens.length + 1} fields, at least 31 expected`, line);
  }
  const t = tokens;
  const ranks = t.slice(0, 8);
  const bad = ranks.find((rank) => !isRank(rank));
  if (bad !== undefined) {
    return undecoded('style12', `bad rank "${bad}"`, line);
  }
  const color = t[8];
  if (color !== 'W' && color !== 'B') return undecoded('style12', `bad side to move "${color}"`, line);
  const n: number[] = [];
  for (const i of NUMERIC_FIELDS) {
    const value = int(t[i]);
    if (!Number.isSafeInteger(value)) {
      return undecoded('style12', `field ${i + 2} "${t[i]}" is not a number`, line);
    }
    n[i] = value;
  }
  const dpp = n[F.doublePush]!;
  const relation = n[F.relation]!;
  const game = n[F.game]!;
  const moveNo = n[F.moveNumber]!;
  if (dpp < -1 || dpp > 7) return undecoded('style12', `bad double-push file ${dpp}`, line);
  if (relation < -4 || relation > 2) return undecoded('style12', `bad relation ${relation}`, line);
  if (game < 0) return undecoded('style12', `bad game number ${game}`, line);
  if (moveNo < 1) return undecoded('style12', `bad move number ${moveNo}`, line);
  const time = parseMoveTime(t[F.moveTime]!);
  if (time === null) return undecoded('style12', `bad move time "${t[F.moveTime]}"`, line);
  const clocksInMs = time.precise;
  const scale = clocksInMs ? 1 : 1000;
  const ticking = t[F.ticking];
  const lag = t[F.lag];
  if (ticking !== undefined && !Number.isSafeInteger(int(ticking))) {
    return undecoded('style12', `bad clock-ticking field "${ticking}"`, line);
  }
  if (lag !== undefined && !Number.isSafeInteger(int(lag))) {
    return undecoded('style12', `bad lag field "${lag}"`, line);
  }
  const blackToMove = color === 'B';
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
    white: t[F.white]!,
    black: t[F.black]!,
    relation: relation as Relation,
    initialTime: n[F.initialTime]!,
    incrementSec: n[F.increment]!,
    whiteStrength: n[F.whiteStrength]!,
    blackStrength: n[F.blackStrength]!,
    whiteClockMs: n[F.whiteClock]! * scale,
    blackClockMs: n[F.blackClock]! * scale,
    clocksInMs,
    moveNumber: moveNo,
    ply: (moveNo - 1) * 2 + (blackToMove ? 1 : 0),
    verboseMove: t[F.verbose] === 'none' ? null : t[F.verbose]!,
    moveTimeMs: time.ms,
    san: t[F.san] === 'none' ? null : t[F.san]!,
    flip: n[F.flip] !== 0,
    clockTicking: ticking === undefined ? null : ticking !== '0',
    lagMs: lag === undefined ? null : int(lag),
    extra: t.slice(F.lag + 1),
  };
}

/** The board part of a FEN (`rnbqkbnr/pppppppp/8/...`) from Style 12 ranks. */
export function ranksToBoardFen(ranks: readonly string[]): string {
  return ranks.map((rank) => rank.replace(/-+/g, (run) => String(run.length))).join('/');
}
