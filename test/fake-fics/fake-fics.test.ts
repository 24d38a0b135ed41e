// The fake server is only as good as it is faithful: its boards and delta lines for a game are
// compared, field by field, with what the real servers sent for the same moves. Only what depends
// on the players' real thinking time (clocks, move times) is left out.
import { describe, expect, it } from 'vitest';
import boards from '../fixtures/fics-games/boards.json' with { type: 'json' };
import { ScriptedGame } from './game.js';
import { fixture, scriptOf } from '../fics/harness.js';

/** Token indexes (with `<12>` at 0) of the clocks and the move time. */
const TIMED = new Set([24, 25, 28]);
const untimed = (line: string): string =>
  line
    .split(' ')
    .map((token, i) => (TIMED.has(i) ? '*' : token))
    .join(' ');

describe('the fake server against real transcripts', () => {
  it.each([
    ['fatics', 'fatics_master_seq#0'],
    ['lasker', 'lasker_master_seq#0'],
  ] as const)('%s: every <12> of a 78-ply game matches but for the clocks', (dialect, id) => {
    const game = new ScriptedGame(2, scriptOf(fixture(id)));
    const view = { ms: false, lag: dialect === 'fatics', lasker: dialect === 'lasker', relation: 0 };
    const lines = [game.style12(view)];
    while (game.remaining > 0) {
      game.play();
      lines.push(game.style12(view));
    }
    expect(lines.map(untimed)).toEqual(boards.boards[dialect].map(untimed));
  });

  it('FatICS: every <d1> of that game matches but for the times', () => {
    const game = new ScriptedGame(2, scriptOf(fixture('fatics_master_seq#0')));
    const lines: string[] = [];
    while (game.remaining > 0) {
      game.play();
      lines.push(game.delta());
    }
    const moveOnly = (line: string): string => line.split(' ').slice(0, 5).join(' ');
    expect(lines.map(moveOnly)).toEqual(boards.deltas.map(moveOnly));
  });

  it.each([
    ['fatics', 'fatics_master_seq#0', 38],
    ['lasker', 'lasker_master_seq#0', 54],
  ] as const)('%s: the reply to `moves` is laid out as the server lays it out', (dialect, id, plies) => {
    const game = new ScriptedGame(2, scriptOf(fixture(id)));
    for (let i = 0; i < plies; i++) game.play();
    const timeless = (line: string): string =>
      line.replace(/\(\d+:\d\d(?:\.\d{3})?\)/g, '(t)').replace(/ --- .*$/, ' --- (date)');
    expect(game.moveList(dialect).map(timeless)).toEqual(boards.moveLists[dialect].map(timeless));
  });
});
