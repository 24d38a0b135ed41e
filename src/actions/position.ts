// /position: one position drawn as Kibitz draws live games, from a FEN or a FICS Style 12 line.
import { describeBoard } from '../../render/index.js';
import { makeLichessAnalysisUrl } from '../game/lichess.js';
import { fenScene, style12Scene } from '../game/scene-input.js';
import type { BoardScene, ThemeName } from '../../render/index.js';
import { err, ok, type Result } from '../result.js';
import type { Services } from './services.js';

/** `theme`: the server's board colours (/settings theme); the default when absent. */
export type PositionInput = ({ readonly fen: string } | { readonly style12: string }) & {
  readonly flip: boolean;
  readonly theme?: ThemeName;
};

export interface Drawn {
  readonly png: Buffer;
  readonly fen: string;
  /** The board in words (the picture's description). */
  readonly description: string;
  /** The position on lichess's analysis board, when it has a URL. */
  readonly analysisUrl: string | null;
}

export type PositionError =
  /** The text is not a position; `reason` quotes it. */
  | { readonly kind: 'unreadable'; readonly input: 'fen' | 'style12'; readonly reason: string }
  | { readonly kind: 'not-drawn'; readonly reason: string };

/** The position read, at once: a bad one is answered before anything is drawn. */
export function readPosition(input: PositionInput): Result<BoardScene, PositionError> {
  const read = 'fen' in input ? fenScene(input.fen) : style12Scene(input.style12);
  if (!read.ok)
    return err({ kind: 'unreadable', input: 'fen' in input ? 'fen' : 'style12', reason: read.error });
  return ok({
    ...read.value,
    ...(input.flip ? { orientation: 'black' as const } : {}),
    ...(input.theme === undefined ? {} : { theme: input.theme }),
  });
}

/** Draws a position read by readPosition (a render thread may take a moment to start). */
export async function drawPosition(
  scene: BoardScene,
  services: { readonly renderer: Pick<Services['renderer'], 'png'> },
): Promise<Result<Drawn, PositionError>> {
  const png = await services.renderer.png(scene);
  if (!png.ok) return err({ kind: 'not-drawn', reason: png.error });
  // A Style 12 line's board has no pockets here: it is analysed as chess.
  const analysisUrl = makeLichessAnalysisUrl(
    scene.rules === 'crazyhouse' ? 'crazyhouse' : 'chess',
    scene.fen,
  );
  return ok({ png: png.value, fen: scene.fen, description: describeBoard(scene), analysisUrl });
}
