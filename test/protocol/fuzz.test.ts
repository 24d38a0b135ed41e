// Random and mutated lines never throw out of the decoders and never touch another game.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HEAVY_TEST_MS } from '../support/bounds.js';
import { GameTracker } from '../../src/game/tracker.js';
import { decodeLine, ObserverDecoder } from '../../src/protocol/decode.js';
import type { ServerEvent } from '../../src/protocol/events.js';
import { transcript } from '../support/fixtures.js';
import { gameId } from '../support/fics-values.js';

/** Game lines of a real FatICS transcript, prompts removed. */
const rawLines = transcript('fatics_takeback', 'obs_start.raw')
  .toString('latin1')
  .split(/\r?\n\r?/)
  .map((l) => l.replace(/^(fics% )+/, ''))
  .filter((l) => /^<(12|d1|b1|g1)>|^\{Game|^Game \d/.test(l));

const mutation = fc.oneof(
  fc.constant((l: string) => l.slice(0, Math.floor(l.length / 2))),
  fc.constant((l: string) => `${l} 99999999999999999999 extra`),
  fc.constant((l: string) => l.replace(/\d+/, '99999999999999999999999')),
  fc.constant((l: string) => l.replace(/ -?\d+ /, ' -1e309 ')),
  fc.constant((l: string) => l.replace(/[a-h][1-8]/, 'z9')),
  fc.constant((l: string) => l.split(' ').reverse().join(' ')),
  fc.constant((l: string) => l.replace(/ /g, '  ')),
);

describe('fuzz', () => {
  it('has real lines to mutate', () => {
    expect(rawLines.length).toBeGreaterThan(50);
  });

  it('decodeLine never throws on random text or garbage bytes', { timeout: HEAVY_TEST_MS }, () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.string({ unit: 'binary' })),
        fc.constantFrom('', '<12> ', '<d1> ', '<b1> game 1 ', '<g1> 1 ', '{Game 1 (a vs. b) ', 'Game 1: '),
        (text, prefix) => {
          const event = decodeLine(prefix + text);
          expect(typeof event.kind).toBe('string');
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('mutated real lines decode or are reported, and the byte decoder survives any chunking of garbage', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...rawLines),
        mutation,
        fc.uint8Array({ maxLength: 64 }),
        (line, mutate, noise) => {
          const mutated = mutate(line);
          const event = decodeLine(mutated);
          if (event.kind === 'undecoded') expect(event.reason.length).toBeGreaterThan(0);
          const decoder = new ObserverDecoder();
          expect(() => [
            ...decoder.push(noise),
            ...decoder.push(Buffer.from(mutated + '\r\n')),
            ...decoder.end(),
          ]).not.toThrow();
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('garbage aimed at one game never corrupts another game', { timeout: HEAVY_TEST_MS }, () => {
    const all = (() => {
      const decoder = new ObserverDecoder();
      return [...decoder.push(transcript('fatics_takeback', 'obs_start.raw')), ...decoder.end()].filter(
        (e): e is ServerEvent => e.kind !== 'reply',
      );
    })();
    const clean = new GameTracker();
    for (const e of all) clean.apply(e);
    const expected = clean.games().map((g) => ({ san: g.san, fen: g.fen }));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(all.length), fc.constantFrom(...rawLines), mutation), { maxLength: 20 }),
        (inserts) => {
          const tracker = new GameTracker();
          const stream = [...all];
          for (const [at, line, mutate] of inserts.sort((a, b) => b[0] - a[0])) {
            // Aim the mutated line at a game nobody observes here.
            stream.splice(at, 0, decodeLine(mutate(line).replace(/\b16\b/g, '77')));
          }
          // A throw fails the property (fast-check reports it with the inserts that caused it).
          for (const e of stream) tracker.apply(e);
          const game16 = tracker.snapshot(gameId(16));
          expect({ san: game16!.san, fen: game16!.fen }).toEqual(expected[0]);
        },
      ),
      { numRuns: 300 },
    );
  });
});
