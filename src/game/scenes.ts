// Games as scenes, the renderer's input (render/scene.ts): one position of a game snapshot, or a
// whole game as one scene per position (start + one per ply) for animated GIFs.
import type { Color } from 'chessops/types';
import type { BoardScene, RenderResult, ScenePlayer } from '../../render/scene.js';
import type { ThemeName } from '../../render/theme.js';
import type { Holdings } from '../protocol/events.js';
import { flaggedSides } from './flag.js';
import { parseUciMove, play, replayFen, startReplay } from './moves.js';
import type { GameRecord } from './record.js';
import type { GameSnapshot } from './snapshot.js';
import { rulesFor } from './variants.js';

export interface SceneOptions {
  theme?: ThemeName;
  size?: number;
  /** Default: the server's flip hint. */
  orientation?: Color;
}

export function sceneFromSnapshot(snap: GameSnapshot, opts: SceneOptions = {}): BoardScene {
  const orientation = opts.orientation ?? (snap.flip ? 'black' : 'white');
  return {
    fen: snap.fen,
    rules: rulesFor(snap.variant),
    orientation,
    lastMove: snap.uci.at(-1) ?? null,
    lastSan: snap.san.at(-1) ?? null,
    white: { name: snap.white, rating: snap.whiteRating, clockMs: snap.whiteClockMs },
    black: { name: snap.black, rating: snap.blackRating, clockMs: snap.blackClockMs },
    holdings: snap.holdings,
    result: snap.ended ? { result: snap.result, reason: snap.reason } : null,
    ...(opts.theme ? { theme: opts.theme } : {}),
    ...(opts.size ? { size: opts.size } : {}),
  };
}

/** What a game's animation shows beyond its record. */
export interface SceneExtras {
  initialClockMs: number | null;
  white: ScenePlayer;
  black: ScenePlayer;
  /** Bughouse: the hands after each ply, where known (empty where not); a replay cannot know them. */
  handsAfter: readonly (Holdings | null)[];
  finalHoldings: Holdings | null;
  /** Time each ply took, where known; otherwise the fall of the mover's clock is taken. */
  moveTimesMs?: readonly (number | null)[];
  /** The last scene shows the result (`*` for an adjourned or aborted game). */
  ended: boolean;
}

export interface GameLook {
  orientation?: Color;
  theme?: ThemeName;
  size?: number;
}

/** One scene per position of a game record (start + one per ply), its result on the last. */
export function recordScenes(
  game: GameRecord,
  extras: SceneExtras,
  look: GameLook,
): RenderResult<BoardScene[]> {
  const start = startReplay(game.variant, game.startFen);
  if (!start.ok) return { ok: false, error: start.error };
  const replay = start.value;
  const rules = rulesFor(game.variant);
  const bughouse = game.variant === 'bughouse';
  const clocks: Record<Color, number | null> = { white: extras.initialClockMs, black: extras.initialClockMs };
  const noHoldings = { white: '', black: '' };
  // Bughouse hands come from the partner board: the scenes show them as they were seen.
  const sceneOf = (
    lastMove: string | null,
    lastSan: string | null,
    moveTimeMs: number | null,
    hands: Holdings | null = null,
  ): BoardScene => ({
    fen: replayFen(replay),
    rules,
    orientation: look.orientation ?? 'white',
    lastMove,
    lastSan,
    moveTimeMs,
    white: { ...extras.white, clockMs: clocks.white },
    black: { ...extras.black, clockMs: clocks.black },
    ...(bughouse ? { holdings: hands ?? noHoldings } : {}),
    ...(look.theme ? { theme: look.theme } : {}),
    ...(look.size ? { size: look.size } : {}),
  });
  const scenes: BoardScene[] = [sceneOf(null, null, null)];
  for (const [ply, uci] of game.uci.entries()) {
    const move = parseUciMove(replay, uci);
    if (!move) return { ok: false, error: `invalid move "${uci}" at ply ${ply + 1}` };
    const mover = replay.pos.turn;
    const { san } = play(replay, move);
    const before = clocks[mover];
    const after = game.clocksMs[ply] ?? null;
    const fell = before !== null && after !== null && after <= before ? before - after : null;
    clocks[mover] = after ?? clocks[mover];
    scenes.push(sceneOf(uci, san, extras.moveTimesMs?.[ply] ?? fell, extras.handsAfter[ply] ?? null));
  }
  const last = scenes.at(-1)!;
  const flagged = flaggedSides({ ...game, ended: extras.ended });
  scenes[scenes.length - 1] = {
    ...last,
    ...(flagged.white ? { white: { ...last.white, clockMs: 0 } } : {}),
    ...(flagged.black ? { black: { ...last.black, clockMs: 0 } } : {}),
    ...(bughouse ? { holdings: extras.finalHoldings ?? noHoldings } : {}),
    ...(extras.ended ? { result: { result: game.result, reason: game.reason } } : {}),
  };
  return { ok: true, value: scenes };
}

/** Every position of a snapshot's known history, oriented as the server suggests by default. */
export function gameScenes(snap: GameSnapshot, opts: SceneOptions = {}): RenderResult<BoardScene[]> {
  return recordScenes(
    snap,
    {
      initialClockMs: snap.initialMinutes === null ? null : snap.initialMinutes * 60_000,
      white: { name: snap.white, rating: snap.whiteRating },
      black: { name: snap.black, rating: snap.blackRating },
      handsAfter: snap.handsAfter ?? [],
      moveTimesMs: snap.moveTimesMs,
      finalHoldings: snap.holdings,
      ended: snap.ended,
    },
    { ...opts, orientation: opts.orientation ?? (snap.flip ? 'black' : 'white') },
  );
}
