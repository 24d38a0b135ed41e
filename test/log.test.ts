import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createLogger, logUnhandledRejections, makeReadableLine, scrubbing } from '../src/log.js';

const TOKEN = 'MTIz.secret-token.xyz';

function capture(): { lines: string[]; write(line: string): void } {
  const lines: string[] = [];
  return { lines, write: (line: string) => void lines.push(line) };
}

describe('createLogger', () => {
  it('redacts secret-bearing fields by path', () => {
    const out = capture();
    const logger = createLogger({ level: 'info', destination: out });
    logger.info(
      {
        config: { discord: { token: 'abc-token-123' } },
        headers: { authorization: 'Bot abc' },
        password: 'pw1',
      },
      'hi',
    );
    const line = out.lines.join('');
    expect(line).not.toContain('abc-token-123');
    expect(line).not.toContain('Bot abc');
    expect(line).not.toContain('pw1');
    expect(JSON.parse(line)).toMatchObject({
      msg: 'hi',
      password: '[redacted]',
      config: { discord: { token: '[redacted]' } },
    });
  });

  it('scrubs the secret strings wherever they appear, including error messages', () => {
    const out = capture();
    const logger = createLogger({ level: 'debug', secrets: [TOKEN, 'pa"ss'], destination: out });
    logger.error({ err: new Error(`login with ${TOKEN} failed`) }, `token was ${TOKEN}`);
    logger.debug({ note: 'quote pa"ss inside' }, 'escaped');
    const text = out.lines.join('');
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain('pa\\"ss');
    expect(text.match(/\[redacted\]/g)?.length).toBeGreaterThanOrEqual(4);
    expect(out.lines.map((l) => (JSON.parse(l) as { msg: string }).msg)).toEqual([
      'token was [redacted]',
      'escaped',
    ]);
  });

  it('honours the level', () => {
    const out = capture();
    createLogger({ level: 'warn', destination: out }).info('quiet');
    expect(out.lines).toEqual([]);
  });

  it('scrubbing() passes other text through unchanged', () => {
    const out = capture();
    scrubbing(out, ['s3cret']).write('nothing to hide\n');
    expect(out.lines).toEqual(['nothing to hide\n']);
  });
});

describe('logUnhandledRejections', () => {
  it('logs a rejection instead of crashing, and can be removed', () => {
    const out = capture();
    const target = new EventEmitter();
    const remove = logUnhandledRejections(createLogger({ level: 'info', destination: out }), target);
    target.emit('unhandledRejection', new Error('forgotten await'), Promise.resolve());
    expect(JSON.parse(out.lines[0] ?? '{}')).toMatchObject({
      level: 50,
      msg: 'unhandled promise rejection',
      err: { message: 'forgotten await' },
    });
    remove();
    expect(target.listenerCount('unhandledRejection')).toBe(0);
  });
});

describe('makeReadableLine', () => {
  it('writes a JSON log line as time, level, message and the other fields', () => {
    const line = JSON.stringify({
      level: 40,
      time: Date.UTC(2026, 10, 27, 12, 4, 5, 120),
      name: 'kibitz',
      connection: 'fics#1',
      retryInMs: 2000,
      msg: 'FICS login failed; trying again in 2.0 s',
    });
    expect(makeReadableLine(`${line}\n`)).toBe(
      '12:04:05.120 WARN  FICS login failed; trying again in 2.0 s connection="fics#1" retryInMs=2000\n',
    );
  });

  it('keeps a line that is not a JSON object as it is', () => {
    expect(makeReadableLine('plain text\n')).toBe('plain text\n');
    expect(makeReadableLine('[1,2]\n')).toBe('[1,2]\n');
  });
});
