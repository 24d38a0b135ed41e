import { describe, expect, it } from 'vitest';
import { countsAsInvalid, RestGovernor } from '../../src/discord/governor.js';
import { createLogger } from '../../src/log.js';

function governor(options: { burst?: number; budget?: number } = {}) {
  let now = 1_000_000;
  const lines: { level: number; msg: string }[] = [];
  const logger = createLogger({
    level: 'info',
    destination: {
      write: (line: string) => void lines.push(JSON.parse(line) as { level: number; msg: string }),
    },
  });
  const g = new RestGovernor({ logger, now: () => now, ...options });
  return { g, lines, advance: (ms: number) => (now += ms) };
}

const ok = { status: 200, scope: null, retryAfter: null };
const blocked = { status: 429, scope: null, retryAfter: null };

describe('RestGovernor', () => {
  it('counts what Discord counts toward its ban: 401, 403 and 429 except of a shared bucket', () => {
    expect(countsAsInvalid({ status: 401, scope: null, retryAfter: null })).toBe(true);
    expect(countsAsInvalid({ status: 403, scope: null, retryAfter: null })).toBe(true);
    expect(countsAsInvalid({ status: 429, scope: 'user', retryAfter: '1' })).toBe(true);
    expect(countsAsInvalid({ status: 429, scope: 'shared', retryAfter: '1' })).toBe(false);
    expect(countsAsInvalid({ status: 404, scope: null, retryAfter: null })).toBe(false);
    expect(countsAsInvalid(ok)).toBe(false);
  });

  it('pauses on a 429 without a wait, doubling while it lasts, warning once, and resumes by itself', () => {
    const { g, lines, advance } = governor();
    expect(g.pausedForMs()).toBe(0);
    g.record(blocked);
    expect(g.pausedForMs()).toBe(1_000);
    // An answer to a request sent before the pause does not lengthen it.
    g.record(blocked);
    expect(g.pausedForMs()).toBe(1_000);
    advance(1_000);
    g.record(blocked);
    expect(g.pausedForMs()).toBe(2_000);
    advance(2_000);
    g.record(blocked);
    expect(g.pausedForMs()).toBe(4_000);
    expect(lines.filter((l) => l.level === 40)).toHaveLength(1);
    expect(g.figures()).toMatchObject({ invalid: 4, headerless429: 4, pauses: 3 });
    advance(4_000);
    g.record(ok);
    expect(lines.at(-1)?.msg).toMatch(/resumed/);
    // The trouble over, the next pause starts short again.
    g.record(blocked);
    expect(g.pausedForMs()).toBe(1_000);
  });

  it('pauses on a burst of invalid answers, and before a tenth of Discord’s 10,000 per 10 minutes', () => {
    const burst = governor({ burst: 20 });
    for (let i = 0; i < 19; i++) burst.g.record({ status: 403, scope: null, retryAfter: null });
    expect(burst.g.pausedForMs()).toBe(0);
    burst.g.record({ status: 403, scope: null, retryAfter: null });
    expect(burst.g.pausedForMs()).toBe(1_000);

    const slow = governor({ burst: 1_000_000 });
    for (let i = 0; i < 999; i++) {
      slow.g.record({ status: 429, scope: 'user', retryAfter: '0.5' });
      slow.advance(500);
    }
    expect(slow.g.pausedForMs()).toBe(0);
    slow.g.record({ status: 429, scope: 'user', retryAfter: '0.5' });
    expect(slow.g.pausedForMs()).toBe(1_000);
    expect(slow.g.figures().invalid).toBe(1_000);
  });
});

describe('RestGovernor after a pause', () => {
  it('lets one edit at a time try Discord until it answers normally again', () => {
    const { g, advance } = governor();
    expect(g.admit()).toBe(0);
    expect(g.admit()).toBe(0);
    g.record(blocked);
    expect(g.admit()).toBe(1_000);
    advance(1_000);
    // The pause is over but the trouble may not be: the first edit goes, the others wait.
    expect(g.admit()).toBe(0);
    expect(g.admit()).toBe(1_000);
    advance(500);
    expect(g.admit()).toBe(500);
    g.record(ok);
    expect(g.admit()).toBe(0);
    expect(g.admit()).toBe(0);
  });
});
