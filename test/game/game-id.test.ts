import { describe, expect, it } from 'vitest';
import { isChessLive, makeChessLiveGame, parseChessLiveGame } from '../../src/game/game-id.js';
import { isGameNumber } from '../../src/protocol/game-number.js';

describe('game numbers of ChessLive! sources', () => {
  it('lie above every FICS game number, so no FICS number is taken for a ChessLive! game', () => {
    expect(isGameNumber(999_999_999)).toBe(true);
    expect(isGameNumber(makeChessLiveGame(0))).toBe(false);
    for (const fics of [1, 999_999, 1_000_000, 1_000_001, 999_999_999]) {
      expect(parseChessLiveGame(fics)).toBeNull();
    }
  });

  it('name their source: parseChessLiveGame undoes makeChessLiveGame', () => {
    for (const index of [0, 1, 31]) expect(parseChessLiveGame(makeChessLiveGame(index))).toBe(index);
    expect(parseChessLiveGame(makeChessLiveGame(0) + 0.5)).toBeNull();
  });

  it('a snapshot says its source: a ChessLive! source name, or none for FICS', () => {
    expect(isChessLive({ source: 'round1' })).toBe(true);
    expect(isChessLive({ source: null })).toBe(false);
  });
});
