// What a live post says as a chess player expects it: the time control as `10+5`, the result at
// the end of the title, and how the game stands (for the embed's colour).
import { describe, expect, it } from 'vitest';
import { decodeTranscript } from '../../src/game/transcript.js';
import type { GameSnapshot } from '../../src/game/snapshot.js';
import { liveMessage, outcomeOf } from '../../src/relay/message.js';
import { transcript } from '../support/fixtures.js';

const image = { name: 'board.png', data: Buffer.alloc(0) };

function aGame(): GameSnapshot {
  const { games } = decodeTranscript(transcript('fatics_takeback', 'obs_start.raw'));
  return games.find((g) => g.san.length > 0)!;
}

describe('a live post', () => {
  it('writes the time control as 10+5', () => {
    const message = liveMessage({ ...aGame(), initialMinutes: 10, incrementSec: 5 }, image);
    expect(message.lines[0]).toMatch(/ 10\+5$/);
  });

  it('has no result in its title while live, and the result at its end', () => {
    const game = { ...aGame(), ended: false, result: '*' as const };
    const live = liveMessage(game, image);
    expect(live.outcome).toBe('live');
    expect(live.title).not.toMatch(/·/);
    const cases = [
      ['1-0', 'white', / · 1-0$/],
      ['0-1', 'black', / · 0-1$/],
      ['1/2-1/2', 'draw', / · ½-½$/],
    ] as const;
    for (const [result, outcome, title] of cases) {
      const ended = liveMessage({ ...game, ended: true, result, reason: 'by agreement' }, image);
      expect(ended.outcome).toBe(outcome);
      expect(ended.title).toMatch(title);
      expect(ended.title.startsWith(live.title)).toBe(true);
    }
    // Stopped or aborted: no result to give.
    expect(outcomeOf({ ended: true, result: '*' })).toBe('unknown');
    expect(liveMessage({ ...game, ended: true }, image).title).toBe(live.title);
  });
});
