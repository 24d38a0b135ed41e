// The FICS truth games copied into test/fixtures/chesslive/fics-games.json, as game records.
import { readFileSync } from 'node:fs';
import type { GameRecord } from '../../src/game/record.js';
import type { GameResult } from '../../src/protocol/events.js';
import type { FileVariant } from '../../src/game/variants.js';

export interface TruthGame {
  id: string;
  variant: FileVariant;
  white: string;
  black: string;
  result: GameResult;
  reason: string | null;
  san: string[];
  uci: string[];
  fen_final: string;
}

export const truthGames: TruthGame[] = (
  JSON.parse(readFileSync(new URL('../fixtures/chesslive/fics-games.json', import.meta.url), 'utf8')) as {
    games: TruthGame[];
  }
).games;

/** A truth game as a GameRecord; `withClocks` gives every move a distinct whole-second clock. */
export function truthRecord(truth: TruthGame, withClocks: boolean): GameRecord {
  const game: GameRecord = {
    white: truth.white,
    black: truth.black,
    variant: truth.variant,
    san: [...truth.san],
    uci: [...truth.uci],
    clocksMs: truth.uci.map((_, i) => (withClocks ? 300_000 - i * 1000 : null)),
    result: truth.result,
    reason: truth.reason,
  };
  return game;
}
