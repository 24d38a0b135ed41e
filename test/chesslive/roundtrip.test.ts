import { describe, expect, it } from 'vitest';
import { parseChessLive, makeChessLive } from '../../src/chesslive/index.js';
import { truthRecord, truthGames } from './fics-games.js';

/** Bughouse hands depend on the partner board, so only the board, side and castling can be compared. */
const comparableFen = (fen: string, variant: string): string =>
  variant === 'bughouse'
    ? fen
        .replace(/\[[^\]]*\]/, '')
        .split(' ')
        .slice(0, 3)
        .join(' ')
    : fen;

describe('ChessLive! round trip of real FICS games', () => {
  it.each(truthGames.map((g) => [g.id, g] as const))('%s', (_id, truth) => {
    const withClocks = truth.san.length % 2 === 0;
    const written = makeChessLive(truthRecord(truth, withClocks));
    if (!written.ok) throw new Error(written.error);
    const read = parseChessLive(written.value, { variant: truth.variant });
    if (!read.ok) throw new Error(read.error.message);
    const { game } = read.value;
    expect(game.white).toBe(truth.white);
    expect(game.black).toBe(truth.black);
    expect(game.uci).toEqual(truth.uci);
    expect(game.san).toEqual(truth.san);
    expect(comparableFen(read.value.fen, truth.variant)).toBe(comparableFen(truth.fen_final, truth.variant));
    expect(game.result).toBe(truth.result);
    if (truth.result !== '*') expect(game.reason).toBe(truth.reason);
    expect(game.clocksMs).toEqual(truth.san.map((_, i) => (withClocks ? 300_000 - i * 1000 : null)));
  });
});
