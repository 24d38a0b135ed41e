// Writes a game record (a snapshot is one) as a ChessLive! move file:
//   White;Black;MoveSpec;MoveSpec;...[;Result;Text]
// with MoveSpec = Steps[/Depth/Score/Time/SANtag]. Choices the grammar leaves open:
// - Time is the mover's clock after the move in whole seconds, rounded down (what a clock shows),
//   0 when the clock went below zero. Depth and Score are 0/0: Kibitz has no engine.
// - A move whose clock is unknown is written as bare steps: the annotation needs a Time, and an
//   invented one would read as a real clock. Such moves carry no SANtag either.
// - The SANtag is the SAN in front of the first step's to-square (`Nx` for `Nxe5`, `ex` for
//   `exd5`, `N@`/`P@` for drops, `O-O`/`O-O-O` whole). A viewer prints tag + square, so the
//   `=Q`, `+` and `#` that follow the square in SAN cannot be written; a reader recomputes them
//   from the position (as parseChessLive does), so nothing is lost.
// - Piece ids are lower case as the grammar says; a dropped piece takes the mover's colour.
import { makeSquare } from 'chessops/util';
import { cleanText } from '../text.js';
import { replayRecord, type GameRecord } from '../game/record.js';
import { err, ok, type Result } from '../result.js';
import { sanOf } from '../game/moves.js';
import type { MoveStep } from './steps.js';
import { formatSteps, stepsFor } from './steps.js';

const RESULT_SIGN = { '1-0': '+', '1/2-1/2': '=', '0-1': '-' } as const;

export function makeChessLive(game: GameRecord): Result<string> {
  // Names and reasons come from a server or a file: one line each, without control characters.
  const white = cleanText(game.white);
  const black = cleanText(game.black);
  const reason = cleanText(game.reason ?? '');
  for (const [what, text] of [
    ['White player', white],
    ['Black player', black],
    ['result text', reason],
  ] as const) {
    if (text.includes(';')) return err(`${what} "${text}" contains ";", which ends a field in a move file`);
  }
  const specs: string[] = [];
  const replayed = replayRecord(game, (replay, move, ply) => {
    const steps = stepsFor(replay.pos, move);
    const clockMs = game.clocksMs[ply] ?? null;
    const spec = formatSteps(steps);
    specs.push(
      clockMs === null
        ? spec
        : `${spec}/0/0/${Math.floor(Math.max(0, clockMs) / 1000)}/${sanTag(sanOf(replay.pos, move), steps)}`,
    );
  });
  if (!replayed.ok) return replayed;
  const fields = [white, black, ...specs];
  if (game.result !== '*') fields.push(RESULT_SIGN[game.result], reason);
  // A game with no moves yet still ends its header with ";" (an empty MoveList, as a growing file starts).
  else if (specs.length === 0) fields.push('');
  return ok(fields.join(';'));
}

/** The SAN in front of the first step's to-square; castling tags are whole. */
function sanTag(san: string, steps: readonly MoveStep[]): string {
  if (san.startsWith('O-O-O')) return 'O-O-O';
  if (san.startsWith('O-O')) return 'O-O';
  const core = san.replace(/[+#]$/, '').replace(/=[NBRQK]$/, '');
  const first = steps[0];
  const at = first ? core.lastIndexOf(makeSquare(first.to)) : -1;
  return at >= 0 ? core.slice(0, at) : core;
}
