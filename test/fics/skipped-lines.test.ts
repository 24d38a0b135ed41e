// Skipped server lines reach the log shortened and rate-limited, with a count of the rest.
import { describe, expect, it } from 'vitest';
import { SkippedLineLog } from '../../src/fics/logger.js';
import { FakeClock } from '../fake-fics/clock.js';
import { RecordingLogger } from './harness.js';

describe('SkippedLineLog', () => {
  it('logs a huge line as its kind, length and first characters, on one line', () => {
    const logger = new RecordingLogger();
    const log = new SkippedLineLog(logger, new FakeClock());
    const line = `<12> ${'\u0001\n'.repeat(512 * 1024)}`;
    log.skipped({ from: 'fics#1', kind: 'style12', reason: `bad rank "${line}"`, line });
    expect(logger.records).toHaveLength(1);
    const { fields } = logger.records[0]!;
    expect(fields).toMatchObject({ from: 'fics#1', kind: 'style12', length: line.length });
    expect(fields.start).toBe('<12>');
    expect(JSON.stringify(fields).length).toBeLessThan(600);
    expect(JSON.stringify(fields)).not.toMatch(/\\n|\\u0001/);
  });

  it('logs at most a burst per window and the count of the rest when the window ends', () => {
    const logger = new RecordingLogger();
    const clock = new FakeClock();
    const log = new SkippedLineLog(logger, clock, { burst: 3, windowMs: 1_000 });
    const skip = (): void => log.skipped({ from: 'fics#1', kind: 'delta', reason: 'bad', line: '<d1> x' });
    for (let i = 0; i < 10; i++) skip();
    expect(logger.records).toHaveLength(3);
    clock.advance(999);
    skip();
    expect(logger.records).toHaveLength(3);
    clock.advance(1);
    expect(logger.records.at(-1)?.fields).toEqual({ from: 'fics#1', suppressed: 8, windowMs: 1_000 });
    skip();
    skip();
    expect(logger.records.map((r) => r.fields.suppressed ?? r.fields.kind)).toEqual([
      'delta',
      'delta',
      'delta',
      8,
      'delta',
      'delta',
    ]);
    // Nothing was left uncounted: no report waits.
    expect(clock.pending).toBe(0);
  });
});
