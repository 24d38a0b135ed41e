// The real transcripts decode to exactly the moves, final position and result of their truth files.
import { describe, expect, it } from 'vitest';
import { main as decodeMain } from '../../src/cli/decode.js';
import { decodeTranscript } from '../../src/game/transcript.js';
import type { GameSnapshot } from '../../src/game/snapshot.js';
import { ObserverDecoder } from '../../src/protocol/decode.js';
import { runMain, runProcess } from '../support/cli.js';
import { FICS_FIXTURES, scenarios, transcript, type Scenario, type TruthGame } from '../support/fixtures.js';

/** Pairs each truth game seen by an observer with the decoded entry (number + players + order). */
function pair(
  truths: TruthGame[],
  file: string,
  games: GameSnapshot[],
): [TruthGame, GameSnapshot | undefined][] {
  const used = new Set<number>();
  return truths
    .filter((t) => t.observers[file] !== undefined)
    .map((t) => {
      const i = games.findIndex(
        (g, k) =>
          !used.has(k) && g.game === t.server_game_number && g.white === t.white && g.black === t.black,
      );
      used.add(i);
      return [t, games[i]];
    });
}

/** The hands of each game's last `<b1>` line, per game number, in the order the games ended. */
function serverHands(bytes: Buffer): Map<number, string[]> {
  const decoder = new ObserverDecoder();
  const hands = new Map<number, string[]>();
  const last = new Map<number, string>();
  for (const event of [...decoder.push(bytes), ...decoder.end()]) {
    if (event.kind === 'holdings') {
      last.set(event.game, event.holdings.white + event.holdings.black.toLowerCase());
    } else if (event.kind === 'gameEnd' && last.has(event.game)) {
      hands.set(event.game, [...(hands.get(event.game) ?? []), last.get(event.game)!]);
      last.delete(event.game);
    }
  }
  return hands;
}

const sorted = (s: string): string => [...s].sort().join('');

/**
 * The truth FEN, except where the bytes cannot tell it: lasker passes a phantom piece to a
 * bughouse board when its partner board castles, and only the partner board's castle shows it
 * is one. An observer of one board sees the server's hands.
 */
function reachableFen(
  truth: TruthGame,
  scenario: Scenario,
  file: string,
  hands: string[] | undefined,
): string {
  const board = /^(.*)\/(\d)$/.exec(truth.id);
  if (board === null) return truth.fen_final;
  const partner = scenario.truths.find((t) => t.id === `${board[1]}/${1 - Number(board[2])}`);
  if (partner?.observers[file] !== undefined) return truth.fen_final;
  const order = scenario.truths
    .filter((t) => t.observers[file] !== undefined && t.server_game_number === truth.server_game_number)
    .indexOf(truth);
  const server = hands?.[order];
  const pockets = /\[(.*)\]/.exec(truth.fen_final)![1]!;
  if (server === undefined || sorted(server) === sorted(pockets)) return truth.fen_final;
  return truth.fen_final.replace(`[${pockets}]`, `[${sorted(server)}]`);
}

for (const scenario of scenarios()) {
  describe(`${scenario.name} (${scenario.server})`, () => {
    for (const file of scenario.observerFiles) {
      it(`${file}: every game complete from ply 1, final position and result`, () => {
        const bytes = transcript(scenario.name, file);
        const { games, undecoded } = decodeTranscript(bytes);
        expect(undecoded).toEqual([]);
        const pairs = pair(scenario.truths, file, games);
        expect(pairs.length).toBeGreaterThan(0);
        const hands = serverHands(bytes);
        for (const [truth, game] of pairs) {
          const label = `${truth.id} game ${truth.server_game_number}`;
          expect(game, label).toBeDefined();
          expect(game!.san, label).toEqual(truth.san);
          expect(game!.uci, label).toEqual(truth.uci);
          // Recognised whatever the server said of it (lasker names no variant to a first-move observer).
          expect(game!.variant, label).toBe(truth.variant);
          const fen = reachableFen(truth, scenario, file, hands.get(truth.server_game_number));
          if (fen === truth.fen_final) expect(game!.fen, label).toBe(fen);
          else
            expect(
              game!.fen.replace(/\[(.*)\]/, (_, p: string) => `[${sorted(p)}]`),
              label,
            ).toBe(fen);
          expect(game!.result, label).toBe(truth.result);
          expect(game!.reason, label).toBe(truth.server_end_reason);
          expect(game!.complete, label).toBe(true);
        }
      });
    }
  });
}

describe('read in any split', () => {
  it('gives the same games whether the bytes come whole, one at a time or in odd chunks', () => {
    for (const [scenario, file] of [
      ['fatics_takeback', 'obs_blockwrap.raw'],
      ['lasker_crazyhouse', 'obs_late.raw'],
      ['fatics_bughouse', 'obs_block.raw'],
      ['lasker_bughouse_b', 'obs_both.raw'],
      ['lasker_adjourn_b', 'obs_start.raw'],
    ] as const) {
      const bytes = transcript(scenario, file);
      const whole = decodeTranscript(bytes, bytes.length).games;
      expect(decodeTranscript(bytes, 1).games).toEqual(whole);
      expect(decodeTranscript(bytes, 13).games).toEqual(whole);
    }
  });
});

/** The JSON lines `npm run decode` printed. */
const jsonLines = (stdout: string): Record<string, unknown>[] =>
  stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

// `main` in this process for most runs (a node process with tsx costs seconds); once as a real
// process, as npm runs it (the others' --help: test/cli/help.test.ts).
describe('npm run decode', () => {
  it('prints one JSON line per game with the truth moves, in first-seen order (a real process)', () => {
    // A bound on a loaded machine (a tsx start took over 15 s at load 20), not a speed check.
    const run = runProcess('decode', [`${FICS_FIXTURES}fatics_takeback/obs_late.raw`], 45_000);
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    const lines = jsonLines(run.stdout);
    const truths = scenarios().find((s) => s.name === 'fatics_takeback')!.truths;
    expect(lines.map((l) => l.game)).toEqual(truths.map((t) => t.server_game_number));
    lines.forEach((line, i) => {
      expect(line).toMatchObject({
        white: truths[i]!.white,
        black: truths[i]!.black,
        variant: 'chess',
        san: truths[i]!.san,
        uci: truths[i]!.uci,
        fen: truths[i]!.fen_final,
        result: truths[i]!.result,
        reason: truths[i]!.server_end_reason,
        undecoded: 0,
      });
      expect(typeof line.whiteClockMs).toBe('number');
      expect(typeof line.blackClockMs).toBe('number');
    });
  });

  for (const [name, file] of [
    ['lasker_adjourn_b', 'obs_start.raw'],
    ['fatics_adjourn_b', 'obs_block.raw'],
    ['lasker_bughouse_b', 'obs_both.raw'],
  ] as const) {
    it(`prints adjourned games whole and both bughouse boards paired (${name}/${file})`, () => {
      const run = runMain(decodeMain, [`${FICS_FIXTURES}${name}/${file}`]);
      expect(run.status).toBe(0);
      const lines = jsonLines(run.stdout);
      const truths = scenarios()
        .find((s) => s.name === name)!
        .truths.filter((t) => t.observers[file] !== undefined);
      expect(lines).toHaveLength(truths.length);
      for (const truth of truths) {
        const line = lines.find(
          (l) => l.game === truth.server_game_number && JSON.stringify(l.san) === JSON.stringify(truth.san),
        );
        expect(line, truth.id).toMatchObject({
          variant: truth.variant,
          uci: truth.uci,
          fen: truth.fen_final,
          result: truth.result,
          complete: true,
          undecoded: 0,
        });
        if (truth.variant === 'bughouse')
          expect(line!.partnerGame, truth.id).toBe(3 - truth.server_game_number);
      }
    });
  }

  it('says what is wrong when the file cannot be read', () => {
    expect(runMain(decodeMain, ['/nonexistent/x.raw'])).toEqual({
      status: 1,
      stdout: '',
      stderr: 'decode: cannot read /nonexistent/x.raw: ENOENT\n',
    });
  });
});
