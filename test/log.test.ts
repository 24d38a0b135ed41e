import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createLogger, logUnhandledRejections, scrubbing } from '../src/log.js';

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
