import { describe, expect, it } from 'vitest';
import { makeLichessAnalysisUrl } from '../../src/game/lichess.js';

describe('lichess analysis links', () => {
  it('opens a chess position on the standard board, spaces written _', () => {
    expect(
      makeLichessAnalysisUrl('chess', 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2'),
    ).toBe(
      'https://lichess.org/analysis/standard/rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR_w_KQkq_e6_0_2',
    );
  });

  it('names chess960, wild as standard, and encodes crazyhouse pockets', () => {
    expect(makeLichessAnalysisUrl('chess960', '8/8/8/8/8/8/8/K6k w - - 0 1')).toMatch(
      /^https:\/\/lichess\.org\/analysis\/chess960\//,
    );
    expect(makeLichessAnalysisUrl('wild', '8/8/8/8/8/8/8/K6k w - - 0 1')).toMatch(/\/analysis\/standard\//);
    expect(
      makeLichessAnalysisUrl('crazyhouse', 'rnbqkb1r/pppppppp/8/8/8/8/PPPPPPPP/RNBQKB~R[Nn] w KQkq - 0 3'),
    ).toBe(
      'https://lichess.org/analysis/crazyhouse/rnbqkb1r/pppppppp/8/8/8/8/PPPPPPPP/RNBQKB~R%5BNn%5D_w_KQkq_-_0_3',
    );
  });

  it('gives no link where lichess plays other rules or one board is not the game', () => {
    for (const variant of ['bughouse', 'suicide', 'losers'] as const)
      expect(makeLichessAnalysisUrl(variant, '8/8/8/8/8/8/8/K6k w - - 0 1')).toBeNull();
  });
});
