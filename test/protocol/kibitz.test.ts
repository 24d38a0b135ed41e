// Kibitzes and whispers: the real freechess.org lines from the shared fixtures (read at test time,
// never committed), then the bounds on what the parser takes.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeLine, ObserverDecoder } from '../../src/protocol/decode.js';
import { KIBITZ_TEXT_MAX } from '../../src/protocol/kibitz.js';
import { FREECHESS_FIXTURES } from '../support/fixtures.js';
import { describeWith, fixturesNeed } from '../support/require.js';

const BLOCK_SEPARATOR = String.fromCharCode(0x16);
const present = existsSync(FREECHESS_FIXTURES);
const files = present ? readdirSync(FREECHESS_FIXTURES).filter((f) => f.endsWith('.txt')) : [];

/** Every line of the fixtures that says `kibitzes:` or `whispers:` after a game number. */
function talkLines(): { file: string; line: string }[] {
  return files.flatMap((file) =>
    readFileSync(FREECHESS_FIXTURES + file, 'latin1')
      .split(/\n\r?|\r/)
      // A block reply's text starts after its last 0x16 separator.
      .map((line) =>
        line
          .split(BLOCK_SEPARATOR)
          .at(-1)!
          .replace(/^(fics% )+/, ''),
      )
      .filter((line) => /\]\s(kibitzes|whispers): /.test(line))
      .map((line) => ({ file, line })),
  );
}

describeWith(fixturesNeed())('kibitzes and whispers of freechess.org (shared fixtures)', () => {
  it('finds both kinds in the fixtures', () => {
    const lines = talkLines();
    expect(lines.length).toBeGreaterThanOrEqual(20);
    expect(lines.some((l) => l.line.includes('whispers:'))).toBe(true);
  });

  it('decodes every such line of every file as a kibitz of its game', () => {
    const all = talkLines();
    for (const file of files) {
      const decoder = new ObserverDecoder();
      const bytes = readFileSync(FREECHESS_FIXTURES + file);
      const said = [...decoder.push(bytes), ...decoder.end()].filter((e) => e.kind === 'kibitz');
      const expected = all.filter((l) => l.file === file);
      expect(said.length, file).toBe(expected.length);
      for (const [i, e] of said.entries()) {
        const game = Number(/\[(\d+)\]/.exec(expected[i]!.line)![1]);
        expect(e.game, expected[i]!.line).toBe(game);
        expect(expected[i]!.line).toContain(`${e.handle}(`);
      }
    }
  });

  it('reads titles, rating, kind and text as LectureBot, INDIANREAPER and LurKing send them', () => {
    const lines = talkLines().map((l) => l.line);
    const pick = (start: string) => decodeLine(lines.find((l) => l.startsWith(start))!);
    expect(pick('LectureBot(TD)(----)[1] kibitzes: Can you')).toEqual({
      kind: 'kibitz',
      game: 1,
      handle: 'LectureBot',
      titles: ['TD'],
      rating: '----',
      whisper: false,
      text: "Can you find Black's best move?",
    });
    expect(pick('INDIANREAPER(2215)[459]')).toMatchObject({
      handle: 'INDIANREAPER',
      titles: [],
      rating: '2215',
      game: 459,
      text: 'slip',
    });
    expect(pick('LurKing(C)(2442)[327]')).toMatchObject({
      handle: 'LurKing',
      titles: ['C'],
      whisper: true,
      text: 'ply=19; eval=+0.20; nps=7.1M; time=8.53;',
    });
  });
});

describe('kibitz bounds', () => {
  it('skips a handle longer than FICS allows, saying why', () => {
    const event = decodeLine(`${'A'.repeat(18)}(1500)[12] kibitzes: hello`);
    expect(event).toMatchObject({ kind: 'undecoded', lineKind: 'kibitz' });
    expect(decodeLine(`${'A'.repeat(17)}(1500)[12] kibitzes: hello`)).toMatchObject({ kind: 'kibitz' });
  });

  it(`cuts the text at ${KIBITZ_TEXT_MAX} characters`, () => {
    const event = decodeLine(`Someone(1500)[12] whispers: ${'x'.repeat(5000)}`);
    expect(event.kind === 'kibitz' && event.text.length).toBe(KIBITZ_TEXT_MAX);
  });

  it('leaves lines that only mention kibitzes alone, and refuses game number 0', () => {
    expect(decodeLine('You will not hear kibitzes.').kind).toBe('other');
    expect(decodeLine('Someone(1500)[0] kibitzes: hi').kind).toBe('other');
    expect(decodeLine('Someone(1500) [12] kibitzes: hi').kind).toBe('other');
  });
});
