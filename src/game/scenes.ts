// Games as scenes, the renderer's input (render/scene.ts): one position of a game snapshot, or a
// whole game as one scene per position (start + one per ply) for animated GIFs.
import type { Color } from 'chessops/types';
import type { BoardScene, RenderResult, ScenePlayer } from '../../render/scene.js';
import type { ThemeName } from '../../render/theme.js';
import type { Holdings } from '../protocol/events.js';
import { flaggedSides } from './flag.js';
import { parseUciMove, replayFen, startReplay } from './moves.js';
import type { GameRecord } from './record.js';
import type { GameSnapshot } from './snapshot.js';
import { rulesFor } from './variants.js';

/** A bughouse board's hands where they are not known. */
const NO_HOLDINGS: Holdings = Object.freeze({ white: '', black: '' });

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

/**
 * One scene per position of a game record (start + one per ply), its result on the last. Built at
 * every game's end for its GIF, so each ply costs little: the record's own SAN is taken (naming
 * each move again cost a third of the replay), each scene is built in one shape, and a side's
 * player (name, rating, clock) is one object until its clock changes, so the clone of the scenes
 * to the render worker writes it once.
 */
export function recordScenes(
  game: GameRecord,
  extras: SceneExtras,
  look: GameLook,
): RenderResult<BoardScene[]> {
  const start = startReplay(game.variant, game.startFen);
  if (!start.ok) return { ok: false, error: start.error };
  const replay = start.value;
  const rules = rulesFor(game.variant);
  const orientation = look.orientation ?? 'white';
  const bughouse = game.variant === 'bughouse';
  const clocks: Record<Color, number | null> = { white: extras.initialClockMs, black: extras.initialClockMs };
  const players: Record<Color, ScenePlayer> = {
    white: { ...extras.white, clockMs: clocks.white },
    black: { ...extras.black, clockMs: clocks.black },
  };
  // Bughouse hands come from the partner board: the scenes show them as they were seen.
  const sceneOf = (
    lastMove: string | null,
    lastSan: string | null,
    moveTimeMs: number | null,
    hands: Holdings | null = null,
  ): BoardScene => {
    const scene: BoardScene = {
      fen: replayFen(replay),
      rules,
      orientation,
      lastMove,
      lastSan,
      moveTimeMs,
      white: players.white,
      black: players.black,
    };
    if (bughouse) scene.holdings = hands ?? NO_HOLDINGS;
    if (look.theme) scene.theme = look.theme;
    if (look.size) scene.size = look.size;
    return scene;
  };
  const scenes: BoardScene[] = [sceneOf(null, null, null)];
  for (const [ply, uci] of game.uci.entries()) {
    const move = parseUciMove(replay, uci);
    if (!move) return { ok: false, error: `invalid move "${uci}" at ply ${ply + 1}` };
    const mover = replay.pos.turn;
    // parseUciMove gave a legal move, a bughouse hand ready for it: played as is, not named again.
    replay.pos.play(move);
    const before = clocks[mover];
    const after = game.clocksMs[ply] ?? null;
    const fell = before !== null && after !== null && after <= before ? before - after : null;
    if (after !== null && after !== before) {
      clocks[mover] = after;
      players[mover] = { ...extras[mover], clockMs: after };
    }
    const san = game.san[ply] ?? null;
    scenes.push(sceneOf(uci, san, extras.moveTimesMs?.[ply] ?? fell, extras.handsAfter[ply] ?? null));
  }
  scenes[scenes.length - 1] = finalScene(scenes.at(-1)!, game, extras);
  return { ok: true, value: scenes };
}

/** A game's last scene as its end shows it: a fallen flag at 0, the final hands, the result. */
export function finalScene(last: BoardScene, game: GameRecord, extras: SceneExtras): BoardScene {
  const flagged = flaggedSides({ ...game, ended: extras.ended });
  return {
    ...last,
    ...(flagged.white ? { white: { ...last.white, clockMs: 0 } } : {}),
    ...(flagged.black ? { black: { ...last.black, clockMs: 0 } } : {}),
    ...(game.variant === 'bughouse' ? { holdings: extras.finalHoldings ?? NO_HOLDINGS } : {}),
    ...(extras.ended ? { result: { result: game.result, reason: game.reason } } : {}),
  };
}

/** What a snapshot's animation shows beyond its record. */
export function snapshotSceneExtras(snap: GameSnapshot): SceneExtras {
  return {
    initialClockMs: snap.initialMinutes === null ? null : snap.initialMinutes * 60_000,
    white: { name: snap.white, rating: snap.whiteRating },
    black: { name: snap.black, rating: snap.blackRating },
    handsAfter: snap.handsAfter ?? [],
    moveTimesMs: snap.moveTimesMs,
    finalHoldings: snap.holdings,
    ended: snap.ended,
  };
}

/** Every position of a snapshot's known history, oriented as the server suggests by default. */
export function gameScenes(snap: GameSnapshot, opts: SceneOptions = {}): RenderResult<BoardScene[]> {
  return recordScenes(snap, snapshotSceneExtras(snap), {
    ...opts,
    orientation: opts.orientation ?? (snap.flip ? 'black' : 'white'),
  });
}
