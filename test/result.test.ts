import { describe, expect, it } from 'vitest';
import { err, errorMessage, ok } from '../src/result.js';

describe('Result', () => {
  it('wraps values and errors', () => {
    expect(ok(3)).toEqual({ ok: true, value: 3 });
    expect(err('bad')).toEqual({ ok: false, error: 'bad' });
  });

  it('errorMessage reads an Error, and anything else thrown, as text', () => {
    expect(errorMessage(new RangeError('out of range'))).toBe('out of range');
    expect(errorMessage('plain')).toBe('plain');
    expect(errorMessage(42)).toBe('42');
  });
});
