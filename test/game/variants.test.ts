import { describe, expect, it } from 'vitest';
import {
  fitsMoveFile,
  parsePgnVariant,
  pgnVariantHeader,
  rulesFor,
  variantFromType,
} from '../../src/game/variants.js';

describe('variants', () => {
  it('name a FICS game type once: wild/fr is chess960, other wild types stay wild', () => {
    expect(variantFromType('wild/fr')).toBe('chess960');
    expect(variantFromType('rated wild/fr')).toBe('chess960');
    expect(variantFromType('wild/4')).toBe('wild');
    expect(variantFromType('blitz bughouse')).toBe('bughouse');
    expect(variantFromType('zh')).toBe('crazyhouse');
    expect(variantFromType('blitz')).toBe('chess');
  });

  it('give chess960 standard rules, its PGN header, and a place in move files', () => {
    expect(rulesFor('chess960')).toBe('chess');
    expect(pgnVariantHeader('chess960')).toBe('Chess960');
    expect(parsePgnVariant('Fischer Random')).toBe('chess960');
    expect(fitsMoveFile('chess960')).toBe(true);
    expect(fitsMoveFile('wild')).toBe(true);
    expect(fitsMoveFile('atomic')).toBe(false);
  });
});
