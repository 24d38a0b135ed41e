import { describe, expect, it } from 'vitest';
import { parseGameTypes, parsePairings } from '../../src/club/rules.js';
import {
  clubGameType,
  decide,
  watchedHandles,
  type ClubRules,
  type GameFacts,
} from '../../src/game/club-rules.js';

const rules = (over: Partial<ClubRules> = {}): ClubRules => ({
  mode: 'all',
  ratedOnly: false,
  types: null,
  members: ['Alice', 'bob'],
  pairings: [],
  ...over,
});

const game = (white: string, black: string, over: Partial<GameFacts> = {}): GameFacts => ({
  white,
  black,
  rated: true,
  type: 'blitz',
  variant: 'chess',
  ...over,
});

describe('decide', () => {
  it('mode all: any game with a member, handles compared without case', () => {
    expect(decide(rules(), game('Xavier', 'ALICE'))).toBe('post');
    expect(decide(rules(), game('Bob', 'Xavier'))).toBe('post');
    expect(decide(rules(), game('Xavier', 'Yvonne'))).toBe('skip');
  });

  it('mode members: both players are members', () => {
    const members = rules({ mode: 'members' });
    expect(decide(members, game('Alice', 'Bob'))).toBe('post');
    expect(decide(members, game('Alice', 'Xavier'))).toBe('skip');
  });

  it('mode pairings: the listed pairings only, either colour, members or not', () => {
    const match = rules({
      mode: 'pairings',
      members: [],
      pairings: [
        { first: 'Alice', second: 'Xavier' },
        { first: 'Bob', second: 'Yvonne' },
      ],
    });
    expect(decide(match, game('Xavier', 'alice'))).toBe('post');
    expect(decide(match, game('Bob', 'Yvonne'))).toBe('post');
    expect(decide(match, game('Alice', 'Yvonne'))).toBe('skip');
    expect(decide(match, game('Alice', 'Bob'))).toBe('skip');
  });

  it('filters: rated only and types; undecided while the server has not said', () => {
    const strict = rules({ ratedOnly: true, types: ['blitz', 'crazyhouse', 'wild'] });
    expect(decide(strict, game('Alice', 'X'))).toBe('post');
    expect(decide(strict, game('Alice', 'X', { rated: false }))).toBe('skip');
    expect(decide(strict, game('Alice', 'X', { type: 'standard' }))).toBe('skip');
    expect(decide(strict, game('Alice', 'X', { type: 'crazyhouse', variant: 'crazyhouse' }))).toBe('post');
    expect(decide(strict, game('Alice', 'X', { type: 'wild/fr', variant: 'chess960' }))).toBe('post');
    expect(decide(strict, game('Alice', 'X', { rated: null }))).toBe('undecided');
    expect(decide(strict, game('Alice', 'X', { type: null }))).toBe('undecided');
    // A known refusal beats an unknown: no need to wait.
    expect(decide(strict, game('Alice', 'X', { rated: false, type: null }))).toBe('skip');
    // Players decide first: a stranger's game is not undecided.
    expect(decide(strict, game('Xavier', 'Y', { rated: null }))).toBe('skip');
  });
});

describe('clubGameType', () => {
  it('names variants, and normal chess by its time class', () => {
    expect(clubGameType({ type: 'lightning', variant: 'chess' })).toBe('lightning');
    expect(clubGameType({ type: 'blitz bughouse', variant: 'bughouse' })).toBe('bughouse');
    expect(clubGameType({ type: 'wild/4', variant: 'wild' })).toBe('wild');
    expect(clubGameType({ type: 'wild/fr', variant: 'chess960' })).toBe('wild');
    expect(clubGameType({ type: null, variant: 'chess' })).toBeNull();
    expect(clubGameType({ type: 'nonstandard', variant: 'chess' })).toBeNull();
  });
});

describe('parsePairings', () => {
  it('reads a match list with commas, semicolons, line breaks, "-" or "vs"', () => {
    expect(parsePairings(' Alice-Bob, Carol - Dave;Erin vs Frank\nGwen vs. Hal ')).toEqual({
      ok: true,
      value: [
        { first: 'Alice', second: 'Bob' },
        { first: 'Carol', second: 'Dave' },
        { first: 'Erin', second: 'Frank' },
        { first: 'Gwen', second: 'Hal' },
      ],
    });
    expect(parsePairings('none')).toEqual({ ok: true, value: [] });
  });

  it('says what is wrong with a bad list', () => {
    expect(parsePairings('Alice')).toEqual({
      ok: false,
      error: '"Alice" is not a pairing: write two FICS handles joined by "-", e.g. Alice-Bob, Carol-Dave.',
    });
    const bad = parsePairings('Alice-B0b');
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toMatch(/^In "Alice-B0b": "B0b" is not a FICS handle/);
    expect(parsePairings('Alice-alice')).toEqual({
      ok: false,
      error: '"Alice-alice" pairs Alice with themselves.',
    });
    expect(parsePairings('Alice-Bob, Carol-bob')).toEqual({
      ok: false,
      error: '"Carol-bob" names a player who is already in Alice-Bob: each player has one pairing.',
    });
    expect(parsePairings(' , ')).toEqual({
      ok: false,
      error: 'No pairings given: write them like Alice-Bob, Carol-Dave (or "none" to clear).',
    });
    // Nothing that is not a handle can reach FICS through a pairing.
    expect(parsePairings('Alice-Bob;quit').ok).toBe(false);
  });
});

describe('parseGameTypes', () => {
  it('reads types, "all" for none', () => {
    expect(parseGameTypes('Blitz, standard blitz')).toEqual({ ok: true, value: ['blitz', 'standard'] });
    expect(parseGameTypes('all')).toEqual({ ok: true, value: null });
    expect(parseGameTypes('blitz, chess960').ok).toBe(false);
  });
});

describe('watchedHandles', () => {
  it('is the members, plus both sides of each pairing in pairings mode, once each', () => {
    const pairings = [{ first: 'alice', second: 'Xavier' }];
    expect(watchedHandles({ mode: 'all', members: ['Alice', 'Bob'], pairings })).toEqual(['Alice', 'Bob']);
    expect(watchedHandles({ mode: 'pairings', members: ['Alice', 'Bob'], pairings })).toEqual([
      'Alice',
      'Bob',
      'Xavier',
    ]);
  });
});
