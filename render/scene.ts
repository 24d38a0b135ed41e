// The renderer's input: one picture's worth of plain data. The renderer knows nothing else: games
// become scenes on the game side (src/game/scenes.ts).
import type { Color, Rules } from 'chessops/types';
import type { ThemeName } from './theme.js';

/** A game's score as PGN writes it; `*` while it runs or when unknown. */
export type SceneScore = '1-0' | '0-1' | '1/2-1/2' | '*';

/** Pieces in hand as FICS writes them (`PPNQ`), per side. */
export interface SceneHoldings {
  white: string;
  black: string;
}

export interface ScenePlayer {
  name: string;
  rating?: string | null;
  /** Remaining time; no clock is drawn when absent. */
  clockMs?: number | null;
}

export interface SceneResult {
  result: SceneScore;
  /** `Black resigns`; null when unknown. */
  reason: string | null;
}

export interface BoardScene {
  /** Side to move comes from here. Crazyhouse pockets (`[Pp]`) and `~` promoted marks are read. */
  fen: string;
  /** Rules for finding check; default `chess`. */
  rules?: Rules;
  /** Colour at the bottom. */
  orientation: Color;
  /** UCI (`e2e4`, castling as the king's move `e1g1`, drops `P@e4`): highlighted. */
  lastMove?: string | null;
  /** How long the last move took, ms, where known: a GIF shows the position before it for a share of that. */
  moveTimeMs?: number | null;
  /** The same move in SAN (`Nf3+`), for the picture's description in words; none when absent. */
  lastSan?: string | null;
  white: ScenePlayer;
  black: ScenePlayer;
  /** Pieces in hand (`PPNQ`); when absent, the FEN's pockets are shown if it has any. */
  holdings?: SceneHoldings | null;
  /** Set once the game is over. */
  result?: SceneResult | null;
  theme?: ThemeName;
  /** Board width in pixels, 240..1024 (clamped). */
  size?: number;
  /** An engine's opinion: a bar beside the board, and its best move as an arrow when given. */
  evaluation?: SceneEvaluation | null;
}

/** An evaluation from White's point of view: centipawns, or moves to mate (negative: Black mates). */
export type SceneEvaluation = ({ cp: number } | { mate: number }) & {
  /** UCI (`e2e4`, castling as the king's move): drawn as an arrow; none when absent. */
  bestMove?: string | null;
};

/** Errors are values: bad input is reported, never thrown. */
export type RenderResult<T> = { ok: true; value: T } | { ok: false; error: string };
