// A game lost on time: the loser's clock reads 0:00 at the end, not the time left after its last
// move (what the last board says).
import { describe, expect, it } from 'vitest';
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
