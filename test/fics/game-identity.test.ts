// A game is its number and its players: numbers are reused on FICS (after an end, after a server
// restart), so whatever restores or matches a game by number checks the players too.
import { Chess } from 'chessops/chess';
import { parseSan } from 'chessops/san';
import { describe, expect, it } from 'vitest';
import type { ReconnectReport } from '../../src/fics/connection.js';
import type { GameSnapshot } from '../../src/game/snapshot.js';
import { GameTracker } from '../../src/game/tracker.js';
import { ObserverDecoder } from '../../src/protocol/decode.js';
import type { ServerEvent } from '../../src/protocol/events.js';
import { style12Line } from '../support/boards.js';
import { gameId, gameNumber } from '../support/fics-values.js';
import { fixture, poolOn, scriptOf, startFake, withoutId } from './harness.js';

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
    const now = h.updates.find((u) => u.type === 'started' && u.snapshot.white === 'OtherWhite');
    expect(now?.type === 'started' && now.snapshot.key).not.toBe(before.key);
    expect(reports[0]).toMatchObject({ games: [], lost: [n] });
    // Nobody asked for the new game: Kibitz stops observing it and keeps no state of it.
    await fake.waitFor(() => fake.observers(n).length === 0, 'the bot to stop observing the number', 15_000);
    expect(fake.commands().map(withoutId)).toContain(`unobserve ${n}`);
    expect(h.pool.snapshot(gameId(n))).toBeUndefined();
  });
});

describe('a late join by a pair that played before', () => {
  const list = [
    'GuestA (UNR) vs. GuestB (UNR) --- Sat Aug 11, 09:21 PDT 2012',
    'Unrated blitz match, initial time: 3 minutes, increment: 0 seconds.',
    '',
    'Move  GuestA             GuestB             ',
    '----  ----------------   ----------------',
    '  1.  d4      (0:01)     d5      (0:01)  ',
    '  2.  c4      (0:01)     e6      (0:01)  ',
    '      {Still in progress} *',
  ];

  it.each([
    ['resigned', '{Game 3 (GuestA vs. GuestB) GuestB resigns} 1-0'],
    ['aborted', '{Game 3 (GuestA vs. GuestB) Game aborted by mutual agreement} *'],
    ['adjourned', '{Game 3 (GuestA vs. GuestB) Game adjourned by mutual agreement} *'],
  ])('gets its own move list (lasker names no game), the %s earlier game keeps its record', (_, end) => {
    const players = { white: 'GuestA', black: 'GuestB' };
    const pos = Chess.default();
    const lines: string[] = [style12Line(pos, { ...players, game: 3, ply: 0 })];
    for (const [ply, san] of ['e4', 'e5'].entries()) {
      pos.play(parseSan(pos, san)!);
      lines.push(style12Line(pos, { ...players, game: 3, ply: ply + 1, san }));
    }
    lines.push(end);
    // Game 9, the same pair again, joined at ply 4.
    const later = Chess.default();
    for (const san of ['d4', 'd5', 'c4', 'e6']) later.play(parseSan(later, san)!);
    lines.push(style12Line(later, { ...players, game: 9, ply: 4, san: 'e6' }), ...list);
    const tracker = new GameTracker();
    for (const event of new ObserverDecoder().lines(lines) as ServerEvent[]) tracker.apply(event);
    expect(tracker.snapshot(gameId(9))).toMatchObject({ san: ['d4', 'd5', 'c4', 'e6'], complete: true });
    const earlier = tracker.games().find((g) => g.game === 3)!;
    expect(earlier.san).toEqual(['e4', 'e5']);
  });
});
