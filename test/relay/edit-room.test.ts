// Evaluation-only edits leave Discord's edit room (5 per 5 s) to moves: they wait once a post had
// 3 edits in the last 5 s, until the oldest of them leaves the window.
import { describe, expect, it } from 'vitest';
import { EditRoom } from '../../src/relay/evaluations.js';

describe('EditRoom', () => {
  it('lets an evaluation edit go below 3 recent edits, and says how long to wait above', () => {
    const room = new EditRoom();
    expect(room.waitMs(1, 0)).toBe(0);
    room.note(1, 0);
    room.note(1, 1_000);
    expect(room.waitMs(1, 1_500)).toBe(0);
    room.note(1, 2_000);
    expect(room.waitMs(1, 2_500)).toBe(2_500);
    // Another post has its own room.
    expect(room.waitMs(2, 2_500)).toBe(0);
    // The first edit leaves the window at 5 s.
    expect(room.waitMs(1, 5_000)).toBe(0);
    room.note(1, 5_000);
    expect(room.waitMs(1, 5_500)).toBe(500);
    room.forget(1);
    expect(room.waitMs(1, 5_500)).toBe(0);
  });
});
