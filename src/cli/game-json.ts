// The game object the CLIs print (`npm run decode`, `npm run observe`): one JSON line per game.
import type { GameSnapshot } from '../game/snapshot.js';

export interface GameJson {
  game: number;
  white: string;
  black: string;
  whiteRating: string | null;
  blackRating: string | null;
  variant: string;
  san: string[];
  uci: string[];
  fen: string;
  result: string;
  reason: string | null;
  whiteClockMs: number;
  blackClockMs: number;
  complete: boolean;
  partnerGame: number | null;
  undecoded: number;
}

export function gameJson(snapshot: GameSnapshot, undecoded: number): GameJson {
  return {
    game: snapshot.game,
    white: snapshot.white,
    black: snapshot.black,
    whiteRating: snapshot.whiteRating,
    blackRating: snapshot.blackRating,
    variant: snapshot.variant,
    san: snapshot.san,
    uci: snapshot.uci,
    fen: snapshot.fen,
    result: snapshot.result,
    reason: snapshot.reason,
    whiteClockMs: snapshot.whiteClockMs,
    blackClockMs: snapshot.blackClockMs,
    complete: snapshot.complete,
    partnerGame: snapshot.partnerGame,
    undecoded,
  };
}
