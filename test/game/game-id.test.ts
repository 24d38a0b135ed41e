import { describe, expect, it } from 'vitest';
import {
  isChessLive,
  isFicsGame,
  LARGEST_GAME_ID,
  makeChessLiveGame,
  parseChessLiveGame,
  parseGameId,
  type GameId,
} from '../../src/game/game-id.js';
import { isGameNumber } from '../../src/protocol/game-number.js';
import { gameId, gameNumber } from '../support/fics-values.js';

describe('game numbers of ChessLive! sources', () => {
  it('lie above every FICS game number, so no FICS number is taken for a ChessLive! game', () => {
    expect(isGameNumber(999_999_999)).toBe(true);
    expect(isGameNumber(makeChessLiveGame(0))).toBe(false);
    for (const fics of [1, 999_999, 1_000_000, 1_000_001, 999_999_999]) {
      expect(parseChessLiveGame(gameId(fics))).toBeNull();
      expect(isFicsGame(gameId(fics))).toBe(true);
    }
    expect(isFicsGame(makeChessLiveGame(0))).toBe(false);
  });

  it('name their source: parseChessLiveGame undoes makeChessLiveGame', () => {
    for (const index of [0, 1, 31]) expect(parseChessLiveGame(makeChessLiveGame(index))).toBe(index);
  });

  it('a snapshot says its source: a ChessLive! source name, or none for FICS', () => {
    expect(isChessLive({ source: 'round1' })).toBe(true);
    expect(isChessLive({ source: null })).toBe(false);
  });
});

describe('parseGameId', () => {
  it('takes every FICS number and every ChessLive! number, as numbers or digits', () => {
    for (const id of [1, 999_999_999, 1_000_000_000, LARGEST_GAME_ID]) {
      expect(parseGameId(id)).toEqual({ ok: true, value: id });
      expect(parseGameId(String(id))).toEqual({ ok: true, value: id });
    }
    expect(parseGameId(1_000_000_000)).toEqual({ ok: true, value: makeChessLiveGame(0) });
  });

  it('refuses what is no game: 0, negative, fractions, NaN, past the last ChessLive! number, text', () => {
    for (const bad of [
      0,
      -1,
      1.5,
      NaN,
      Infinity,
      LARGEST_GAME_ID + 1,
      2 ** 53,
      '',
      '12a',
      ' 12',
      '1e3',
      '00000000001',
    ]) {
      const parsed = parseGameId(bad);
      expect(parsed.ok, String(bad)).toBe(false);
      if (!parsed.ok) expect(parsed.error).toEqual({ kind: 'not-a-game-id', input: String(bad) });
    }
  });

  it('is the only way a raw number becomes a game id (type-checked)', () => {
    const raw = 42;
    // @ts-expect-error a raw number is not a GameId: it has to go through parseGameId.
    const unchecked: GameId = raw;
    // @ts-expect-error nor a FICS game number.
    const number: ReturnType<typeof gameNumber> = raw;
    // A FICS game number is a game id as it is.
    const fics: GameId = gameNumber(raw);
    expect([unchecked, number, fics]).toEqual([42, 42, 42]);
  });
});
