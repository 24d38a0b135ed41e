// Reads a ChessLive! move file into a game. Each move's steps are applied to the board, and the
// one legal move that gives the same board is taken, so SAN and UCI come from the rules, not from
// the file (the SANtag is display text and is not trusted). Depth and Score are checked and dropped.
//
// A file being written live ("growing") may stop anywhere. In growing mode only fields followed by
// ";" count: the unterminated tail is returned as `pending`, never an error. Once a Result and its
// ";" have arrived, the reason is whatever text has arrived after it.
import type { Role, Square } from 'chessops/types';
import { charToRole, parseSquare } from 'chessops/util';
import type { GameRecord } from '../game/record.js';
import type { GameResult } from '../protocol/events.js';
import { err, ok, type Result } from '../result.js';
import { truncate } from '../text.js';
import type { FileVariant } from '../game/variants.js';
import { legalMoves, play, replayFen, sideName, startReplay, type Replay } from '../game/moves.js';
import type { MoveStep } from './steps.js';
import { applySteps, changedSquares, sameBoard } from './steps.js';

export interface ReadOptions {
  /** The file does not say which rules or start position it uses: default standard chess. */
  variant?: FileVariant;
  startFen?: string;
  /** Parse a file that may still be growing (see above). */
  growing?: boolean;
}

export interface ChessLiveRead {
  game: GameRecord;
  /** Complete MoveSpecs read (plies), the same as `game.uci.length`. */
  completeMoves: number;
  /** Growing mode: the text after the last ";", not read yet. Empty in complete mode. */
  pending: string;
  /** FEN after the last complete move. */
  fen: string;
}

/** Where and what: `message` is the whole one-line text (position first). */
export interface ChessLiveError {
  line: number;
  column: number;
  /** 1-based ";"-separated field (1 White, 2 Black, 3 the first move), or null for the start position. */
  field: number | null;
  /** 1-based move (ply) number when the error is in a MoveSpec. */
  move: number | null;
  message: string;
}

interface Token {
  text: string;
  /** Offset of the token's first character in the file. */
  at: number;
}

/**
 * The longest player name and result text kept, in UTF-16 units; longer ones are cut with "…".
 * The file's own limit (1 MiB) would otherwise let one name fill the database, every page that
 * lists the game and its viewers' stream state.
 */
export const CHESSLIVE_NAME_MAX = 64;
export const CHESSLIVE_REASON_MAX = 200;

const RESULTS = new Map<string, Exclude<GameResult, '*'>>([
  ['+', '1-0'],
  ['=', '1/2-1/2'],
  ['-', '0-1'],
]);

/** Reads a whole file (or, `growing`, the file as far as it has been written). */
export function parseChessLive(
  text: string,
  options: ReadOptions = {},
): Result<ChessLiveRead, ChessLiveError> {
  const reader = new ChessLiveReader(options);
  reader.append(options.growing ? text : text.replace(/[\r\n]+$/, ''));
  if (!options.growing) reader.end();
  while (reader.advance(Number.POSITIVE_INFINITY));
  return reader.read();
}

type Phase = 'white' | 'black' | 'moves' | 'reason' | 'after';

/**
 * A move file read as it grows: `append` what was added, `advance` over the new fields (a few at a
 * time, so a caller can yield between slices), `read` the game so far. Each field is read once,
 * so a long file growing by one move costs one move's work, not the whole file's.
 */
export class ChessLiveReader {
  private text = '';
  /** Where the first field not read yet starts. */
  private next = 0;
  /** Fields read (1-based number of the last one). */
  private fields = 0;
  private phase: Phase = 'white';
  private ended = false;
  /** The final unterminated field was read (`end`). */
  private finalRead = false;
  private resultField: Token | null = null;
  private reason: string | null = null;
  private error: ChessLiveError | null = null;
  private readonly replay: Replay | null;
  private readonly game: GameRecord;

  constructor(options: Omit<ReadOptions, 'growing'> = {}) {
    const start = startReplay(options.variant ?? 'chess', options.startFen);
    this.replay = start.ok ? start.value : null;
    this.game = {
      white: '',
      black: '',
      variant: options.variant ?? 'chess',
      san: [],
      uci: [],
      clocksMs: [],
      result: '*',
      reason: null,
    };
    if (options.startFen !== undefined) this.game.startFen = options.startFen;
    if (!start.ok) this.error = this.failure(0, null, null, start.error);
  }

  /** Both player names have been read (each ended by ";"). */
  get namesRead(): boolean {
    return this.phase !== 'white' && this.phase !== 'black';
  }

  /** The text appended so far. */
  get textRead(): string {
    return this.text;
  }

  append(text: string): void {
    if (this.ended) throw new Error('ChessLiveReader: append after end');
    this.text += text;
  }

  /** No more text comes: the tail after the last ";" is a field too. */
  end(): void {
    this.ended = true;
  }

  /** Reads at most `maxFields` more fields; true while complete fields are left to read. */
  advance(maxFields: number): boolean {
    for (let n = 0; n < maxFields; n++) {
      if (this.error !== null || this.finalRead) return false;
      const end = this.text.indexOf(';', this.next);
      if (end < 0 && !this.ended) return false;
      const field: Token = { text: this.text.slice(this.next, end < 0 ? undefined : end), at: this.next };
      if (end < 0) this.finalRead = true;
      else this.next = end + 1;
      this.fields++;
      this.field(field, end < 0);
    }
    return this.error === null && !this.finalRead && this.text.indexOf(';', this.next) >= 0;
  }

  read(): Result<ChessLiveRead, ChessLiveError> {
    if (this.error !== null) return err(this.error);
    const pending = this.finalRead ? '' : this.text.slice(this.next);
    if (this.ended && this.finalRead && this.fields < 2) {
      return err(
        this.failure(
          this.text.length,
          this.fields + 1,
          null,
          'the file ends before "WhitePlayer;BlackPlayer;"',
        ),
      );
    }
    if (this.ended && this.phase === 'reason') {
      const spec = this.resultField!;
      return err(
        this.failure(
          spec.at + spec.text.length,
          this.fields + 1,
          null,
          `result "${spec.text.trim()}" needs ";" and a text after it`,
        ),
      );
    }
    const game: GameRecord = {
      ...this.game,
      san: [...this.game.san],
      uci: [...this.game.uci],
      clocksMs: [...this.game.clocksMs],
      reason:
        this.game.result === '*'
          ? null
          : (this.reason ??
            truncate(this.text.slice(this.next, this.next + CHESSLIVE_REASON_MAX + 1), CHESSLIVE_REASON_MAX)),
    };
    return ok({ game, completeMoves: game.uci.length, pending, fen: replayFen(this.replay!) });
  }

  private field(field: Token, last: boolean): void {
    switch (this.phase) {
      case 'white':
        this.game.white = truncate(field.text, CHESSLIVE_NAME_MAX);
        this.phase = 'black';
        return;
      case 'black':
        this.game.black = truncate(field.text, CHESSLIVE_NAME_MAX);
        this.phase = 'moves';
        return;
      case 'reason':
        this.reason = truncate(field.text, CHESSLIVE_REASON_MAX);
        this.phase = 'after';
        return;
      case 'after':
        this.error = this.failure(field.at, this.fields, null, 'nothing may follow the result text');
        return;
      case 'moves':
        break;
    }
    const spec = trimToken(field);
    const result = RESULTS.get(spec.text);
    if (result) {
      this.game.result = result;
      this.resultField = field;
      this.phase = 'reason';
      return;
    }
    // A complete file may end its last MoveSpec with ";" as a growing one does.
    if (spec.text === '' && last) return;
    const moveNo = this.fields - 2;
    const read = readMoveSpec(spec, this.replay!);
    if (!read.ok) this.error = this.failure(read.error.at, this.fields, moveNo, read.error.what);
    else {
      this.game.san.push(read.value.san);
      this.game.uci.push(read.value.uci);
      this.game.clocksMs.push(read.value.clockMs);
    }
  }

  private failure(at: number, field: number | null, move: number | null, what: string): ChessLiveError {
    const { line, column } = lineColumn(this.text, at);
    const where =
      move !== null ? `move ${move} (field ${field}): ` : field !== null ? `field ${field}: ` : '';
    return { line, column, field, move, message: `line ${line}, column ${column}: ${where}${what}` };
  }
}

type SpecError = { at: number; what: string };

/** One ply as the record holds it. */
interface ReadMove {
  san: string;
  uci: string;
  clockMs: number | null;
}

function readMoveSpec(spec: Token, replay: Replay): Result<ReadMove, SpecError> {
  if (spec.text === '') return err({ at: spec.at, what: 'empty MoveSpec' });
  const parts = split(spec.text, '/', spec.at);
  if (parts.length !== 1 && parts.length !== 4 && parts.length !== 5) {
    return err({
      at: spec.at,
      what: `"${spec.text}" has ${parts.length} "/"-separated parts; a MoveSpec is Move, Move/Depth/Score/Time or Move/Depth/Score/Time/SANtag`,
    });
  }
  const [movePart, depth, score, time] = parts as [Token, Token?, Token?, Token?];
  const steps = readSteps(movePart);
  if (!steps.ok) return steps;
  if (depth && !/^\d+$/.test(depth.text)) {
    return err({ at: depth.at, what: `Depth "${depth.text}" is not a number` });
  }
  if (score && !/^[+-]?\d+$/.test(score.text)) {
    return err({ at: score.at, what: `Score "${score.text}" is not a signed number` });
  }
  if (time && !/^\d+(\.\d+)?$/.test(time.text)) {
    return err({ at: time.at, what: `Time "${time.text}" is not a number of seconds` });
  }

  const { pos } = replay;
  const after = applySteps(pos.board, steps.value, pos.turn);
  // Only moves touching a square the steps changed can give the same board.
  const changed = changedSquares(pos.board, after);
  const move = legalMoves(replay).find((candidate) => {
    const touches = changed.has(candidate.to) || ('from' in candidate && changed.has(candidate.from));
    if (!touches) return false;
    const trial = pos.clone();
    trial.play(candidate);
    return sameBoard(trial.board, after);
  });
  if (!move) {
    return err({
      at: movePart.at,
      what: `no legal move for ${sideName(replay)} gives the board after "${movePart.text}" (position ${replayFen(replay)})`,
    });
  }
  return ok({ ...play(replay, move), clockMs: time ? Math.round(Number(time.text) * 1000) : null });
}

function readSteps(move: Token): Result<MoveStep[], SpecError> {
  const parts = split(move.text, ':', move.at);
  if (parts.length % 2 !== 0) {
    return err({
      at: move.at,
      what: `Move "${move.text}" has ${parts.length} ":"-separated parts; each MoveStep is From:Square, so it needs an even number`,
    });
  }
  const steps: MoveStep[] = [];
  for (let i = 0; i < parts.length; i += 2) {
    const from = parts[i]!;
    const to = readSquare(parts[i + 1]!);
    if (!to.ok) return to;
    if (/^[a-z]$/.test(from.text)) {
      const role = readPieceId(from);
      if (!role.ok) return role;
      steps.push({ drop: role.value, to: to.value });
    } else {
      const square = readSquare(from);
      if (!square.ok) return square;
      steps.push({ from: square.value, to: to.value });
    }
  }
  return ok(steps);
}

function readSquare(token: Token): Result<Square, SpecError> {
  if (!/^[a-z]\d+$/.test(token.text)) {
    return err({ at: token.at, what: `"${token.text}" is not a square (a lower-case letter and a number)` });
  }
  const square = parseSquare(token.text);
  if (square === undefined) return err({ at: token.at, what: `square "${token.text}" is not on the board` });
  return ok(square);
}

function readPieceId(token: Token): Result<Role, SpecError> {
  const role = charToRole(token.text);
  if (!role) return err({ at: token.at, what: `piece id "${token.text}" is not one of p, n, b, r, q, k` });
  return ok(role);
}

function split(text: string, separator: string, at: number): Token[] {
  const tokens: Token[] = [];
  let start = 0;
  for (;;) {
    const end = text.indexOf(separator, start);
    tokens.push({ text: text.slice(start, end < 0 ? undefined : end), at: at + start });
    if (end < 0) return tokens;
    start = end + separator.length;
  }
}

/** MoveSpecs may be surrounded by white space (line breaks between moves); names and texts are kept as they are. */
function trimToken(token: Token): Token {
  const lead = token.text.length - token.text.trimStart().length;
  return { text: token.text.trim(), at: token.at + lead };
}

function lineColumn(text: string, at: number): { line: number; column: number } {
  const before = text.slice(0, at);
  const lastBreak = before.lastIndexOf('\n');
  return { line: before.split('\n').length, column: at - lastBreak };
}
