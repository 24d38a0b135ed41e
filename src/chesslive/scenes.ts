// A game read from a PGN or ChessLive! file as scenes, the renderer's input.
import type { BoardScene, RenderResult } from '../../render/scene.js';
import { recordScenes, type GameLook } from '../game/scenes.js';
import type { GameRecord } from '../game/record.js';

/** Every position of a game read from a PGN or ChessLive! file. */
export function chessLiveGameScenes(game: GameRecord, look: GameLook = {}): RenderResult<BoardScene[]> {
  return recordScenes(
    game,
    {
      initialClockMs: null,
      white: { name: game.white },
      black: { name: game.black },
      handsAfter: [],
      finalHoldings: null,
      ended: game.result !== '*',
    },
    look,
  );
}
