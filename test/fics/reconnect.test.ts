// Connections that drop, stall or get logged out come back, observe their games again and fill
// the gap from the move list, so the history stays complete.
import { describe, expect, it } from 'vitest';
import type { ReconnectReport } from '../../src/fics/connection.js';
import { FakeClock } from '../fake-fics/clock.js';
import { fixture, poolOn, scriptOf, startFake, withoutId } from './harness.js';
import { gameNumber } from '../support/fics-values.js';

describe.each(['fatics', 'lasker'] as const)('on a %s server', (dialect) => {
  it('a connection cut mid-game reconnects, re-observes, and the history is still complete', async () => {
    const fake = await startFake({ dialect });
    const game = fixture('fatics_master_seq#3');
    const n = fake.addGame(scriptOf(game));
    const h = poolOn(fake);
    const reports: ReconnectReport[] = [];
    h.pool.on('reconnected', (r) => reports.push(r));
    await h.pool.start();
    await h.pool.observeGame(gameNumber(n));
    fake.playMoves(n, 20);
    await h.snapshotWhen(n, (s) => s.san.length === 20, '20 moves');

    fake.drop();
    await fake.waitFor(() => fake.connected === 0, 'the drop');
    // The game goes on while nobody is watching.
    fake.playMoves(n, 15);
    await fake.waitFor(() => reports.length === 1, 'the reconnection');
    fake.playAll(n);
    const end = await h.ended(n);

    expect(end.san).toEqual(game.san);
    expect(end.complete).toBe(true);
    expect(end.fen).toBe(game.fenFinal);
    expect(reports[0]).toMatchObject({ games: [n], lost: [] });
    expect(reports[0]!.reconciledMs).toBeGreaterThanOrEqual(reports[0]!.downMs);
    // Logged in twice, observed twice, and asked for the move list after coming back.
    const asked = fake.commands().map(withoutId);
    expect(asked.filter((c) => c === `observe ${n}`)).toHaveLength(2);
    expect(asked).toContain(`moves ${n}`);
    expect(h.pool.status()).toEqual([
      { name: 'fics#1', state: 'online', handle: expect.any(String), games: [] },
    ]);
  });

  it('a game that ended while the connection was down is reported ended, result unknown', async () => {
    const fake = await startFake({ dialect });
    const n = fake.addGame(scriptOf(fixture('lasker_flag#0')));
    const h = poolOn(fake);
    const reports: ReconnectReport[] = [];
    h.pool.on('reconnected', (r) => reports.push(r));
    await h.pool.start();
    await h.pool.observeGame(gameNumber(n));
    fake.playMoves(n, 4);
    await h.snapshotWhen(n, (s) => s.san.length === 4, '4 moves');
    fake.drop();
    await fake.waitFor(() => fake.connected === 0, 'the drop');
    fake.playAll(n);
    const end = await h.ended(n);
    expect(end.result).toBe('*');
    expect(end.reason).toMatch(/ended while Kibitz was disconnected/);
    expect(end.san).toHaveLength(4);
    await fake.waitFor(() => reports.length === 1, 'the reconnection report');
    expect(reports[0]).toMatchObject({ games: [], lost: [n] });
    expect(h.pool.status()[0]!.games).toEqual([]);
  });
});

describe('a stalled server', () => {
  it('is given up on when a block-mode command gets no answer, and the games come back', async () => {
    const fake = await startFake({ dialect: 'fatics' });
    const game = fixture('fatics_special#0');
    const n = fake.addGame(scriptOf(game));
    const h = poolOn(fake, { commandTimeoutMs: 150 });
    const reports: ReconnectReport[] = [];
    h.pool.on('reconnected', (r) => reports.push(r));
    await h.pool.start();
    await h.pool.observeGame(gameNumber(n));
    fake.playMoves(n, 5);
    await h.snapshotWhen(n, (s) => s.san.length === 5, '5 moves');

    fake.stall(true);
    await expect(h.pool.listGames()).rejects.toMatchObject({ name: 'FicsCommandError', code: 'timeout' });
    fake.stall(false);
    await fake.waitFor(() => reports.length === 1, 'the reconnection');
    fake.playAll(n);
    const end = await h.ended(n);
    expect(end.san).toEqual(game.san);
    expect(end.complete).toBe(true);
    expect(h.logger.records.some((r) => r.message === 'FICS stopped answering; reconnecting')).toBe(true);
  });
});

describe('an idle logout', () => {
  it('is a drop like any other: the connection logs in again', async () => {
    const serverClock = new FakeClock();
    const fake = await startFake({ dialect: 'lasker', clock: serverClock });
    const n = fake.addGame(scriptOf(fixture('lasker_flag#0')));
    const h = poolOn(fake);
    const reports: ReconnectReport[] = [];
    h.pool.on('reconnected', (r) => reports.push(r));
    await h.pool.start();
    await h.pool.observeGame(gameNumber(n));
    serverClock.advance(61 * 60_000);
    fake.enforceIdle();
    await fake.waitFor(() => reports.length === 1, 'the reconnection');
    expect(reports[0]!.games).toEqual([n]);
  });
});
