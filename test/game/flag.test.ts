// A game lost on time: the loser's clock reads 0:00 at the end, not the time left after its last
// move (what the last board says).
import { describe, expect, it } from 'vitest';
import { clocksWithFlags } from '../../src/game/flag.js';
import { makeSnapshotPgn, parsePgn } from '../../src/game/pgn.js';
import { gameScenes } from '../../src/game/scenes.js';
import { decodeTranscript } from '../../src/game/transcript.js';
import { decodeGameEnd } from '../../src/protocol/lines.js';
import { transcript } from '../support/fixtures.js';

describe('a flag', () => {
  // lasker_flag: F01 (game 13) GuestSZJW forfeits on time as White, F02 (game 17) GuestILEA as Black.
  const games = decodeTranscript(transcript('lasker_flag', 'obs_multi.raw')).games;
  const game = (white: string) => games.find((g) => g.white === white)!;

  it.each([
    ['GuestSZJW', 'whiteClockMs', 'blackClockMs'],
    ['GuestVVHC', 'blackClockMs', 'whiteClockMs'],
  ] as const)('%s: the side that forfeits on time shows 0:00, the other its time', (white, fallen, other) => {
    const snap = game(white);
    expect(snap.reason).toMatch(/forfeits on time/);
    expect(snap[fallen]).toBe(0);
    expect(snap[other]).toBeGreaterThan(0);
    // The final picture of the whole game says the same.
    const scenes = gameScenes(snap);
    if (!scenes.ok) throw new Error(scenes.error);
    const last = scenes.value.at(-1)!;
    const side = fallen === 'whiteClockMs' ? last.white : last.black;
    expect(side.clockMs).toBe(0);
  });

  it.each([
    ['GuestSZJW', 'white'],
    ['GuestVVHC', 'black'],
  ] as const)('%s: the last clock in the PGN of the side that lost on time is 0:00', (white, fallen) => {
    const snap = game(white);
    const read = parsePgn(makeSnapshotPgn(snap));
    if (!read.ok) throw new Error(read.error);
    const clocks = read.value[0]!.clocksMs;
    // The last ply is the winner's (the loser was to move when its flag fell).
    const last = { loser: clocks.at(-2), winner: clocks.at(-1) };
    expect(last.loser).toBe(0);
    expect(last.winner).toBeGreaterThan(0);
    expect(snap.sideToMove).toBe(fallen);
  });

  it('clocksWithFlags sets the last clock of each fallen side, and nothing else', () => {
    const none = { white: false, black: false };
    expect(clocksWithFlags([60_000, 59_000, 5_000], 'black', none)).toEqual([60_000, 59_000, 5_000]);
    // White moved last; Black (to move) flagged: Black's last ply is the second.
    expect(clocksWithFlags([60_000, 59_000, 5_000], 'black', { white: false, black: true })).toEqual([
      60_000, 0, 5_000,
    ]);
    expect(clocksWithFlags([60_000, 59_000, 5_000], 'black', { white: true, black: true })).toEqual([
      60_000, 0, 0,
    ]);
    // A side with no move yet, or a ply without a clock, has nothing to set.
    expect(clocksWithFlags([null], 'black', { white: true, black: true })).toEqual([null]);
    expect(clocksWithFlags([], 'white', { white: true, black: false })).toEqual([]);
  });

  it('both flags: both clocks read 0:00', () => {
    const snap = { ...game('GuestSZJW'), reason: 'Game drawn because both players ran out of time' };
    const scenes = gameScenes(snap);
    if (!scenes.ok) throw new Error(scenes.error);
    const last = scenes.value.at(-1)!;
    expect([last.white.clockMs, last.black.clockMs]).toEqual([0, 0]);
  });
});

describe('an adjournment reason', () => {
  it('is spelled out where the FICS 1.6.2 lineage sends only "adjourned" (a player lost connection)', () => {
    expect(decodeGameEnd('{Game 4 (Corpwhite vs. Corpblack) adjourned} *')?.reason).toBe(
      'Game adjourned when a player lost connection',
    );
    expect(decodeGameEnd('{Game 4 (GuestA vs. GuestB) aborted} *')?.reason).toBe(
      'Game aborted when a player lost connection',
    );
    // An agreement says so already.
    expect(
      decodeGameEnd('{Game 4 (Corpwhite vs. Corpblack) Game adjourned by mutual agreement} *')?.reason,
    ).toBe('Game adjourned by mutual agreement');
  });
});
