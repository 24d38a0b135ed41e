// A game is its number and its players: numbers are reused on FICS (after an end, after a server
// restart), so whatever restores or matches a game by number checks the players too.
import { describe, expect, it } from 'vitest';
import type { ReconnectReport } from '../../src/fics/connection.js';
import type { GameSnapshot } from '../../src/game/snapshot.js';
import { gameNumber } from '../support/fics-values.js';
import { fixture, poolOn, scriptOf, startFake } from './harness.js';

describe.each(['fatics', 'lasker'] as const)('on a %s server', (dialect) => {
  it('a number reused by other players after a server restart ends the old game, result unknown', async () => {
    const fake = await startFake({ dialect });
    const first = fixture('fatics_master_seq#3');
    const n = fake.addGame(scriptOf(first));
    const h = poolOn(fake);
    const reports: ReconnectReport[] = [];
    h.pool.on('reconnected', (r) => reports.push(r));
    await h.pool.start();
    await h.pool.observeGame(gameNumber(n));
    fake.playMoves(n, 6);
    const before = await h.snapshotWhen(n, (s) => s.san.length === 6, '6 moves');

    fake.restart();
    // Another pair's game takes the number before Kibitz is back.
    fake.addGame(scriptOf(first, { white: 'OtherWhite', black: 'OtherBlack' }), n);
    await fake.waitFor(() => reports.length === 1, 'the reconnection');
    const ended = (): GameSnapshot | undefined =>
      h.updates.flatMap((u) => (u.type === 'ended' && u.snapshot.key === before.key ? [u.snapshot] : []))[0];
    await fake.waitFor(() => ended() !== undefined, 'the old game to end');

    expect(ended()).toMatchObject({ white: first.white, result: '*', ended: true, san: before.san });
    expect(ended()!.reason).toMatch(/^Result unknown: game \d+ now shows OtherWhite vs OtherBlack$/);
    // The number now names the new game, which is not the old one continued.
    const now = await h.snapshotWhen(n, (s) => s.white === 'OtherWhite', 'the new game');
    expect(now.key).not.toBe(before.key);
    expect(now.ended).toBe(false);
  });
});
