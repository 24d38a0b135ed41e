// Reads a ChessLive! move file into a game. Each move's steps are applied to the board, and the
// one legal move that gives the same board is taken, so SAN and UCI come from the rules, not from
// the file (the SANtag is display text and is not trusted). Depth and Score are checked and dropped.
//
// A file being written live ("growing") may stop anywhere. In growing mode only fields followed by
// ";" count: the unterminated tail is returned as `pending`, never an error. Once a Result and its
// ";" have arrived, the reason is whatever text has arrived after it.
import type { Role, Square } from 'chessops/types';
import { charToRole, parseSquare } from 'chessops/util';
import type { LiveGame, LiveMove, LiveResult, LiveVariant, Result } from './model.js';
import { err, ok } from './model.js';
import { legalMoves, play, replayFen, sideName, startReplay } from './rules.js';
import type { Replay } from './rules.js';
import type { MoveStep } from './steps.js';
import { applySteps, changedSquares, sameBoard } from './steps.js';

export interface ReadOptions {
  /** The file does not say which rules or start position it uses: default standard chess. */
  variant?: LiveVariant;
  startFen?: string;
  /** Parse a file that may still be growing (see above). */
  growing?: boolean;
}

export interface ChessLiveRead {
  game: LiveGame;
  /** Complete MoveSpecs read (plies), the same as `game.moves.length`. */
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

const RESULTS = new Map<string, Exclude<LiveResult, '*'>>([
  ['+', '1-0'],
  ['=', '1/2-1/2'],
  ['-', '0-1'],
]);

export function parseChessLive(
  text: string,
  options: ReadOptions = {},
): Result<ChessLiveRead, ChessLiveError> {
  const fail = (
    at: number,
    field: number | null,
    move: number | null,
    what: string,
  ): { ok: false; error: ChessLiveError } => {
    const { line, column } = lineColumn(text, at);
    const where =
      move !== null ? `move ${move} (field ${field}): ` : field !== null ? `field ${field}: ` : '';
    return err({ line, column, field, move, message: `line ${line}, column ${column}: ${where}${what}` });
  };

  const start = startReplay(options.variant ?? 'chess', options.startFen);
  if (!start.ok) return fail(0, null, null, start.error);
  const replay = start.value;

  const growing = options.growing ?? false;
  const fields = split(growing ? text : text.replace(/[\r\n]+$/, ''), ';', 0);
  const pending = growing ? (fields.pop()?.text ?? '') : '';
  const game: LiveGame = {
    white: fields[0]?.text ?? '',
    black: fields[1]?.text ?? '',
    variant: replay.variant,
    moves: [],
    result: '*',
  };
  if (options.startFen !== undefined) game.startFen = options.startFen;
  const done = (): { ok: true; value: ChessLiveRead } =>
    ok({ game, completeMoves: game.moves.length, pending, fen: replayFen(replay) });

  if (fields.length < 2 && !growing) {
    return fail(text.length, fields.length + 1, null, 'the file ends before "WhitePlayer;BlackPlayer;"');
  }
  for (let i = 2; i < fields.length; i++) {
    const field = fields[i]!;
    const fieldNo = i + 1;
    const spec = trimToken(field);
    const result = RESULTS.get(spec.text);
    if (result) {
      const reason = fields[i + 1];
      if (!reason && !growing) {
        return fail(
          field.at + field.text.length,
          fieldNo + 1,
          null,
          `result "${spec.text}" needs ";" and a text after it`,
        );
      }
      const extra = fields[i + 2];
      if (extra) return fail(extra.at, fieldNo + 2, null, 'nothing may follow the result text');
      game.result = result;
      game.reason = reason ? reason.text : pending;
      return done();
    }
    // A complete file may end its last MoveSpec with ";" as a growing one does.
    if (spec.text === '' && i === fields.length - 1 && !growing) break;
    const moveNo = i - 1;
    const read = readMoveSpec(spec, replay);
    if (!read.ok) return fail(read.error.at, fieldNo, moveNo, read.error.what);
    game.moves.push(read.value);
  }
  return done();
}

type SpecError = { at: number; what: string };

function readMoveSpec(spec: Token, replay: Replay): Result<LiveMove, SpecError> {
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
