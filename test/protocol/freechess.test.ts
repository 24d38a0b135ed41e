// Real freechess.org output from other clients' public test suites. That data may be read but not
// committed here, so it is read from the shared fixtures beside the repository when they exist
// (they do in CI), and these tests are skipped, visibly, where they do not (or fail, where
// KIBITZ_REQUIRE lists the fixtures).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { ObserverDecoder } from '../../src/protocol/decode.js';
import { FREECHESS_FIXTURES } from '../support/fixtures.js';
import { describeWith, fixturesNeed } from '../support/require.js';

const present = existsSync(FREECHESS_FIXTURES);

const cases = present ? readdirSync(FREECHESS_FIXTURES).filter((f) => f.endsWith('.txt')) : [];

/** `<12>` lines with the 33 fields of freechess.org, apart from test authors' synthetic ones. */
function realStyle12Lines(text: string): string[] {
  return text
    .split(/\n\r?|\r/)
    .map((line) => line.replace(/^(fics% )+/, ''))
    .filter((line) => line.startsWith('<12> ') && !line.includes('nameWhite'))
    .filter((line) => line.trim().split(/\s+/).length === 33);
}

describeWith(fixturesNeed())('real freechess.org output (shared fixtures)', () => {
  it('has cases to read', () => {
    expect(cases.length).toBeGreaterThan(50);
  });

  it.each(cases)('%s: decodes every real <12> line as a board of its game', (file) => {
    const bytes = readFileSync(FREECHESS_FIXTURES + file);
    const decoder = new ObserverDecoder();
    const events = [...decoder.push(bytes), ...decoder.end()];
    const boards = events.filter((e) => e.kind === 'style12');
    const expected = realStyle12Lines(bytes.toString('latin1'));
    for (const line of expected) {
      const game = Number(line.split(/\s+/)[16]);
      expect(
        boards.some((b) => b.game === game),
        `${file}: no board of game ${game} from ${line.slice(0, 60)}`,
      ).toBe(true);
    }
    expect(boards.length).toBeGreaterThanOrEqual(expected.length);
  });
});
