// PGN in and out. A game record (from a PGN or ChessLive! file, or a finished FICS game) is written
// and read with makePgn/parsePgn; a FICS game's snapshot, possibly incomplete and in any variant, is
// written with makeSnapshotPgn. Clocks travel as `[%clk h:mm:ss]` comments (a negative clock is
// written 0:00:00). The end reason is written as a Termination header; reading takes that header,
// or else the last comment after the last move, where FICS puts it (`{GuestX resigns} 1-0`).
// chessops writes the movetext (numbering, wrapping, escaping).
import { makeFen } from 'chessops/fen';
import {
  defaultGame,
  extend,
  makeComment,
  makePgn as makePgnText,
  parseComment,
  parsePgn as parsePgnGames,
  type Game,
  type PgnNodeData,
} from 'chessops/pgn';
import type { GameResult } from '../protocol/events.js';
import { err, ok, type Result } from '../result.js';
import { cleanText } from '../text.js';
import { parseSanMove, play, replayFen, sanOf, sideName, startReplay } from './moves.js';
import { openingOf, type Opening } from './openings.js';
import { findUnreadPgn } from './pgn-check.js';
import { startPosition } from './position.js';
import { recordStartFen, replayRecord, type GameRecord } from './record.js';
import type { GameSnapshot, Said } from './snapshot.js';
import { parsePgnVariant, pgnVariantHeader } from './variants.js';

/** The moves as PGN nodes, each with its clock after the move where known. */
function movetext(moves: readonly { san: string; clockMs: number | null }[]): PgnNodeData[] {
  return moves.map(({ san, clockMs }) =>
    clockMs === null ? { san } : { san, comments: [clockComment(clockMs)] },
  );
}

/**
 * `[%clk h:mm:ss]` as chessops's makeComment writes it (seconds to at most 3 decimals, trailing
 * zeros dropped). Whole milliseconds (every FICS clock) are written here: chessops formats each
 * number through toLocaleString, a new number format per clock, which at a game's end cost more
 * than the rest of its PGN.
 */
export function clockComment(clockMs: number): string {
  const ms = Math.max(0, clockMs);
  if (!Number.isSafeInteger(ms)) return makeComment({ clock: ms / 1000 });
  const seconds = Math.floor(ms / 1000);
  const fraction = ms % 1000;
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const decimals = fraction === 0 ? '' : `.${String(fraction).padStart(3, '0').replace(/0+$/, '')}`;
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `[%clk ${hours}:${pad(minutes)}:${pad(seconds % 60)}${decimals}]`;
}

/**
 * A kibitz or whisper as a PGN comment, `Handle: text` as WatchBot keeps them. Braces would end
 * the comment and `[%` would read back as a command (a clock): both are changed.
 */
function saidComment(said: Said): string {
  const text = cleanText(said.text).replace(/\{/g, '(').replace(/\}/g, ')').replace(/\[%/g, '[ %');
  return `${said.handle}: ${text}`;
}

/** Adds what was said to the moves it was said after; said before the first move, to the game. */
function addSaid(
  pgn: Game<PgnNodeData>,
  nodes: PgnNodeData[],
  game: Pick<GameSnapshot, 'said' | 'saidDropped'>,
): void {
  const said = game.said ?? [];
  for (const s of said) {
    const comment = saidComment(s);
    const node = s.ply === 0 ? undefined : nodes[Math.min(s.ply, nodes.length) - 1];
    if (node === undefined) (pgn.comments ??= []).push(comment);
    else (node.comments ??= []).push(comment);
  }
  if (game.saidDropped !== undefined) {
    const note = `${game.saidDropped} more kibitzes and whispers not kept`;
    const last = nodes.at(-1);
    if (last === undefined) (pgn.comments ??= []).push(note);
    else (last.comments ??= []).push(note);
  }
}

/** What the one writer takes: the tags that differ by source, and the game's moves. */
interface PgnParts {
  /** The Seven Tag Roster and what a source adds to it (ratings, time control), in order. */
  readonly tags: readonly (readonly [string, string])[];
  readonly variant: GameRecord['variant'];
  /** Written as `SetUp`/`FEN` when not null. */
  readonly startFen: string | null;
  readonly reason: string | null;
  readonly opening: Opening | null;
  readonly moves: readonly { san: string; clockMs: number | null }[];
  /** What was said in the game (a FICS game's kibitzes and whispers), as comments. */
  readonly said?: Pick<GameSnapshot, 'said' | 'saidDropped'>;
}

/** The one PGN writer: every PGN Kibitz writes goes through here. */
function writePgn(parts: PgnParts): string {
  const headers = new Map<string, string>(parts.tags);
  const variant = pgnVariantHeader(parts.variant);
  if (variant !== null) headers.set('Variant', variant);
  if (parts.startFen !== null) {
    headers.set('SetUp', '1');
    headers.set('FEN', parts.startFen);
  }
  if (parts.reason !== null) headers.set('Termination', parts.reason);
  if (parts.opening !== null) {
    headers.set('ECO', parts.opening.eco);
    headers.set('Opening', parts.opening.name);
  }
  // Names and reasons come from a server or a file: a line break in a tag would end the header.
  for (const [tag, value] of headers) headers.set(tag, cleanText(value));
  const pgn = defaultGame<PgnNodeData>(() => headers);
  const nodes = movetext(parts.moves);
  if (parts.said !== undefined) addSaid(pgn, nodes, parts.said);
  extend(pgn.moves, nodes);
  return makePgnText(pgn);
}

export interface PgnOptions {
  site?: string;
  /** Date the game was played (defaults to today). */
  date?: Date;
}

/** A FICS or ChessLive! game as relayed, incomplete ones included: its moves as the server gave them. */
export function makeSnapshotPgn(game: GameSnapshot, options: PgnOptions = {}): string {
  const date = options.date ?? new Date();
  const tags: [string, string][] = [
    [
      'Event',
      game.source === null
        ? `FICS ${game.rated ? 'rated' : 'unrated'} ${game.type ?? game.variant} game`
        : game.source,
    ],
    // The server actually used; `?` (PGN's unknown) for a transcript read from a file.
    ['Site', options.site ?? (game.source === null ? (game.server ?? '?') : 'ChessLive!')],
    ['Date', date.toISOString().slice(0, 10).replace(/-/g, '.')],
    ['Round', '-'],
    ['White', game.white],
    ['Black', game.black],
    ['Result', game.result],
  ];
  if (game.whiteRating !== null && /^\d+$/.test(game.whiteRating)) tags.push(['WhiteElo', game.whiteRating]);
  if (game.blackRating !== null && /^\d+$/.test(game.blackRating)) tags.push(['BlackElo', game.blackRating]);
  if (game.initialMinutes !== null && game.incrementSec !== null)
    tags.push(['TimeControl', `${game.initialMinutes * 60}+${game.incrementSec}`]);
  const standardStart = game.startFen === makeFen(startPosition(game.variant).toSetup());
  return writePgn({
    tags,
    variant: game.variant,
    startFen: standardStart && game.complete ? null : game.startFen,
    reason: game.reason,
    opening: game.opening,
    moves: game.san.map((san, i) => ({ san, clockMs: game.clocksMs[i] ?? null })),
    said: game,
  });
}

/** A record (a snapshot is one) as PGN, its moves replayed; the error names the first move that is not legal. */
export function makePgn(game: GameRecord): Result<string> {
  const moves: { san: string; clockMs: number | null }[] = [];
  const replayed = replayRecord(game, (replay, move, ply) => {
    moves.push({ san: sanOf(replay.pos, move), clockMs: game.clocksMs[ply] ?? null });
  });
  if (!replayed.ok) return replayed;
  return ok(
    writePgn({
      // chessops's roster with PGN's unknowns (`?`): a record knows its players and result only.
      tags: [...defaultGame().headers, ['White', game.white], ['Black', game.black], ['Result', game.result]],
      variant: game.variant,
      // chess960 always names its start position: "Chess960" alone does not say which one.
      startFen: game.startFen !== undefined || game.variant === 'chess960' ? recordStartFen(game) : null,
      reason: game.reason,
      opening: openingOf(game.variant, recordStartFen(game), game.uci),
      moves,
    }),
  );
}

/** Every game in a PGN text; the error names the game and the first move that is not legal. */
export function parsePgn(text: string): Result<GameRecord[]> {
  const unread = findUnreadPgn(text);
  if (unread !== null) return err(unread);
  const games = parsePgnGames(text);
  if (games.length === 0) return err('no PGN game found');
  const read: GameRecord[] = [];
  for (const [g, pgn] of games.entries()) {
    const game = readPgnGame(pgn);
    if (!game.ok) return err(`PGN game ${g + 1}: ${game.error}`);
    read.push(game.value);
  }
  return ok(read);
}

function readPgnGame(pgn: Game<PgnNodeData>): Result<GameRecord> {
  const variantHeader = pgn.headers.get('Variant');
  const variant = variantHeader === undefined ? 'chess' : parsePgnVariant(variantHeader);
  if (!variant) return err(`variant "${variantHeader}" is not one of chess, chess960, crazyhouse, bughouse`);
  const startFen = pgn.headers.get('FEN');
  const start = startReplay(variant, startFen);
  if (!start.ok) return start;
  const replay = start.value;
  const game: GameRecord = {
    white: pgn.headers.get('White') ?? '?',
    black: pgn.headers.get('Black') ?? '?',
    variant,
    san: [],
    uci: [],
    clocksMs: [],
    // chessops normalises the Result header to one of the four results (checked by findUnreadPgn).
    result: (pgn.headers.get('Result') ?? '*') as GameResult,
    reason: null,
  };
  if (startFen !== undefined) game.startFen = startFen;
  let lastComments: string[] = pgn.comments ?? [];
  for (const node of pgn.moves.mainlineNodes()) {
    const moveNumber = `${replay.pos.fullmoves}${replay.pos.turn === 'white' ? '.' : '...'}`;
    const move = parseSanMove(replay, node.data.san);
    if (!move) {
      return err(
        `ply ${game.san.length + 1} (${moveNumber} ${node.data.san}): not a legal move for ${sideName(replay)} in ${replayFen(replay)}`,
      );
    }
    const comments = (node.data.comments ?? []).map(parseComment);
    const clock = comments.find((c) => c.clock !== undefined)?.clock;
    const { san, uci } = play(replay, move);
    game.san.push(san);
    game.uci.push(uci);
    game.clocksMs.push(clock === undefined ? null : Math.round(clock * 1000));
    lastComments = comments.map((c) => c.text);
  }
  game.reason = pgn.headers.get('Termination') ?? lastComments.filter((c) => c !== '').at(-1) ?? null;
  return ok(game);
}
