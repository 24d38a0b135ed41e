// The per-game pace of thread lines, on a clock the test moves, and what a line may carry.
import { describe, expect, it } from 'vitest';
import type { Said } from '../../src/game/snapshot.js';
import {
  SAID_LINE_MAX,
  SAID_PER_WINDOW,
  SAID_WINDOW_MS,
  SaidThrottle,
  makeSaidLine,
} from '../../src/relay/said-lines.js';
import { ManualClock } from '../support/manual-clock.js';

const said = (text: string, handle = 'Carol'): Said => ({ ply: 1, handle, text, whisper: false });

function throttle() {
  const clock = new ManualClock();
  const sent: [string, string][] = [];
  const t = new SaidThrottle<string>(clock, (target, line) => sent.push([target, line]));
  return { clock, sent, t };
}

describe('thread lines of a game', () => {
  it(`send ${SAID_PER_WINDOW} per window at once and fold the rest into one line when the window ends`, async () => {
    const { clock, sent, t } = throttle();
    for (let i = 0; i < SAID_PER_WINDOW + 4; i++) t.offer('g1', said(`line ${i}`), 'thread-1');
    expect(sent).toHaveLength(SAID_PER_WINDOW);
    await clock.advance(SAID_WINDOW_MS - 1);
    expect(sent).toHaveLength(SAID_PER_WINDOW);
    await clock.advance(1);
    expect(sent.at(-1)).toEqual(['thread-1', '… and 4 more lines']);
    // The next window has room again (the folded line took one place of it).
    for (let i = 0; i < SAID_PER_WINDOW; i++) t.offer('g1', said(`again ${i}`), 'thread-1');
    expect(sent.filter(([, line]) => line.includes('again'))).toHaveLength(SAID_PER_WINDOW - 1);
  });

  it('pace each game on its own, and a game that ends sends what it folded at once', () => {
    const { sent, t } = throttle();
    for (let i = 0; i < SAID_PER_WINDOW + 1; i++) t.offer('g1', said(`a ${i}`), 'thread-1');
    t.offer('g2', said('b'), 'thread-2');
    expect(sent.filter(([target]) => target === 'thread-2')).toHaveLength(1);
    t.forget('g1');
    expect(sent.at(-1)).toEqual(['thread-1', '… and 1 more line']);
  });

  it('are inert and bounded whatever the text', () => {
    const line = makeSaidLine(said(`@here\n> quote ${'x'.repeat(5000)}`, 'Evil_Name'));
    expect(line.length).toBeLessThanOrEqual(SAID_LINE_MAX);
    expect(line).not.toContain('\n');
    expect(line).not.toMatch(/@here/);
    expect(line.startsWith('**Evil\\_Name** kibitzes: @\u200bhere \\> quote')).toBe(true);
  });
});
