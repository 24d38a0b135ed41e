import { Chess } from 'chessops/chess';
import { parseFen } from 'chessops/fen';
import { parseSan } from 'chessops/san';
import { describe, expect, it } from 'vitest';
import { makeChessLive } from '../../src/chesslive/index.js';
import { GAMES_LIST_TYPES } from '../../src/fics/games-list.js';
import { CLUB_GAME_TYPES } from '../../src/game/club-rules.js';
import { makeSnapshotPgn } from '../../src/game/pgn.js';
import { FICS_GAME_TYPES } from '../../src/game/variants.js';
import { GameTracker } from '../../src/game/tracker.js';
import { ObserverDecoder } from '../../src/protocol/decode.js';
import type { ServerEvent } from '../../src/protocol/events.js';
import { style12Line } from '../support/boards.js';
import {
  fitsMoveFile,
  gameTypeLabel,
  parsePgnVariant,
  pgnVariantHeader,
  rulesFor,
  variantFromType,
} from '../../src/game/variants.js';
import { gameId } from '../support/fics-values.js';

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

describe('a FICS wild/fr game', () => {
  it('is chess960 from its header on, and its snapshot is written as it is', () => {
    const start = Chess.fromSetup(
      parseFen('rbbqnkrn/pppppppp/8/8/8/8/PPPPPPPP/RBBQNKRN w KQkq - 0 1').unwrap(),
    ).unwrap();
    const players = { game: 77, white: 'GuestA', black: 'GuestB' };
    const after = start.clone();
    after.play(parseSan(after, 'e4')!);
    const tracker = new GameTracker();
    const decoder = new ObserverDecoder();
    for (const event of decoder.lines([
      'Game 77: GuestA (++++) GuestB (++++) unrated wild/fr 3 0',
      style12Line(start, { ...players, ply: 0 }),
      style12Line(after, { ...players, ply: 1, san: 'e4', verbose: 'P/e2-e4' }),
    ]) as ServerEvent[])
      tracker.apply(event);
    const snap = tracker.snapshot(gameId(77))!;
    expect(snap).toMatchObject({ variant: 'chess960', type: 'wild/fr', san: ['e4'], complete: true });
    expect(makeSnapshotPgn(snap)).toContain('[Variant "Chess960"]');
    expect(makeChessLive(snap)).toEqual({ ok: true, value: 'GuestA;GuestB;e2:e4/0/0/300/' });
  });
});

describe('a server game type, in one spelling', () => {
  it.each([
    ['Lighting', 'chess', 'lightning'],
    ['Blitz', 'chess', 'blitz'],
    ['Standard', 'chess', 'standard'],
    // The FICS 1.6.2 lineage's type for a bughouse board: the variant table names it.
    ['Wild', 'bughouse', 'bughouse'],
    ['blitz bughouse', 'bughouse', 'blitz bughouse'],
    ['lightning crazyhouse', 'crazyhouse', 'lightning crazyhouse'],
    ['Crazyhouse', 'crazyhouse', 'crazyhouse'],
    ['wild/fr', 'chess960', 'wild/fr'],
    ['wild/5', 'wild', 'wild/5'],
  ] as const)('%s (%s) reads "%s"', (type, variant, label) => {
    expect(gameTypeLabel(type, variant)).toBe(label);
  });

  it('is what a snapshot carries: "Lighting" from a header becomes "lightning"', () => {
    const players = { game: 5, white: 'GuestA', black: 'GuestB' };
    const tracker = new GameTracker();
    for (const event of new ObserverDecoder().lines([
      'Game 5: GuestA (++++) GuestB (++++) unrated Lighting 1 0',
      style12Line(Chess.default(), { ...players, ply: 0 }),
    ]) as ServerEvent[])
      tracker.apply(event);
    expect(tracker.snapshot(gameId(5))).toMatchObject({ variant: 'chess', type: 'lightning' });
  });
});

describe('FICS game types', () => {
  it('come from the variants table: time classes, then the variants FICS names, chess960 a wild type', () => {
    expect(FICS_GAME_TYPES).toEqual([
      'lightning',
      'blitz',
      'standard',
      'untimed',
      'wild',
      'crazyhouse',
      'bughouse',
      'suicide',
      'atomic',
      'losers',
    ]);
    // What a club filters on and what /games lists are the same words.
    expect(CLUB_GAME_TYPES).toBe(FICS_GAME_TYPES);
    expect(FICS_GAME_TYPES.every((t) => (GAMES_LIST_TYPES as readonly string[]).includes(t))).toBe(true);
  });
});
