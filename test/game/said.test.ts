// Kibitzes and whispers in game state and in the final PGN: at the ply they were said, bounded.
import { Chess } from 'chessops/chess';
import { parseSan } from 'chessops/san';
import { describe, expect, it } from 'vitest';
import { makeSnapshotPgn, parsePgn } from '../../src/game/pgn.js';
import { MAX_SAID_PER_GAME } from '../../src/game/snapshot.js';
import { GameTracker, type SaidInGame } from '../../src/game/tracker.js';
import { ObserverDecoder } from '../../src/protocol/decode.js';
import type { ServerEvent } from '../../src/protocol/events.js';
import { style12Line } from '../support/boards.js';
import { gameId } from '../support/fics-values.js';

const players = { game: 7, white: 'Alice', black: 'Bobby' };

/** The start board, then each move's board, with `talk[ply]` said right after that ply. */
function lines(sans: string[], talk: Record<number, string[]>): string[] {
  const pos = Chess.default();
  const out = ['Game 7: Alice (1500) Bobby (1600) rated blitz 5 0', style12Line(pos, { ...players, ply: 0 })];
  out.push(...(talk[0] ?? []));
  sans.forEach((san, i) => {
    pos.play(parseSan(pos, san)!);
    out.push(style12Line(pos, { ...players, ply: i + 1, san, verbose: 'x/none' }), ...(talk[i + 1] ?? []));
  });
  return out;
}

function follow(text: string[]): { tracker: GameTracker; said: SaidInGame[] } {
  const said: SaidInGame[] = [];
  const tracker = new GameTracker({ onSaid: (s) => said.push(s) });
  for (const e of new ObserverDecoder().lines(text) as ServerEvent[]) tracker.apply(e);
  return { tracker, said };
}

describe('what is said in a game', () => {
  it('is kept at its ply and written as {Handle: text} after that move, before the first move at 0', () => {
    const { tracker, said } = follow([
      ...lines(['e4', 'e5', 'Nf3'], {
        0: ['LectureBot(TD)(----)[7] kibitzes: Welcome to the lecture.'],
        2: ['Carol(1800)[7] whispers: the open game'],
        3: ['Dave(++++)[7] kibitzes: {nice} [%clk 0:00:01] move'],
      }),
      'Eve(1500)[8] kibitzes: another game',
      '{Game 7 (Alice vs. Bobby) Alice resigns} 0-1',
      'Frank(1500)[7] kibitzes: after the end',
    ]);
    expect(said.map((s) => [s.said.handle, s.said.ply])).toEqual([
      ['LectureBot', 0],
      ['Carol', 2],
      ['Dave', 3],
    ]);
    const game = tracker.snapshot(gameId(7))!;
    expect(game.said).toHaveLength(3);
    const pgn = makeSnapshotPgn(game);
    expect(pgn).toContain('{ LectureBot: Welcome to the lecture. } 1. e4');
    expect(pgn).toMatch(/1\. e4 \{ \[%clk [^}]*\} e5 \{ \[%clk [^}]*\} \{ Carol: the open game \} 2\. Nf3/);
    // `}` would end the comment and `[%` would read back as a clock: neither survives.
    expect(pgn).toContain('{ Dave: (nice) [ %clk 0:00:01] move }');
    const read = parsePgn(pgn);
    expect(read.ok && read.value[0]!.san).toEqual(['e4', 'e5', 'Nf3']);
    expect(read.ok && read.value[0]!.reason).toBe('Alice resigns');
  });

  it(`keeps at most ${MAX_SAID_PER_GAME} per game and says how many more there were`, () => {
    const talk = Array.from(
      { length: MAX_SAID_PER_GAME + 5 },
      (_, i) => `Carol(1800)[7] kibitzes: line ${i}`,
    );
    const { tracker, said } = follow(lines(['d4'], { 1: talk }));
    const game = tracker.snapshot(gameId(7))!;
    expect(said).toHaveLength(MAX_SAID_PER_GAME);
    expect(game.said).toHaveLength(MAX_SAID_PER_GAME);
    expect(game.saidDropped).toBe(5);
    expect(makeSnapshotPgn(game)).toContain('{ 5 more kibitzes and whispers not kept }');
  });
});
