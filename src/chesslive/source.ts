// ChessLive! sources: named move files an administrator configures (KIBITZ_CHESSLIVE_SOURCES),
// read from disk or over HTTP(S), and one read of such a (possibly still growing) file as the
// GameSnapshot the relay and the renderer already understand.
import { readFile } from 'node:fs/promises';
import { makeFen, parseFen } from 'chessops/fen';
import { defaultPosition, setupPosition } from 'chessops/variant';
import type { GameSnapshot, Variant } from '../game/snapshot.js';
import type { LiveGame, LiveVariant, Result } from './model.js';
import { err, ok } from './model.js';
import type { ChessLiveRead } from './read.js';

export interface ChessLiveSource {
  /** What `/relay chesslive name:` takes: lower-case letters, digits, `-` and `_`. */
  name: string;
  kind: 'file' | 'url';
  /** A file path, or an http(s) URL. */
  location: string;
}

/**
 * ChessLive! games get numbers above every FICS game number (FICS uses 1..999,999), so one relay,
 * one table of live posts and one set of buttons serve both: source i (0-based) is game 1,000,001 + i.
 */
export const FIRST_CHESSLIVE_GAME = 1_000_001;

export function isChessLiveGame(game: number): boolean {
  return game >= FIRST_CHESSLIVE_GAME;
}

const NAME = /^[a-z0-9][a-z0-9_-]{0,31}$/;

/**
 * `name=path-or-url,name2=...`: entries separated by commas, name and location by the first `=`
 * (a URL may hold more). Locations may not contain commas.
 */
export function parseChessLiveSources(text: string): Result<ChessLiveSource[]> {
  const sources: ChessLiveSource[] = [];
  for (const raw of text.split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    const at = entry.indexOf('=');
    if (at < 0) return err(`"${entry}" is not name=path-or-url`);
    const name = entry.slice(0, at).trim().toLowerCase();
    const location = entry.slice(at + 1).trim();
    if (!NAME.test(name)) {
      return err(
        `source name "${entry.slice(0, at).trim()}" must be 1 to 32 letters, digits, "-" or "_", starting with a letter or digit`,
      );
    }
    if (sources.some((s) => s.name === name)) return err(`source name "${name}" is used twice`);
    if (location === '') return err(`source "${name}" has no path or URL after "="`);
    const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(location)?.[1]?.toLowerCase();
    if (scheme !== undefined && scheme !== 'http' && scheme !== 'https') {
      return err(`source "${name}": only http(s) URLs and file paths are read, not ${scheme}://`);
    }
    if (scheme !== undefined && !isUrl(location)) return err(`source "${name}": "${location}" is not a URL`);
    sources.push({ name, kind: scheme === undefined ? 'file' : 'url', location });
  }
  return ok(sources);
}

function isUrl(text: string): boolean {
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}

export interface ReadSourceOptions {
  /** A URL that has not answered by then is given up for this poll. */
  timeoutMs?: number;
  /** Larger files are refused: a move file of a long game is a few kilobytes. */
  maxBytes?: number;
}

const DEFAULT_READ: Required<ReadSourceOptions> = { timeoutMs: 10_000, maxBytes: 1 << 20 };

/** The source's text now; rejects with a message naming the source and what went wrong. */
export async function readSource(source: ChessLiveSource, options: ReadSourceOptions = {}): Promise<string> {
  const { timeoutMs, maxBytes } = { ...DEFAULT_READ, ...options };
  const fail = (what: string): Error =>
    new Error(`ChessLive! source "${source.name}" cannot be read: ${what}`);
  let bytes: Buffer;
  if (source.kind === 'file') {
    try {
      bytes = await readFile(source.location);
    } catch (error) {
      throw fail((error as NodeJS.ErrnoException).code ?? (error as Error).message);
    }
  } else {
    let response: Response;
    try {
      response = await fetch(source.location, { signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      const cause =
        (error as Error).name === 'TimeoutError' ? `no answer in ${timeoutMs} ms` : (error as Error).message;
      throw fail(cause);
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw fail(`HTTP ${response.status} ${response.statusText}`.trim());
    }
    bytes = Buffer.from(await response.arrayBuffer());
  }
  if (bytes.length > maxBytes) throw fail(`it is ${bytes.length} bytes, more than the ${maxBytes} allowed`);
  return bytes.toString('utf8');
}

const VARIANT: Record<LiveVariant, Variant> = {
  chess: 'chess',
  chess960: 'wild',
  crazyhouse: 'crazyhouse',
  bughouse: 'bughouse',
};

/** The side to move in a FEN. */
function sideOf(fen: string): 'white' | 'black' {
  return fen.split(' ')[1] === 'b' ? 'black' : 'white';
}

function inCheck(game: LiveGame, fen: string): boolean {
  const rules = game.variant === 'crazyhouse' || game.variant === 'bughouse' ? 'crazyhouse' : 'chess';
  const setup = parseFen(fen);
  if (setup.isErr) return false;
  const pos = setupPosition(rules, setup.value);
  return pos.isOk && pos.value.isCheck();
}

function startFenOf(game: LiveGame): string {
  if (game.startFen !== undefined) return game.startFen;
  const rules = game.variant === 'crazyhouse' || game.variant === 'bughouse' ? 'crazyhouse' : 'chess';
  return makeFen(defaultPosition(rules).toSetup());
}

/**
 * The game as read so far. `ended` follows the file's result; clocks are the last Time each side
 * wrote (0 before its first timed move): the file has no time control to start from.
 */
export function snapshotOfRead(
  read: ChessLiveRead,
  id: { key: string; game: number; source: string },
): GameSnapshot {
  const { game } = read;
  const startFen = startFenOf(game);
  const first = sideOf(startFen);
  const clocks = { white: 0, black: 0 };
  game.moves.forEach((move, ply) => {
    const mover = (ply % 2 === 0) === (first === 'white') ? 'white' : 'black';
    if (move.clockMs !== undefined && move.clockMs !== null) clocks[mover] = move.clockMs;
  });
  return {
    key: id.key,
    game: id.game,
    white: game.white,
    black: game.black,
    whiteRating: null,
    blackRating: null,
    variant: VARIANT[game.variant],
    rated: null,
    type: game.variant === 'chess960' ? 'wild/fr' : null,
    initialMinutes: null,
    incrementSec: null,
    startFen,
    san: game.moves.map((m) => m.san),
    uci: game.moves.map((m) => m.uci),
    moveTimesMs: game.moves.map(() => null),
    clocksMs: game.moves.map((m) => m.clockMs ?? null),
    fen: read.fen,
    sideToMove: sideOf(read.fen),
    whiteClockMs: clocks.white,
    blackClockMs: clocks.black,
    clockTicking: false,
    holdings: null,
    partnerGame: null,
    check: inCheck(game, read.fen),
    flip: false,
    result: game.result,
    reason: game.result === '*' ? null : (game.reason ?? null),
    ended: game.result !== '*',
    complete: true,
    needs: null,
    source: id.source,
    mode: 'played',
  };
}
