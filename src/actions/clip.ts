// A clip: an animated GIF of a range of moves of a live or finished game, at the pace they were
// played (frame delays from the move times, bounded: render/game-gif.ts), with names and clocks.
// A plain function over plain inputs and services; commands/clip.ts is its Discord adapter.
import { describeClip, type BoardScene, type Renderer } from '../../render/index.js';
import { chessLiveGameScenes } from '../chesslive/scenes.js';
import { parsePgn } from '../game/pgn.js';
import { gameScenes } from '../game/scenes.js';
import { plyOfFen, type GameSnapshot } from '../game/snapshot.js';
import { gameKeyOf } from '../game/game-key.js';
import type { Result } from '../result.js';
import type { FinishedGame } from '../storage/index.js';
import type { GameId } from '../game/game-id.js';

/** A clip shows at most this many moves (two half-moves each): 121 frames, well under 10 MiB. */
export const MAX_CLIP_MOVES = 60;
/** Without a range (and from the final post's Clip button): the game's last moves. */
export const DEFAULT_CLIP_MOVES = 10;

/**
 * Clips drawn at once: one per server, and this many in all. Clips share the render workers with
 * every game's final GIF: a burst of requests waits its turn here instead of holding those up, and
 * one server cannot take the workers from the others.
 */
export const MAX_CLIPS_DRAWING = 2;

/** Who may start drawing a clip now: one per key (a server, or a user in direct messages). */
export class ClipGate {
  readonly #drawing = new Set<string>();

  constructor(private readonly max = MAX_CLIPS_DRAWING) {}

  /** A function to call when the clip is done, or why it must wait. */
  enter(key: string): Result<() => void, string> {
    if (this.#drawing.has(key))
      return { ok: false, error: 'a clip asked for here is still being drawn: ask again once it is posted' };
    if (this.#drawing.size >= this.max)
      return { ok: false, error: `Kibitz is drawing ${this.max} clips already: ask again in a few seconds` };
    this.#drawing.add(key);
    return { ok: true, value: () => this.#drawing.delete(key) };
  }
}

/** Moves as players number them: `from` 20 starts before White's 20th move, `to` 30 after Black's 30th. */
export interface ClipRange {
  from?: number | null;
  to?: number | null;
}

export interface ClipRequest extends ClipRange {
  game: GameId;
  /** The one game meant (a final post's button): FICS reuses numbers. */
  gameKey?: string;
}

export interface ClipServices {
  /** A game Kibitz is relaying now. */
  snapshot(game: GameId): GameSnapshot | undefined;
  /** The latest finished game of that number, or the one game of that key. */
  finished(which: { game: GameId } | { gameKey: string }): Promise<FinishedGame | null>;
}

export interface Clip {
  game: GameId;
  white: string;
  black: string;
  /** The moves shown, as numbered in the game (inclusive). */
  fromMove: number;
  toMove: number;
  frames: number;
  live: boolean;
  gif: Buffer;
  /** The GIF in words, for screen readers. */
  description: string;
  fileName: string;
}

export type ClipError =
  | { kind: 'unknown-game'; game: GameId }
  | { kind: 'range'; message: string }
  /** The game's moves cannot be replayed (a stored PGN that does not read). */
  | { kind: 'unreadable'; message: string }
  | { kind: 'render'; message: string };

/** Half-moves, counted from the game's start, of the first and last position a clip shows. */
export interface PlySpan {
  start: number;
  end: number;
}

/** The first move number (1-based) whose ply is `ply`. */
const moveOf = (ply: number): number => Math.floor(ply / 2) + 1;

/**
 * The positions a range shows, given the known history: plies `firstPly` (the first known
 * position) to `lastPly` (the latest). Pure; every refusal says what was wrong.
 */
export function clipSpan(range: ClipRange, firstPly: number, lastPly: number): Result<PlySpan, string> {
  if (lastPly <= firstPly) return { ok: false, error: 'it has no moves yet' };
  const lastMove = moveOf(lastPly - 1);
  const firstMove = moveOf(firstPly);
  const from = range.from ?? null;
  const to = range.to ?? null;
  for (const [name, value] of [
    ['from', from],
    ['to', to],
  ] as const) {
    if (value !== null && (!Number.isSafeInteger(value) || value < 1))
      return { ok: false, error: `${name} must be a move number, 1 or more` };
  }
  if (from !== null && to !== null && from > to)
    return { ok: false, error: `from (${from}) is after to (${to})` };
  const played = `it has moves ${firstMove} to ${lastMove}`;
  if (from !== null && from > lastMove)
    return { ok: false, error: `from ${from} is past its end: ${played}` };
  if (to !== null && to > lastMove) return { ok: false, error: `to ${to} is past its end: ${played}` };
  if (to !== null && to < firstMove)
    return { ok: false, error: `to ${to} is before what Kibitz saw: ${played}` };
  if (from !== null && from < firstMove)
    return { ok: false, error: `from ${from} is before what Kibitz saw: ${played}` };
  const endMove = to ?? (from === null ? lastMove : Math.min(lastMove, from + DEFAULT_CLIP_MOVES - 1));
  const startMove = from ?? Math.max(firstMove, endMove - DEFAULT_CLIP_MOVES + 1);
  if (endMove - startMove + 1 > MAX_CLIP_MOVES)
    return {
      ok: false,
      error: `a clip shows at most ${MAX_CLIP_MOVES} moves; moves ${startMove} to ${endMove} are ${endMove - startMove + 1}`,
    };
  return {
    ok: true,
    value: { start: Math.max(firstPly, (startMove - 1) * 2), end: Math.min(lastPly, endMove * 2) },
  };
}

interface ClipSource {
  game: GameId;
  white: string;
  black: string;
  live: boolean;
  scenes: BoardScene[];
}

/** The game asked for: live unless it has ended and is stored (as /pgn chooses). */
async function clipSource(request: ClipRequest, services: ClipServices): Promise<Result<ClipSource, string>> {
  const snapshot = services.snapshot(request.game);
  const live =
    snapshot !== undefined && (request.gameKey === undefined || gameKeyOf(snapshot) === request.gameKey)
      ? snapshot
      : undefined;
  const finished =
    live === undefined || live.ended
      ? await services.finished(
          request.gameKey === undefined ? { game: request.game } : { gameKey: request.gameKey },
        )
      : null;
  if (live !== undefined && (!live.ended || finished === null)) {
    const scenes = gameScenes(live);
    if (!scenes.ok) return { ok: false, error: scenes.error };
    return {
      ok: true,
      value: {
        game: live.game,
        white: live.white,
        black: live.black,
        live: !live.ended,
        scenes: scenes.value,
      },
    };
  }
  if (finished === null) return { ok: false, error: 'unknown' };
  const read = parsePgn(finished.pgn);
  if (!read.ok || read.value[0] === undefined) return { ok: false, error: 'its stored PGN cannot be read' };
  // The stored end text (`Bob resigns`), which the PGN's moves do not carry.
  const scenes = chessLiveGameScenes({ ...read.value[0], reason: read.value[0].reason ?? finished.reason });
  if (!scenes.ok) return { ok: false, error: scenes.error };
  return {
    ok: true,
    value: {
      game: finished.game,
      white: finished.white,
      black: finished.black,
      live: false,
      scenes: scenes.value,
    },
  };
}

/** What a clip will show, found and checked but not drawn yet: quick, so errors are told at once. */
export interface ClipPlan {
  game: GameId;
  white: string;
  black: string;
  live: boolean;
  fromMove: number;
  toMove: number;
  scenes: BoardScene[];
}

/** The game and moves a player asked for, or what was wrong with the request. */
export async function planClip(
  request: ClipRequest,
  services: ClipServices,
): Promise<Result<ClipPlan, ClipError>> {
  const source = await clipSource(request, services);
  if (!source.ok) {
    return source.error === 'unknown'
      ? { ok: false, error: { kind: 'unknown-game', game: request.game } }
      : { ok: false, error: { kind: 'unreadable', message: source.error } };
  }
  const { scenes, ...game } = source.value;
  const firstPly = plyOfFen(scenes[0]!.fen);
  const span = clipSpan(request, firstPly, firstPly + scenes.length - 1);
  if (!span.ok) return { ok: false, error: { kind: 'range', message: span.error } };
  return {
    ok: true,
    value: {
      ...game,
      fromMove: moveOf(span.value.start),
      toMove: moveOf(span.value.end - 1),
      scenes: scenes.slice(span.value.start - firstPly, span.value.end - firstPly + 1),
    },
  };
}

/** The planned clip drawn (off the main thread when the renderer is the worker pool). */
export async function renderClip(
  plan: ClipPlan,
  renderer: Pick<Renderer, 'gif'>,
): Promise<Result<Clip, ClipError>> {
  const gif = await renderer.gif(plan.scenes);
  if (!gif.ok) return { ok: false, error: { kind: 'render', message: gif.error } };
  const { scenes, ...rest } = plan;
  return {
    ok: true,
    value: {
      ...rest,
      frames: scenes.length,
      gif: gif.value,
      description: describeClip(scenes, plan.fromMove, plan.toMove),
      fileName: `game-${plan.game}-moves-${plan.fromMove}-${plan.toMove}.gif`,
    },
  };
}
