// PGN in and out for the same game model. Clocks travel as `[%clk h:mm:ss]` comments (a negative
// clock is written 0:00:00). The end reason is written as a Termination header, as
// src/game/pgn.ts does; reading takes that header, or else the last comment after the last move,
// where FICS puts it (`{GuestX resigns} 1-0`).
import { defaultGame, extend, makeComment, makePgn, parseComment, parsePgn } from 'chessops/pgn';
import type { Game, PgnNodeData } from 'chessops/pgn';
import { cleanText } from '../text.js';
import type { LiveGame, LiveMove, LiveResult } from './model.js';
import { err, ok, type Result } from '../result.js';
import { findUnreadPgn } from './pgn-check.js';
import { parseSanMove, play, replayFen, sideName, startReplay } from '../game/moves.js';
import { parsePgnVariant, pgnVariantHeader, FILE_VARIANTS } from '../game/variants.js';
import { gameMove } from './rules.js';

export function toPgn(game: LiveGame): Result<string> {
  const start = startReplay(game.variant, game.startFen);
  if (!start.ok) return start;
  const replay = start.value;
  const pgn: Game<PgnNodeData> = defaultGame();
  pgn.headers.set('White', cleanText(game.white));
  pgn.headers.set('Black', cleanText(game.black));
  pgn.headers.set('Result', game.result);
  const variant = pgnVariantHeader(FILE_VARIANTS[game.variant].variant);
  if (variant) pgn.headers.set('Variant', variant);
  // chess960 always names its start position: "Chess960" alone does not say which one.
  if (game.startFen !== undefined || game.variant === 'chess960') {
    pgn.headers.set('SetUp', '1');
    pgn.headers.set('FEN', game.startFen ?? replayFen(replay));
  }
  if (game.reason !== undefined) pgn.headers.set('Termination', cleanText(game.reason));
  const nodes: PgnNodeData[] = [];
  for (const [i, m] of game.moves.entries()) {
    const move = gameMove(replay, m, i);
    if (!move.ok) return move;
    const { san } = play(replay, move.value);
    const clockMs = m.clockMs ?? null;
    nodes.push(
      clockMs === null ? { san } : { san, comments: [makeComment({ clock: Math.max(0, clockMs) / 1000 })] },
    );
  }
  extend(pgn.moves, nodes);
  return ok(makePgn(pgn));
}

/** Every game in a PGN text; the error names the game and the first move that is not legal. */
export function fromPgn(text: string): Result<LiveGame[]> {
  const unread = findUnreadPgn(text);
  if (unread !== null) return err(unread);
  const games = parsePgn(text);
  if (games.length === 0) return err('no PGN game found');
  const read: LiveGame[] = [];
  for (const [g, pgn] of games.entries()) {
    const game = readPgnGame(pgn);
    if (!game.ok) return err(`PGN game ${g + 1}: ${game.error}`);
    read.push(game.value);
  }
  return ok(read);
}

function readPgnGame(pgn: Game<PgnNodeData>): Result<LiveGame> {
  const variantHeader = pgn.headers.get('Variant');
  const variant = variantHeader === undefined ? 'chess' : parsePgnVariant(variantHeader);
  if (!variant) return err(`variant "${variantHeader}" is not one of chess, chess960, crazyhouse, bughouse`);
  const startFen = pgn.headers.get('FEN');
  const start = startReplay(variant, startFen);
  if (!start.ok) return start;
  const replay = start.value;
  const moves: LiveMove[] = [];
  let lastComments: string[] = pgn.comments ?? [];
  for (const node of pgn.moves.mainlineNodes()) {
    const moveNumber = `${replay.pos.fullmoves}${replay.pos.turn === 'white' ? '.' : '...'}`;
    const move = parseSanMove(replay, node.data.san);
    if (!move) {
      return err(
        `ply ${moves.length + 1} (${moveNumber} ${node.data.san}): not a legal move for ${sideName(replay)} in ${replayFen(replay)}`,
      );
    }
    const comments = (node.data.comments ?? []).map(parseComment);
    const clock = comments.find((c) => c.clock !== undefined)?.clock;
    moves.push({ ...play(replay, move), clockMs: clock === undefined ? null : Math.round(clock * 1000) });
    lastComments = comments.map((c) => c.text);
  }
  // chessops normalises the Result header to one of the four results (checked by findUnreadPgn).
  const result = (pgn.headers.get('Result') ?? '*') as LiveResult;
  const game: LiveGame = {
    white: pgn.headers.get('White') ?? '?',
    black: pgn.headers.get('Black') ?? '?',
    variant,
    moves,
    result,
  };
  if (startFen !== undefined) game.startFen = startFen;
  const reason = pgn.headers.get('Termination') ?? lastComments.filter((c) => c !== '').at(-1);
  if (reason !== undefined) game.reason = reason;
  return ok(game);
}
