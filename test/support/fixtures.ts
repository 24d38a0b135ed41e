// Access to the real transcripts under test/fixtures/fics (our own recordings, copied here) and to
// the freechess.org output from public test suites, which stays outside the repository.
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Chess } from 'chessops/chess';
import { makeFen } from 'chessops/fen';
import { parseUci } from 'chessops/util';

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

/** One server game of an adjourned game: plies [from, to] of the whole. */
interface Segment {
  server_game_number: number;
  plies: [number, number];
  server_end_reason: string;
  server_result: string;
  observers: TruthGame['observers'];
}

interface ExpectedGame extends Partial<TruthGame> {
  id: string;
  variant: string;
  result?: string;
  boards?: (TruthGame & { board: number })[];
  segments?: Segment[];
}

/** The FEN after the first `plies` moves of a game (UCI from the standard start). */
function fenAfter(uci: readonly string[], plies: number): string {
  const pos = Chess.default();
  for (const move of uci.slice(0, plies)) pos.play(parseUci(move)!);
  return makeFen(pos.toSetup());
}

/** A segment's truth is the game from ply 1 to its last ply, even for a late joiner. */
function segmentTruths(g: ExpectedGame): TruthGame[] {
  const whole = g as TruthGame;
  return g.segments!.map((seg, i) => ({
    ...whole,
    id: `${g.id}#${i}`,
    server_game_number: seg.server_game_number,
    san: whole.san.slice(0, seg.plies[1]),
    uci: whole.uci.slice(0, seg.plies[1]),
    fen_final: seg.plies[1] === whole.san.length ? whole.fen_final : fenAfter(whole.uci, seg.plies[1]),
    result: seg.server_result,
    server_end_reason: seg.server_end_reason,
    observers: seg.observers,
  }));
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
        g.segments !== undefined
          ? segmentTruths(g)
          : g.boards === undefined
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
