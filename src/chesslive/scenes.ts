// A game read from a PGN or ChessLive! file as scenes, the renderer's input.
import type { BoardScene, RenderResult } from '../../render/scene.js';
import { lineScenes, type GameLook } from '../game/scenes.js';
import { rulesFor } from '../game/variants.js';
import { recordStartFen, type GameRecord } from '../game/record.js';

/** Every position of a game read from a PGN or ChessLive! file. */
export function chessLiveGameScenes(game: GameRecord, look: GameLook = {}): RenderResult<BoardScene[]> {
  return lineScenes(
    {
      rules: rulesFor(game.variant),
      startFen: recordStartFen(game),
      uci: game.uci,
      clocksMs: game.clocksMs,
      initialClockMs: null,
      white: { name: game.white },
      black: { name: game.black },
      bughouse: game.variant === 'bughouse',
      handsAfter: [],
      finalHoldings: null,
      result: game.result === '*' ? null : { result: game.result, reason: game.reason },
    },
    look,
  );
}
