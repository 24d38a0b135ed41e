// The renderer's input: one picture's worth of plain data, and how to get it from a game snapshot.
import type { Color, Rules } from 'chessops/types';
import { rulesFor } from '../src/game/variants.js';
import type { GameSnapshot } from '../src/game/snapshot.js';
import type { GameResult, Holdings } from '../src/protocol/events.js';
import type { ThemeName } from './theme.js';

export interface ScenePlayer {
  name: string;
  rating?: string | null;
  /** Remaining time; no clock is drawn when absent. */
  clockMs?: number | null;
}

export interface SceneResult {
  result: GameResult;
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
  white: ScenePlayer;
  black: ScenePlayer;
  /** Pieces in hand (`PPNQ`); when absent, the FEN's pockets are shown if it has any. */
  holdings?: Holdings | null;
  /** Set once the game is over. */
  result?: SceneResult | null;
  /** Bughouse: the other board of the pair, drawn to the right. */
  partner?: BoardScene | null;
  theme?: ThemeName;
  /** Board width in pixels, 240..1024 (clamped). */
  size?: number;
}

/** Errors are values: bad input is reported, never thrown. */
export type RenderResult<T> = { ok: true; value: T } | { ok: false; error: string };

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

/** `1-0 · Black resigns`; the reason alone for an unfinished result (`*`). */
export function resultText(result: SceneResult): string {
  if (result.result === '*') return result.reason ?? '*';
  const score = result.result === '1/2-1/2' ? '½-½' : result.result;
  return result.reason ? `${score} · ${result.reason}` : score;
}

/** h:mm:ss from an hour, m:ss, and m:ss.t under ten seconds. */
export function formatClock(ms: number): string {
  const clamped = Math.max(0, ms);
  if (clamped < 10_000) {
    const tenths = Math.floor(clamped / 100);
    return `0:0${Math.floor(tenths / 10)}.${tenths % 10}`;
  }
  const total = Math.floor(clamped / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
