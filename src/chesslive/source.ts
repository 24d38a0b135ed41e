// ChessLive! sources: named move files an administrator configures (KIBITZ_CHESSLIVE_SOURCES),
// read from disk or over HTTP(S), and one read of such a (possibly still growing) file as the
// GameSnapshot the relay and the renderer already understand.
import { open, type FileHandle } from 'node:fs/promises';
import { parseFen } from 'chessops/fen';
import { setupPosition } from 'chessops/variant';
import type { GameId } from '../game/game-id.js';
import type { GameSnapshot } from '../game/snapshot.js';
import { rulesFor } from '../game/variants.js';
import { cleanText } from '../text.js';
import { openingOf } from '../game/openings.js';
import { recordStartFen, type GameRecord } from '../game/record.js';
import { err, ok, type Result } from '../result.js';
import type { ChessLiveRead } from './read.js';

export interface ChessLiveSource {
  /** What `/relay chesslive name:` takes: lower-case letters, digits, `-` and `_`. */
  name: string;
  kind: 'file' | 'url';
  /** A file path, or an http(s) URL. */
  location: string;
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
  /** The whole read (redirects and body included) is given up after this long. */
  timeoutMs?: number;
  /** Larger sources are refused, before reading when the size is known, else once past it. */
  maxBytes?: number;
  /** Redirects followed at most. */
  maxRedirects?: number;
}

export const DEFAULT_READ: Required<ReadSourceOptions> = {
  timeoutMs: 10_000,
  // A move file of a long game with clocks and SAN tags is some tens of kilobytes.
  maxBytes: 1 << 20,
  maxRedirects: 5,
};

/** The source is larger than `maxBytes`: it was not read, or not past the limit. */
export class SourceTooLargeError extends Error {
  override readonly name = 'SourceTooLargeError';
}

/** Bytes of a source: from `from` to its end (`from` is 0 when the whole source was read). */
export interface SourceBytes {
  from: number;
  bytes: Buffer;
}

/** The source's text now; rejects with a message naming the source and what went wrong. */
export async function readSource(source: ChessLiveSource, options: ReadSourceOptions = {}): Promise<string> {
  return (await readSourceFrom(source, 0, options)).bytes.toString('utf8');
}

/**
 * The source from byte `from` on (a file read from there, a URL asked for that range), or the
 * whole of it when it is now shorter than `from` or the server sends it whole. Never holds more
 * than `maxBytes`; rejects with SourceTooLargeError past it, with a plain Error otherwise.
 */
export async function readSourceFrom(
  source: ChessLiveSource,
  from: number,
  options: ReadSourceOptions = {},
): Promise<SourceBytes> {
  const limits = { ...DEFAULT_READ, ...options };
  const fail = (what: string): Error =>
    new Error(`ChessLive! source "${source.name}" cannot be read: ${what}`);
  const tooLarge = (size: number | null): SourceTooLargeError =>
    new SourceTooLargeError(
      `ChessLive! source "${source.name}" cannot be read: ${size === null ? `it is larger than the ${limits.maxBytes} bytes allowed` : `it is ${size} bytes, more than the ${limits.maxBytes} allowed`}`,
    );
  return source.kind === 'file'
    ? readFileFrom(source.location, from, limits, fail, tooLarge)
    : readUrlFrom(source.location, from, limits, fail, tooLarge);
}

type Failure = (what: string) => Error;
/** `size` when known. */
type TooLarge = (size: number | null) => SourceTooLargeError;

async function readFileFrom(
  path: string,
  from: number,
  limits: Required<ReadSourceOptions>,
  fail: Failure,
  tooLarge: TooLarge,
): Promise<SourceBytes> {
  let file: FileHandle;
  try {
    file = await open(path, 'r');
  } catch (error) {
    throw fail((error as NodeJS.ErrnoException).code ?? (error as Error).message);
  }
  try {
    const { size } = await file.stat();
    if (size > limits.maxBytes) throw tooLarge(size);
    const start = from <= size ? from : 0;
    // Only what the file held when asked: what is written meanwhile comes with the next read.
    const bytes = Buffer.alloc(size - start);
    let got = 0;
    while (got < bytes.length) {
      const { bytesRead } = await file.read(bytes, got, bytes.length - got, start + got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    return { from: start, bytes: bytes.subarray(0, got) };
  } catch (error) {
    if (error instanceof SourceTooLargeError) throw error;
    throw fail((error as NodeJS.ErrnoException).code ?? (error as Error).message);
  } finally {
    await file.close();
  }
}

async function readUrlFrom(
  location: string,
  from: number,
  limits: Required<ReadSourceOptions>,
  fail: Failure,
  tooLarge: TooLarge,
): Promise<SourceBytes> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  const failed = (error: unknown): Error =>
    error instanceof SourceTooLargeError
      ? error
      : fail(
          (error as Error).name === 'TimeoutError'
            ? `no complete answer in ${limits.timeoutMs} ms`
            : (error as Error).message,
        );
  try {
    let response = await fetchFollowing(location, from, signal, limits.maxRedirects, fail);
    if (response.status === 416 && from > 0) {
      // Shorter than before: rewritten. Read it whole.
      await response.body?.cancel();
      response = await fetchFollowing(location, 0, signal, limits.maxRedirects, fail);
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw fail(`HTTP ${response.status} ${response.statusText}`.trim());
    }
    const range = response.status === 206 ? contentRange(response.headers.get('content-range')) : null;
    const start = range?.start ?? 0;
    const length = Number(response.headers.get('content-length') ?? Number.NaN);
    const total = range?.total ?? (Number.isFinite(length) ? start + length : null);
    if (total !== null && total > limits.maxBytes) {
      await response.body?.cancel();
      throw tooLarge(total);
    }
    return {
      from: start,
      bytes: await readCapped(response, limits.maxBytes - start, () => tooLarge(null)),
    };
  } catch (error) {
    throw failed(error);
  }
}

/** Follows at most `maxRedirects` redirects, to http(s) only, asking for the bytes from `from`. */
async function fetchFollowing(
  location: string,
  from: number,
  signal: AbortSignal,
  maxRedirects: number,
  fail: Failure,
): Promise<Response> {
  let url = location;
  for (let redirects = 0; ; redirects++) {
    const headers: Record<string, string> = from > 0 ? { range: `bytes=${from}-` } : {};
    const response = await fetch(url, { signal, redirect: 'manual', headers });
    const target = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || target === null) return response;
    await response.body?.cancel();
    if (redirects >= maxRedirects) throw fail(`more than ${maxRedirects} redirects`);
    const next = new URL(target, url);
    if (next.protocol !== 'http:' && next.protocol !== 'https:') throw fail(`redirected to ${next.protocol}`);
    url = next.href;
  }
}

/** `bytes start-end/total` (total may be `*`). */
function contentRange(header: string | null): { start: number; total: number | null } | null {
  const m = /^bytes (\d+)-\d+\/(\d+|\*)$/.exec(header?.trim() ?? '');
  if (m === null) return null;
  return { start: Number(m[1]), total: m[2] === '*' ? null : Number(m[2]) };
}

/** The body, read as it streams in and abandoned as soon as it passes `max` bytes. */
async function readCapped(response: Response, max: number, tooLarge: () => Error): Promise<Buffer> {
  if (response.body === null) return Buffer.alloc(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks, size);
    size += value.length;
    if (size > max) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
}

/** The side to move in a FEN. */
function sideOf(fen: string): 'white' | 'black' {
  return fen.split(' ')[1] === 'b' ? 'black' : 'white';
}

function inCheck(game: GameRecord, fen: string): boolean {
  const setup = parseFen(fen);
  if (setup.isErr) return false;
  const pos = setupPosition(rulesFor(game.variant), setup.value);
  return pos.isOk && pos.value.isCheck();
}

/**
 * The game as read so far: its record with what a watched game adds. `ended` follows the file's
 * result; clocks are the last Time each side wrote (0 before its first timed move): the file has
 * no time control to start from.
 */
export function snapshotOfRead(
  read: ChessLiveRead,
  id: { key: string; game: GameId; source: string },
): GameSnapshot {
  const { game } = read;
  const startFen = recordStartFen(game);
  const first = sideOf(startFen);
  const clocks = { white: 0, black: 0 };
  game.clocksMs.forEach((clockMs, ply) => {
    const mover = (ply % 2 === 0) === (first === 'white') ? 'white' : 'black';
    if (clockMs !== null) clocks[mover] = clockMs;
  });
  return {
    ...game,
    // A file's names and reason may hold line breaks: they would break PGN tags and messages.
    white: cleanText(game.white),
    black: cleanText(game.black),
    reason: game.reason === null ? null : cleanText(game.reason) || null,
    startFen,
    key: id.key,
    game: id.game,
    whiteRating: null,
    blackRating: null,
    rated: null,
    // A FICS game type; a file has none.
    type: null,
    initialMinutes: null,
    incrementSec: null,
    moveTimesMs: game.uci.map(() => null),
    fen: read.fen,
    sideToMove: sideOf(read.fen),
    whiteClockMs: clocks.white,
    blackClockMs: clocks.black,
    clockTicking: false,
    holdings: null,
    partnerGame: null,
    check: inCheck(game, read.fen),
    flip: false,
    ended: game.result !== '*',
    complete: true,
    needs: null,
    source: id.source,
    mode: 'played',
    opening: openingOf(game.variant, startFen, game.uci),
  };
}
