import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FicsInputError } from '../../src/fics/errors.js';
import {
  assertWireLine,
  parseGameNumber,
  parseHandle,
  parsePassword,
  storedHandles,
} from '../../src/fics/validate.js';

describe('parseGameNumber', () => {
  it.each([
    [1, 1],
    ['1', 1],
    ['463', 463],
    [999_999, 999_999],
    [1_000_001, 1_000_001],
    ['999999999', 999_999_999],
  ])('accepts %j', (input, value) => {
    expect(parseGameNumber(input)).toEqual({ ok: true, value });
  });

  it.each([
    0,
    -3,
    1.5,
    NaN,
    1_000_000_000,
    '1000000000',
    '0x1f',
    '',
    ' 12',
    '12 ',
    '+3',
    '1e3',
    '1; shout hi',
    '12\r\nquit',
    null,
    {},
  ])('refuses %j with a typed error that shows the input', (input) => {
    const result = parseGameNumber(input);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toBeInstanceOf(FicsInputError);
    expect(result.error.field).toBe('game');
    expect(result.error.message).toMatch(/is not a FICS game number/);
  });

  it('shows control characters in the message instead of sending them on', () => {
    const result = parseGameNumber('12\r\nquit');
    expect(!result.ok && result.error.message).toContain('"12\\r\\nquit"');
  });

  it('accepts exactly the strings of 1 to 9 digits naming 1..999999999', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 11 }), (text) => {
        const expected = /^[0-9]{1,9}$/.test(text) && Number(text) >= 1;
        expect(parseGameNumber(text).ok).toBe(expected);
      }),
    );
  });
});

describe('parseHandle', () => {
  it.each(['abc', 'GuestABCD', 'MagnusCarlsenXYZA', 'a'.repeat(17)])('accepts %j', (input) => {
    expect(parseHandle(input)).toEqual({ ok: true, value: input });
  });

  it.each(['ab', 'a'.repeat(18), 'foo\nshout hi', 'foo bar', 'foo;quit', 'Ünal', 'abc1', '', 42])(
    'refuses %j',
    (input) => {
      const result = parseHandle(input);
      expect(result.ok).toBe(false);
      expect(!result.ok && result.error.message).toMatch(/is not a FICS handle: handles are 3 to 17 letters/);
    },
  );

  it('accepts a string only when it is 3 to 17 ASCII letters', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), (text) => {
        expect(parseHandle(text).ok).toBe(/^[A-Za-z]{3,17}$/.test(text));
      }),
    );
  });
});

describe('parsePassword', () => {
  it('refuses line breaks and spaces without repeating the password', () => {
    const result = parsePassword('secret\nshout hi');
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.message).not.toContain('secret');
    expect(parsePassword('s3cr%t!').ok).toBe(true);
  });
});

describe('assertWireLine', () => {
  it('lets one printable line through and refuses anything that could end it', () => {
    expect(() => assertWireLine('observe 12')).not.toThrow();
    for (const bad of ['observe 12\nquit', 'x\r', '\u0015', '\u00ff', 'é']) {
      expect(() => assertWireLine(bad)).toThrow(FicsInputError);
    }
  });
});

describe('storedHandles', () => {
  it('keeps every stored handle as written and leaves out one that is not a handle', () => {
    expect(storedHandles(['Alice', 'bob', 'Carol;quit', '', 'DaveTheSeventeenX'])).toEqual([
      'Alice',
      'bob',
      'DaveTheSeventeenX',
    ]);
  });
});
