// Games as scenes, the renderer's input (render/scene.ts): one position of a game snapshot, or a
// whole game as one scene per position (start + one per ply) for animated GIFs.
import { makeFen, parseFen } from 'chessops/fen';
import type { Color, Rules } from 'chessops/types';
import { parseUci } from 'chessops/util';
import { setupPosition, type Position } from 'chessops/variant';
import type { BoardScene, RenderResult, ScenePlayer, SceneResult } from '../../render/scene.js';
import type { ThemeName } from '../../render/theme.js';
import type { Holdings } from '../protocol/events.js';
import { givePassedPiece } from './moves.js';
import type { GameSnapshot } from './snapshot.js';
import { rulesFor } from './variants.js';

export interface SceneOptions {
  theme?: ThemeName;
  size?: number;
  /** Default: the server's flip hint. */
  orientation?: Color;
  /** Bughouse: the partner game, drawn flipped relative to this one. */
  partner?: GameSnapshot | null;
}

export function sceneFromSnapshot(snap: GameSnapshot, opts: SceneOptions = {}): BoardScene {
  const orientation = opts.orientation ?? (snap.flip ? 'black' : 'white');
  return {
    fen: snap.fen,
    rules: rulesFor(snap.variant),
    orientation,
    lastMove: snap.uci.at(-1) ?? null,
    white: { name: snap.white, rating: snap.whiteRating, clockMs: snap.whiteClockMs },
    black: { name: snap.black, rating: snap.blackRating, clockMs: snap.blackClockMs },
    holdings: snap.holdings,
    result: snap.ended ? { result: snap.result, reason: snap.reason } : null,
    partner: opts.partner
      ? sceneFromSnapshot(opts.partner, { orientation: orientation === 'white' ? 'black' : 'white' })
      : null,
    ...(opts.theme ? { theme: opts.theme } : {}),
    ...(opts.size ? { size: opts.size } : {}),
  };
}

/** A game as the animation needs it. */
interface GameLine {
  rules: Rules;
  startFen: string;
  /** Castling as the king's move, or king takes rook (chess960); drops `P@e4`. */
  uci: readonly string[];
  /** The mover's clock after each ply, where known. */
  clocksMs: readonly (number | null)[];
  initialClockMs: number | null;
  white: ScenePlayer;
  black: ScenePlayer;
  /** Bughouse hands come from the partner board: a replay takes them as they were seen. */
  bughouse: boolean;
  /** Bughouse: the hands after each ply, where known (empty where not). */
  handsAfter: readonly (Holdings | null)[];
  finalHoldings: Holdings | null;
  result: SceneResult | null;
}

export interface GameLook {
  orientation?: Color;
  theme?: ThemeName;
  size?: number;
}

/** One scene per position of a game line, its result on the last. */
export function lineScenes(line: GameLine, look: GameLook): RenderResult<BoardScene[]> {
  const setup = parseFen(line.startFen);
  if (setup.isErr) return { ok: false, error: `invalid start FEN "${line.startFen}"` };
  const start = setupPosition(line.rules, setup.value);
  if (start.isErr) return { ok: false, error: `start position not playable: ${start.error.message}` };
  const pos = start.value;
  const clocks: Record<Color, number | null> = { white: line.initialClockMs, black: line.initialClockMs };
  const noHoldings = { white: '', black: '' };
  const sceneOf = (p: Position, lastMove: string | null, hands: Holdings | null = null): BoardScene => ({
    fen: makeFen(p.toSetup()),
    rules: line.rules,
    orientation: look.orientation ?? 'white',
    lastMove,
    white: { ...line.white, clockMs: clocks.white },
    black: { ...line.black, clockMs: clocks.black },
    ...(line.bughouse ? { holdings: hands ?? noHoldings } : {}),
    ...(look.theme ? { theme: look.theme } : {}),
    ...(look.size ? { size: look.size } : {}),
  });
  const scenes: BoardScene[] = [sceneOf(pos, null)];
  for (const [ply, uci] of line.uci.entries()) {
    const move = parseUci(uci);
    if (!move) return { ok: false, error: `invalid move "${uci}" at ply ${ply + 1}` };
    const mover = pos.turn;
    if (line.bughouse) givePassedPiece(pos, move);
    pos.play(move);
    clocks[mover] = line.clocksMs[ply] ?? clocks[mover];
    scenes.push(sceneOf(pos, uci, line.handsAfter[ply] ?? null));
  }
  const last = scenes.at(-1)!;
  scenes[scenes.length - 1] = {
    ...last,
    ...(line.bughouse ? { holdings: line.finalHoldings ?? noHoldings } : {}),
    ...(line.result ? { result: line.result } : {}),
  };
  return { ok: true, value: scenes };
}

/** Every position of a snapshot's known history, oriented as the server suggests by default. */
export function gameScenes(
  snap: GameSnapshot,
  opts: Omit<SceneOptions, 'partner'> = {},
): RenderResult<BoardScene[]> {
  return lineScenes(
    {
      rules: rulesFor(snap.variant),
      startFen: snap.startFen,
      uci: snap.uci,
      clocksMs: snap.clocksMs,
      initialClockMs: snap.initialMinutes === null ? null : snap.initialMinutes * 60_000,
      white: { name: snap.white, rating: snap.whiteRating },
      black: { name: snap.black, rating: snap.blackRating },
      bughouse: snap.variant === 'bughouse',
      handsAfter: snap.handsAfter ?? [],
      finalHoldings: snap.holdings,
      result: snap.ended ? { result: snap.result, reason: snap.reason } : null,
    },
    { ...opts, orientation: opts.orientation ?? (snap.flip ? 'black' : 'white') },
  );
}
