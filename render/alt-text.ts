// The pictures in words, for people who cannot see them: what a screen reader says instead of
// "board.png" (Discord's attachment `description`, the page's text alternative). Players, side to
// move or result, the last move in words, clocks, pieces in hand and the FEN, in that order.
import type { Color, Role } from 'chessops/types';
import { moveTimes, type ChartScene } from './chart.js';
import { formatClock, resultText } from './format.js';
import { gifScenes, MAX_GIF_FRAMES } from './game-gif.js';
import { HOLDING_ROLES, readPosition, type HoldingCounts } from './position.js';
import type { BoardScene } from './scene.js';

/** The longest description Discord takes for an attachment; every text here fits it. */
export const ALT_TEXT_MAX = 1_024;
/** Names and end reasons come from servers and files: each is cut to this within a description. */
const NAME_MAX = 40;
const REASON_MAX = 80;

const PIECE_WORDS: Record<string, string> = { K: 'king', Q: 'queen', R: 'rook', B: 'bishop', N: 'knight' };
const PROMOTION_WORDS: Record<string, string> = {
  Q: 'queen',
  R: 'rook',
  B: 'bishop',
  N: 'knight',
  K: 'king',
};

/**
 * A SAN move in words: `Nxf3+` is "knight takes f3, check", `exd8=Q#` "pawn takes d8, promotes
 * to queen, checkmate", `N@e4` "knight dropped on e4", `O-O` "castles kingside". Anything else is
 * given back as it is.
 */
export function sanInWords(san: string): string {
  const bare = san.replace(/[!?]+$/, '');
  const mark = bare.endsWith('#') ? ', checkmate' : bare.endsWith('+') ? ', check' : '';
  const move = bare.replace(/[+#]$/, '');
  if (/^(O-O-O|0-0-0|o-o-o)$/.test(move)) return `castles queenside${mark}`;
  if (/^(O-O|0-0|o-o)$/.test(move)) return `castles kingside${mark}`;
  const drop = /^([PNBRQ])@([a-h][1-8])$/.exec(move);
  if (drop) return `${PIECE_WORDS[drop[1]!] ?? 'pawn'} dropped on ${drop[2]}${mark}`;
  const played = /^([KQRBN])?([a-h]?[1-8]?)(x?)([a-h][1-8])(?:=([QRBNK]))?$/.exec(move);
  if (!played) return san;
  const [, piece, from, takes, to, promotion] = played;
  const who = piece ? PIECE_WORDS[piece]! : 'pawn';
  const via = piece && from ? ` from ${from}` : '';
  const promotes = promotion ? `, promotes to ${PROMOTION_WORDS[promotion]}` : '';
  return `${who}${via} ${takes ? 'takes' : 'to'} ${to}${promotes}${mark}`;
}

const capital = (color: Color): string => (color === 'white' ? 'White' : 'Black');

function cut(text: string, max: number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  return clean.length <= max ? clean : `${clean.slice(0, max - 1)}…`;
}

function playerWords(scene: BoardScene, color: Color): string {
  const { name, rating, clockMs } = scene[color];
  const rated = rating && /\d/.test(rating) ? ` (${rating})` : '';
  const clock = clockMs === null || clockMs === undefined ? '' : `, clock ${formatClock(clockMs)}`;
  return `${capital(color)}: ${cut(name, NAME_MAX)}${rated}${clock}`;
}

function handWords(counts: HoldingCounts): string {
  const parts = HOLDING_ROLES.flatMap((role: Role) => {
    const n = counts.get(role) ?? 0;
    return n === 0 ? [] : [`${n} ${role}${n > 1 ? 's' : ''}`];
  });
  return parts.length === 0 ? 'nothing' : parts.join(', ');
}

/** One board in words; `label` names it (`Board`, `Partner board`). */
function boardWords(scene: BoardScene, label: string): string {
  const read = readPosition(scene);
  const parts = [`${label}, ${capital(scene.orientation)} at the bottom.`];
  parts.push(`${playerWords(scene, 'white')}. ${playerWords(scene, 'black')}.`);
  if (scene.result) {
    parts.push(
      `Game over: ${cut(resultText({ result: scene.result.result, reason: scene.result.reason }), REASON_MAX)}.`,
    );
  } else if (read.ok) {
    parts.push(`${capital(read.value.turn)} to move${read.value.check !== null ? ', in check' : ''}.`);
  }
  if (read.ok && scene.lastSan) {
    // The move was made by the side not to move now: its number comes from the FEN.
    const { turn, fullmoves } = read.value;
    const number = turn === 'black' ? `${fullmoves}.` : `${Math.max(1, fullmoves - 1)}...`;
    const san = cut(scene.lastSan, 12);
    parts.push(`Last move: ${number} ${san}, ${sanInWords(san)}.`);
  }
  if (read.ok && read.value.holdings) {
    const { white, black } = read.value.holdings;
    parts.push(`In hand: White ${handWords(white)}; Black ${handWords(black)}.`);
  }
  parts.push(`FEN: ${cut(scene.fen, 120)}`);
  return parts.join(' ');
}

function bounded(text: string): string {
  return text.length <= ALT_TEXT_MAX ? text : `${text.slice(0, ALT_TEXT_MAX - 1)}…`;
}

/**
 * A board picture in words; `label` names the board, `Partner board` for a bughouse partner's
 * picture of its own.
 */
export function describeBoard(scene: BoardScene, label = 'Chess board'): string {
  return bounded(boardWords(scene, label));
}

/** A whole game's animation in words: how many moves it shows, what it leaves out, where it ends. */
export function describeAnimation(scenes: readonly BoardScene[], maxFrames = MAX_GIF_FRAMES): string {
  const last = scenes.at(-1);
  if (last === undefined) return 'An empty animation.';
  const plies = scenes.length - 1;
  const shown = gifScenes(scenes, maxFrames).length - 1;
  const names = `${cut(last.white.name, NAME_MAX)} against ${cut(last.black.name, NAME_MAX)}`;
  const what =
    shown === plies
      ? `Animation of the game ${names}, all ${plies} half-moves from the start, at the pace they were played.`
      : `Animation of the game ${names}: the start, then only the last ${shown} of ${plies} half-moves; the ${plies - shown} before them are left out.`;
  return bounded(`${what} It ends on this position. ${boardWords(last, 'Final board')}`);
}

/** A clip, moves `fromMove` to `toMove` of a game, in words. */
export function describeClip(scenes: readonly BoardScene[], fromMove: number, toMove: number): string {
  const last = scenes.at(-1);
  if (last === undefined) return 'An empty animation.';
  const names = `${cut(last.white.name, NAME_MAX)} against ${cut(last.black.name, NAME_MAX)}`;
  return bounded(
    `Animation of moves ${fromMove} to ${toMove} of the game ${names}, ${scenes.length - 1} half-moves at the pace they were played. It ends on this position. ${boardWords(last, 'Board')}`,
  );
}

/** A clock chart in words: whose line is which, the final clocks and the longest move. */
export function describeChart(scene: ChartScene): string {
  const plies = scene.clocksMs.length;
  const final: Record<Color, number | null> = { white: null, black: null };
  const moverOf = (ply: number): Color =>
    (ply % 2 === 0) === (scene.firstMover === 'white') ? 'white' : 'black';
  scene.clocksMs.forEach((ms, ply) => {
    if (ms !== null) final[moverOf(ply)] = ms;
  });
  let longest: { ms: number; ply: number } | null = null;
  for (const [ply, ms] of moveTimes(scene).entries())
    if (ms !== null && ms > (longest?.ms ?? 0)) longest = { ms, ply };
  const clock = (ms: number | null): string => (ms === null ? 'unknown' : formatClock(ms));
  const parts = [
    `Clock chart of ${cut(scene.white, NAME_MAX)} (White, near-white line) against ${cut(scene.black, NAME_MAX)} (Black, blue line): time left after each of ${plies} half-moves, and bars along the bottom for the time each move took.`,
    `Final clocks: White ${clock(final.white)}, Black ${clock(final.black)}.`,
  ];
  if (longest !== null) {
    const offset = longest.ply + (scene.firstMover === 'black' ? 1 : 0);
    const number = scene.firstMoveNumber + Math.floor(offset / 2);
    parts.push(
      `Longest move: ${capital(moverOf(longest.ply))}'s move ${number}, ${formatClock(longest.ms)}.`,
    );
  }
  if (scene.evaluations?.some((e) => e !== null))
    parts.push('An engine evaluation line is drawn over the clocks.');
  return bounded(parts.join(' '));
}
