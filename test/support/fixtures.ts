// Access to the real transcripts under test/fixtures/fics (our own recordings, copied here) and to
// the freechess.org output from public test suites, which stays outside the repository.
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const FICS_FIXTURES = fileURLToPath(new URL('../fixtures/fics/', import.meta.url));
export const FREECHESS_FIXTURES = fileURLToPath(
  new URL('../../../shared/fixtures/freechess/', import.meta.url),
);

/** One game (or one bughouse board) of an expected.json, as the tests compare it. */
export interface TruthGame {
  id: string;
  server_game_number: number;
  white: string;
  black: string;
  variant: string;
  san: string[];
  uci: string[];
  fen_final: string;
  result: string;
  server_end_reason: string;
  observers: Record<string, { first_ply_seen: number; moves_cmd?: string }>;
}

export interface Scenario {
  name: string;
  server: string;
  observerFiles: string[];
  truths: TruthGame[];
}

interface ExpectedGame extends Partial<TruthGame> {
  id: string;
  variant: string;
  result?: string;
  boards?: (TruthGame & { board: number })[];
}

export function scenarios(): Scenario[] {
  return readdirSync(FICS_FIXTURES, { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name !== 'extra-captures')
    .map((d) => {
      const expected = JSON.parse(readFileSync(`${FICS_FIXTURES}${d.name}/expected.json`, 'utf8')) as {
        server: string;
        observers: Record<string, unknown>;
        games: ExpectedGame[];
      };
      const truths = expected.games.flatMap((g): TruthGame[] =>
        g.boards === undefined
          ? [g as TruthGame]
          : g.boards.map((b) => ({ ...b, id: `${g.id}/${b.board}`, variant: g.variant })),
      );
      return {
        name: d.name,
        server: expected.server,
        observerFiles: Object.keys(expected.observers),
        truths,
      };
    });
}

export function transcript(scenario: string, file: string): Buffer {
  return readFileSync(`${FICS_FIXTURES}${scenario}/${file}`);
}

/** Every raw capture, including the short ones without truth files. */
export function allTranscripts(): { name: string; bytes: Buffer }[] {
  const out: { name: string; bytes: Buffer }[] = [];
  const walk = (dir: string, prefix: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(`${dir}${entry.name}/`, `${prefix}${entry.name}/`);
      else if (entry.name.endsWith('.raw'))
        out.push({ name: prefix + entry.name, bytes: readFileSync(dir + entry.name) });
    }
  };
  walk(FICS_FIXTURES, '');
  return out;
}
