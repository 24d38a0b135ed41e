// npm run fuzz at the scale of a test: a few thousand generated and mutated inputs per target and a
// few dozen random slash commands through the real bot. No exception may escape, no game's state
// may break, no command may go unanswered or reach FICS unchecked.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fuzzCommands } from './fuzz-commands.js';
import { chessLiveCorpus, ficsCorpus } from './fuzz-inputs.js';
import { badSnapshot, eventsOf, fuzzTargets, type Finding } from './fuzz-targets.js';
import { transcript } from '../support/fixtures.js';
import { Dice } from './random.js';
import { GameTracker } from '../../src/game/tracker.js';
import { decodeLine } from '../../src/protocol/decode.js';
import { gameId } from '../support/fics-values.js';

const corpus = {
  ...ficsCorpus(),
  chessLive: chessLiveCorpus(readFileSync(new URL('../fixtures/chesslive/z03.clv', import.meta.url), 'utf8')),
};
const RUNS: Record<string, number> = {
  parseChessLive: 800,
  'ObserverDecoder (oversized input)': 300,
  'ChessLiveReader (growing in pieces)': 500,
  'PGN tags (names from outside)': 800,
  'OpeningTrail (moves from outside)': 400,
  'renderChart (any numbers)': 200,
};

describe('fuzz (small scale)', () => {
  it('has a corpus of real lines, transcripts and move files', () => {
    expect(corpus.lines.length).toBeGreaterThan(500);
    expect(corpus.transcripts.length).toBeGreaterThan(10);
    expect(corpus.chessLive.length).toBeGreaterThan(5);
  });

  for (const target of fuzzTargets(corpus)) {
    it(`${target.name}: no exception, no broken state`, () => {
      const dice = new Dice(20_261_121);
      const failures: Finding[] = [];
      for (let i = 0; i < (RUNS[target.name] ?? 3_000); i++) {
        const finding = target.run(dice);
        if (finding?.severity === 'failure') failures.push(finding);
      }
      expect(failures.slice(0, 3)).toEqual([]);
    });
  }

  it('the state check catches moves and position that disagree', () => {
    const tracker = new GameTracker();
    for (const line of [
      '<12> rnbqkbnr pppppppp -------- -------- -------- -------- PPPPPPPP RNBQKBNR W -1 1 1 1 1 0 7 White Black 0 3 0 39 39 180 180 1 none (0:00) none 0 0 0',
      '<12> rnbqkbnr pppppppp -------- -------- ----P--- -------- PPPP-PPP RNBQKBNR B 4 1 1 1 1 0 7 White Black 0 3 0 39 39 180 180 1 P/e2-e4 (0:00) e4 0 0 0',
    ])
      tracker.apply(decodeLine(line));
    const snapshot = tracker.snapshot(gameId(7))!;
    expect(snapshot.uci).toEqual(['e2e4']);
    expect(badSnapshot(snapshot)).toBeNull();
    expect(badSnapshot({ ...snapshot, san: ['e4'], uci: ['d2d4'] })).toMatch(/moves lead to/);
    expect(badSnapshot({ ...snapshot, san: ['e4', 'e5'], uci: ['e2e4'] })).toMatch(/SAN but/);
  });

  it('finding of the million-input run: a stale delta before a move list no longer breaks the history', () => {
    // A late join waits for `moves 19`; a garbled `<d1>` for ply 8 came in meanwhile. The merge
    // took it over the server's list and kept moves that no longer followed from the position.
    const events = eventsOf(transcript('fatics_special', 'obs_block.raw'));
    // The transcript's last game numbered 19, joined late: its first move list.
    const header = events.findLastIndex((e) => e.kind === 'gameHeader' && e.game === 19);
    const firstList = events.findIndex((e, i) => i > header && e.kind === 'moveList' && e.game === 19);
    expect(firstList).toBeGreaterThan(0);
    const tracker = new GameTracker();
    events.forEach((event, i) => {
      if (i === firstList) tracker.apply(decodeLine('<d1> 19 8 d5 d7d5 113 614615 '));
      tracker.apply(event);
    });
    const game = tracker.snapshot(gameId(19))!;
    expect(badSnapshot(game)).toBeNull();
    expect(game.ended).toBe(true);
    expect(game.san.length).toBeGreaterThan(90);
  });

  it('random slash-command arguments: answered, explained, and nothing unchecked reaches FICS', async () => {
    const result = await fuzzCommands(40, 7);
    expect(result.commands).toContain('observe');
    expect(result.findings).toEqual([]);
  });
});
