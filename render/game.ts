// A whole game as one scene per position (start + one per ply), for animated GIFs: from a game
// snapshot, or from a ChessLive/PGN game read by src/chesslive.
import { makeFen, parseFen } from 'chessops/fen';
import type { Color, Rules } from 'chessops/types';
import { parseUci } from 'chessops/util';
import { defaultPosition, setupPosition, type Position } from 'chessops/variant';
import type { LiveGame } from '../src/chesslive/index.js';
import { givePassedPiece } from '../src/game/moves.js';
import { fileRules, rulesFor } from '../src/game/variants.js';
import type { GameSnapshot } from '../src/game/snapshot.js';
import type { Holdings } from '../src/protocol/events.js';
import type { BoardScene, RenderResult, SceneOptions, ScenePlayer, SceneResult } from './scene.js';
import type { ThemeName } from './theme.js';

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

function lineScenes(line: GameLine, look: GameLook): RenderResult<BoardScene[]> {
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

/** Every position of a game read from a PGN or ChessLive file (src/chesslive). */
export function liveGameScenes(game: LiveGame, look: GameLook = {}): RenderResult<BoardScene[]> {
  const rules = fileRules(game.variant);
  return lineScenes(
    {
      rules,
      startFen: game.startFen ?? makeFen(defaultPosition(rules).toSetup()),
      uci: game.moves.map((m) => m.uci),
      clocksMs: game.moves.map((m) => m.clockMs ?? null),
      initialClockMs: null,
      white: { name: game.white },
      black: { name: game.black },
      bughouse: game.variant === 'bughouse',
      handsAfter: [],
      finalHoldings: null,
      result: game.result === '*' ? null : { result: game.result, reason: game.reason ?? null },
    },
    look,
  );
}
