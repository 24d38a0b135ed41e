// Real games (played on lasker and FatICS, see test/fixtures/fics-games) as scripts for the fake
// server. No test-runner imports: benches and harnesses of every suite share it.
import type { GameResult } from '../../src/protocol/events.js';
import fixtures from '../fixtures/fics-games/games.json' with { type: 'json' };
import type { GameScript } from './game.js';

export interface FixtureGame {
  id: string;
  white: string;
  black: string;
  variant: string;
  initialMinutes: number;
  incrementSec: number;
  san: string[];
  result: string;
  reason: string;
  fenFinal: string;
}

export const fixtureGames: FixtureGame[] = fixtures.games;
export const bughouseFixture = fixtures.bughouse[0]!;

export function fixture(id: string): FixtureGame {
  const game = fixtureGames.find((g) => g.id === id);
  if (game === undefined) throw new Error(`no fixture game ${id}`);
  return game;
}

/** The fake server's script of a fixture game; `extra` overrides (other players, ratings...). */
export function scriptOf(game: FixtureGame, extra: Partial<GameScript> = {}): GameScript {
  return {
    white: game.white,
    black: game.black,
    san: game.san,
    variant: game.variant === 'crazyhouse' ? 'crazyhouse' : 'chess',
    initialMinutes: game.initialMinutes,
    incrementSec: game.incrementSec,
    result: game.result as GameResult,
    reason: game.reason,
    ...extra,
  };
}
