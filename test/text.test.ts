import { describe, expect, it } from 'vitest';
import { cleanText, truncate } from '../src/text.js';

describe('cleanText', () => {
  it('turns line breaks, tabs and escapes into single spaces and trims', () => {
    expect(cleanText(' Magnus\r\n[Event "x"]\t\u001b[31m ')).toBe('Magnus [Event "x"] [31m');
    expect(cleanText('a\u2028b\u0085c')).toBe('a b c');
  });

  it('keeps ordinary text, accents and emoji as they are', () => {
    expect(cleanText('Café ♞ 😀')).toBe('Café ♞ 😀');
  });
});

describe('truncate', () => {
  it('leaves text within the limit alone', () => {
    expect(truncate('abc', 3)).toBe('abc');
  });

  it('cuts to exactly the limit, ending in an ellipsis', () => {
    const cut = truncate('x'.repeat(300), 256);
    expect(cut).toHaveLength(256);
    expect(cut.endsWith('…')).toBe(true);
  });

  it('never leaves half of a surrogate pair', () => {
    const cut = truncate('ab😀cd', 4);
    expect(cut).toBe('ab…');
    expect(cut.length).toBeLessThanOrEqual(4);
  });
});
