import { describe, expect, it } from 'vitest';
import { parseRequired } from './require.js';

describe('KIBITZ_REQUIRE', () => {
  it('is a comma-separated list of components, empty or unset for none', () => {
    expect(parseRequired(undefined)).toEqual({ ok: true, value: new Set() });
    expect(parseRequired(' ')).toEqual({ ok: true, value: new Set() });
    expect(parseRequired('chromium, Stockfish,postgres,fixtures')).toEqual({
      ok: true,
      value: new Set(['chromium', 'stockfish', 'postgres', 'fixtures']),
    });
  });

  it('refuses unknown names and overlong values, saying what it takes', () => {
    const unknown = parseRequired('chromium,chrome');
    expect(unknown).toEqual({
      ok: false,
      error:
        'KIBITZ_REQUIRE names "chrome"; it takes a comma-separated list of chromium, stockfish, postgres, fixtures',
    });
    expect(parseRequired('chromium,'.repeat(30))).toMatchObject({ ok: false, error: /at most 200/ });
  });
});
