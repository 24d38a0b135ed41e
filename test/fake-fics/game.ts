// A game the fake server plays from a script of SAN moves. chessops plays each move, so every
// board, delta, holdings line and move list the server sends is a correct one, with clocks that
// run by a fixed, known amount per move.
import { isDrop, type Color, type Move, type Role } from 'chessops';
import { Chess, type Position } from 'chessops/chess';
import { makeFen } from 'chessops/fen';
import { makeSan, parseSan } from 'chessops/san';
import { makeSquare, opposite, squareFile, squareRank } from 'chessops/util';
import { Crazyhouse } from 'chessops/variant';
import type { GameResult } from '../../src/protocol/events.js';

export type FakeVariant = 'chess' | 'crazyhouse' | 'bughouse';

export interface GameScript {
  white: string;
  black: string;
  /** As `games` and headers show them; `++++` (unregistered) when omitted. */
  whiteRating?: string;
  blackRating?: string;
  san: readonly string[];
  variant?: FakeVariant;
  /** FICS type name (`blitz`, `lightning`, `standard`, ...); from the variant and time when omitted. */
  type?: string;
  rated?: boolean;
  initialMinutes?: number;
  incrementSec?: number;
  /** Sent when the game ends (after the last move unless ended earlier). */
  result?: GameResult;
  reason?: string;
  /** Time each ply takes, ms (the first two take none: clocks start with Black's first move). */
  moveTimeMs?: (ply: number) => number;
}

/** How one observer wants boards: the dialect and the ivars it set. */
export interface BoardView {
  ms: boolean;
  /** freechess.org and FatICS send the lag field (33 tokens); lasker does not (32). */
  lag: boolean;
  /** lasker's quirks: `+` for mate, promotions without the piece in the verbose move. */
  lasker: boolean;
  /** Relation to the game (0 = observing a played game). */
  relation: number;
}

export interface PlayedPly {
  /** Plies played after this one. */
  ply: number;
  san: string;
  verbose: string;
  laskerVerbose: string;
  /** `<d1>` smith notation: from, to, captured, promotion, c/C/E. */
  smith: string;
  timeMs: number;
  /** The mover's clock after the move. */
  clockMs: number;
  /** A bughouse capture: the piece the partner board's side received. */
  passed: { color: Color; role: Role } | null;
}

const ROLE_LETTER: Record<Role, string> = {
  pawn: 'P',
  knight: 'N',
  bishop: 'B',
  rook: 'R',
  queen: 'Q',
  king: 'K',
};
const VALUE: Record<Role, number> = { pawn: 1, knight: 3, bishop: 3, rook: 5, queen: 9, king: 0 };
const ROLES: readonly Role[] = ['pawn', 'knight', 'bishop', 'rook', 'queen'];

export class ScriptedGame {
  readonly pos: Position;
  readonly played: PlayedPly[] = [];
  whiteMs: number;
  blackMs: number;
  partner: ScriptedGame | null = null;
  ended = false;
  /** Set when the game ends: the result actually sent. */
  result: GameResult = '*';
  reason = '';

  constructor(
    readonly number: number,
    readonly script: GameScript,
  ) {
    this.pos = this.variant === 'chess' ? Chess.default() : Crazyhouse.default();
    this.whiteMs = this.initialMinutes * 60_000;
    this.blackMs = this.whiteMs;
  }

  get variant(): FakeVariant {
    return this.script.variant ?? 'chess';
  }

  get initialMinutes(): number {
    return this.script.initialMinutes ?? 3;
  }

  get incrementSec(): number {
    return this.script.incrementSec ?? 0;
  }

  get type(): string {
    if (this.script.type !== undefined) return this.script.type;
    if (this.variant !== 'chess') return this.variant;
    const expected = this.initialMinutes + (this.incrementSec * 2) / 3;
    return expected < 3 ? 'lightning' : expected < 15 ? 'blitz' : 'standard';
  }

  get rated(): boolean {
    return this.script.rated ?? false;
  }

  get ply(): number {
    return this.played.length;
  }

  get remaining(): number {
    return this.script.san.length - this.played.length;
  }

  get fen(): string {
    return makeFen(this.pos.toSetup());
  }

  /** Plays the next scripted move. */
  play(): PlayedPly {
    const san = this.script.san[this.played.length];
    if (san === undefined || this.ended) throw new Error(`game ${this.number} has no move left to play`);
    const pos = this.pos;
    const mover = pos.turn;
    const move = parseSan(pos, san);
    if (move === undefined) throw new Error(`game ${this.number}: "${san}" is not legal in ${this.fen}`);
    if (isDrop(move) && pos.pockets !== undefined && pos.pockets[mover][move.role] === 0) {
      // A bughouse drop of a piece the partner board passed earlier than this script knows.
      pos.pockets[mover][move.role]++;
    }
    const captured = capturedBy(pos, move);
    const written = makeSan(pos, move);
    const verbose = verboseOf(pos, move, false);
    const laskerVerbose = verboseOf(pos, move, true);
    const smith = smithOf(pos, move, captured);
    pos.play(move);
    const ply = this.played.length;
    const timeMs = ply < 2 ? 0 : (this.script.moveTimeMs?.(ply) ?? 700 + ((ply * 37) % 500));
    const increment = ply < 2 ? 0 : this.incrementSec * 1000;
    if (mover === 'white') this.whiteMs += increment - timeMs;
    else this.blackMs += increment - timeMs;
    let passed: PlayedPly['passed'] = null;
    if (this.variant === 'bughouse' && captured !== null && this.partner !== null) {
      // Bughouse: the capture goes to the partner, who plays the other colour on the other board.
      pos.pockets![mover][captured]--;
      passed = { color: opposite(mover), role: captured };
      this.partner.pos.pockets![passed.color][captured]++;
    }
    const played: PlayedPly = {
      ply: ply + 1,
      san: written,
      verbose,
      laskerVerbose,
      smith,
      timeMs,
      clockMs: mover === 'white' ? this.whiteMs : this.blackMs,
      passed,
    };
    this.played.push(played);
    return played;
  }

  /** `<12>` line of the current position. */
  style12(view: BoardView): string {
    const pos = this.pos;
    const ranks: string[] = [];
    for (let rank = 7; rank >= 0; rank--) {
      let row = '';
      for (let file = 0; file < 8; file++) {
        const piece = pos.board.get(rank * 8 + file);
        const letter = piece === undefined ? '-' : ROLE_LETTER[piece.role];
        row += piece?.color === 'black' ? letter.toLowerCase() : letter;
      }
      ranks.push(row);
    }
    const last = this.played[this.played.length - 1];
    const rights = pos.castles.castlingRights;
    const flag = (square: number): number => (rights.has(square) ? 1 : 0);
    const clock = (ms: number): number => (view.ms ? ms : Math.floor(ms / 1000));
    const san = last === undefined ? 'none' : view.lasker ? last.san.replace('#', '+') : last.san;
    const verbose = last === undefined ? 'none' : view.lasker ? last.laskerVerbose : last.verbose;
    const fields = [
      '<12>',
      ...ranks,
      pos.turn === 'white' ? 'W' : 'B',
      this.doublePushFile(view),
      flag(7),
      flag(0),
      flag(63),
      flag(56),
      pos.halfmoves,
      this.number,
      this.script.white,
      this.script.black,
      view.relation,
      this.initialMinutes,
      this.incrementSec,
      this.material('white'),
      this.material('black'),
      clock(this.whiteMs),
      clock(this.blackMs),
      pos.fullmoves,
      verbose,
      moveTime(last?.timeMs ?? 0, view.ms),
      san,
      0,
      this.played.length >= 2 && !this.ended ? 1 : 0,
    ];
    if (view.lag) fields.push(0);
    return fields.join(' ');
  }

  /** `<d1>` line of the last move (FatICS, `iset compressmove 1`). */
  delta(): string {
    const last = this.played[this.played.length - 1]!;
    return `<d1> ${this.number} ${last.ply} ${last.san} ${last.smith} ${last.timeMs} ${last.clockMs} 0`;
  }

  /** `<b1>` holdings line (crazyhouse, bughouse); `passed` adds the `<- WP` notice. */
  holdings(capitalised: boolean, passed: PlayedPly['passed'] = null): string {
    const pockets = this.pos.pockets!;
    const side = (color: Color): string =>
      ROLES.flatMap((role) => Array<string>(pockets[color][role]).fill(ROLE_LETTER[role])).join('');
    const [w, b] = capitalised ? ['White', 'Black'] : ['white', 'black'];
    const notice =
      passed === null ? '' : ` <- ${passed.color === 'white' ? 'W' : 'B'}${ROLE_LETTER[passed.role]}`;
    return `<b1> game ${this.number} ${w} [${side('white')}] ${b} [${side('black')}]${notice}`;
  }

  /** `Game N: White (1500) Black (++++) unrated blitz 3 0` */
  header(): string {
    return `Game ${this.number}: ${this.script.white} (${this.rating('white')}) ${this.script.black} (${this.rating('black')}) ${this.rated ? 'rated' : 'unrated'} ${this.type} ${this.initialMinutes} ${this.incrementSec}`;
  }

  /** `<g1>` game-info line (`iset gameinfo 1`); FatICS names no partner board (`pt=0`). */
  gameInfo(): string {
    const seconds = this.initialMinutes * 60;
    const registered = (color: Color): number => (this.rating(color) === '++++' ? 0 : 1);
    return `<g1> ${this.number} p=0 t=${this.type} r=${this.rated ? 1 : 0} u=${registered('white')},${registered('black')} it=${seconds},${this.incrementSec} i=${seconds},${this.incrementSec} pt=0 rt=0,0 ts=0,0 m=2 n=0`;
  }

  /** `{Game N (White vs. Black) reason} result` */
  endLine(): string {
    return `{Game ${this.number} (${this.script.white} vs. ${this.script.black}) ${this.reason}} ${this.result}`;
  }

  /** `{Game N (White vs. Black) Creating unrated blitz match.}` (`set gin 1`) */
  createdLine(): string {
    return `{Game ${this.number} (${this.script.white} vs. ${this.script.black}) Creating ${this.rated ? 'rated' : 'unrated'} ${this.type} match.}`;
  }

  /** The reply to `moves N`, as FatICS (`title` and ms times) or lasker (no title, seconds) writes it. */
  moveList(style: 'fatics' | 'lasker'): string[] {
    const fatics = style === 'fatics';
    const rating = (color: Color): string => {
      const r = this.rating(color);
      return !fatics && r === '++++' ? 'UNR' : r;
    };
    const lines: string[] = [];
    if (fatics) lines.push(`Movelist for game ${this.number}:`, '');
    lines.push(
      `${this.script.white} (${rating('white')}) vs. ${this.script.black} (${rating('black')}) --- ${fatics ? '2026-11-21 05:02 UTC' : 'Fri Apr 12, 04:23 UTC 2013'}`,
      `${this.rated ? 'Rated' : 'Unrated'} ${this.type} match, initial time: ${this.initialMinutes} minutes, increment: ${this.incrementSec} seconds.`,
      '',
    );
    const rule = '-'.repeat(fatics ? 21 : 16);
    // FatICS trims its lines; lasker pads every column, trailing spaces included.
    lines.push(
      fatics
        ? `Move  ${this.script.white.padEnd(24)}${this.script.black}`
        : `Move  ${this.script.white.padEnd(19)}${this.script.black.padEnd(19)}`,
      `----  ${rule}   ${rule}`,
    );
    const cell = (p: PlayedPly | undefined, width: number): string =>
      p === undefined
        ? ''
        : `${(fatics ? p.san : p.san.replace('#', '+')).padEnd(8)}${moveTime(p.timeMs, fatics).padEnd(width)}`;
    for (let i = 0; i < this.played.length; i += 2) {
      const row = `${`${i / 2 + 1}.`.padStart(4)}  ${cell(this.played[i], fatics ? 16 : 11)}${cell(this.played[i + 1], 8)}`;
      lines.push(fatics ? row.trimEnd() : row);
    }
    lines.push(this.ended ? `      {${this.reason}} ${this.result}` : '      {Still in progress} *', '');
    return lines;
  }

  /** A row of the `games` list, in lasker's layout. */
  gamesRow(): string {
    const w = this.script.white.slice(0, 11).padEnd(11);
    const b = this.script.black.slice(0, 10).padEnd(10);
    const code =
      { blitz: 'b', lightning: 'l', standard: 's', untimed: 'u', crazyhouse: 'z', bughouse: 'B' }[
        this.type
      ] ?? 'n';
    const clock = (ms: number): string => {
      const s = Math.floor(Math.max(0, ms) / 1000);
      return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
    };
    return (
      `${String(this.number).padStart(3)} ${this.rating('white').padStart(4)} ${w} ${this.rating('black').padStart(4)} ${b} ` +
      `[ ${code}${this.rated ? 'r' : 'u'}${String(this.initialMinutes).padStart(3)} ${String(this.incrementSec).padStart(3)}] ` +
      `${clock(this.whiteMs).padStart(6)} - ${clock(this.blackMs).padStart(5)} ` +
      `(${String(this.material('white')).padStart(2)}-${String(this.material('black')).padStart(2)}) ` +
      `${this.pos.turn === 'white' ? 'W' : 'B'}: ${String(this.pos.fullmoves).padStart(2)}`
    );
  }

  private rating(color: Color): string {
    return (color === 'white' ? this.script.whiteRating : this.script.blackRating) ?? '++++';
  }

  private material(color: Color): number {
    let total = 0;
    for (const square of this.pos.board[color]) total += VALUE[this.pos.board.get(square)!.role];
    return total;
  }

  private doublePushFile(view: BoardView): number {
    const last = this.played[this.played.length - 1];
    // lasker writes 0, not -1, after castling and drops.
    if (view.lasker && last !== undefined && /^o-o|@@/.test(last.verbose)) return 0;
    if (last === undefined || !/^[a-h][27][a-h][45]$/.test(last.smith.slice(0, 4))) return -1;
    const [from, to] = [last.smith.slice(0, 2), last.smith.slice(2, 4)];
    const file = from.charCodeAt(0) - 97;
    const isDouble =
      from[0] === to[0] && Math.abs(Number(from[1]) - Number(to[1])) === 2 && last.verbose.startsWith('P/');
    if (!isDouble) return -1;
    // FatICS names the file only when an en-passant capture is possible.
    return view.lasker || this.pos.toSetup().epSquare !== undefined ? file : -1;
  }
}

function capturedBy(pos: Position, move: Move): Role | null {
  if (isDrop(move)) return null;
  const target = pos.board.get(move.to);
  if (target !== undefined && target.color !== pos.turn) return target.promoted ? 'pawn' : target.role;
  const piece = pos.board.get(move.from);
  // En passant: a pawn moving diagonally to an empty square.
  if (piece?.role === 'pawn' && target === undefined && squareFile(move.from) !== squareFile(move.to))
    return 'pawn';
  return null;
}

function isCastle(pos: Position, move: Move): 'short' | 'long' | null {
  if (isDrop(move)) return null;
  const piece = pos.board.get(move.from);
  if (piece?.role !== 'king') return null;
  const target = pos.board.get(move.to);
  // chessops writes castling as king takes own rook.
  if (target?.role === 'rook' && target.color === piece.color) return move.to > move.from ? 'short' : 'long';
  return null;
}

function verboseOf(pos: Position, move: Move, lasker: boolean): string {
  if (isDrop(move)) return `${ROLE_LETTER[move.role]}/@@-${makeSquare(move.to)}`;
  const castle = isCastle(pos, move);
  if (castle !== null) return castle === 'short' ? 'o-o' : 'o-o-o';
  const piece = pos.board.get(move.from)!;
  const promotion = move.promotion === undefined || lasker ? '' : `=${ROLE_LETTER[move.promotion]}`;
  return `${ROLE_LETTER[piece.role]}/${makeSquare(move.from)}-${makeSquare(move.to)}${promotion}`;
}

function smithOf(pos: Position, move: Move, captured: Role | null): string {
  if (isDrop(move)) return `${ROLE_LETTER[move.role]}@${makeSquare(move.to)}`;
  const castle = isCastle(pos, move);
  if (castle !== null) {
    const kingTo = squareRank(move.from) * 8 + (castle === 'short' ? 6 : 2);
    return `${makeSquare(move.from)}${makeSquare(kingTo)}${castle === 'short' ? 'c' : 'C'}`;
  }
  const target = pos.board.get(move.to);
  const enPassant = captured === 'pawn' && target === undefined;
  return (
    makeSquare(move.from) +
    makeSquare(move.to) +
    (captured !== null && !enPassant ? ROLE_LETTER[captured].toLowerCase() : '') +
    (move.promotion === undefined ? '' : ROLE_LETTER[move.promotion]) +
    (enPassant ? 'E' : '')
  );
}

function moveTime(ms: number, precise: boolean): string {
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.floor(ms / 1000) % 60;
  const base = `(${minutes}:${String(seconds).padStart(2, '0')}`;
  return precise ? `${base}.${String(ms % 1000).padStart(3, '0')})` : `${base})`;
}
