// Clips: which positions a range of moves shows, and the GIF's frame delays from the move times.
import { GifReader } from 'omggif';
import { describe, expect, it } from 'vitest';
import { inlineRenderer } from '../../render/index.js';
import {
  ClipGate,
  clipSpan,
  DEFAULT_CLIP_MOVES,
  MAX_CLIP_MOVES,
  planClip,
  renderClip,
  type ClipServices,
} from '../../src/actions/clip.js';
import type { FinishedGame } from '../../src/storage/index.js';
import { gameId } from '../support/fics-values.js';

describe('clipSpan: moves as players number them, to half-moves', () => {
  // A game seen from the start, 41 half-moves played (White's 21st move the last).
  const span = (from: number | null, to: number | null) => clipSpan({ from, to }, 0, 41);

  it('starts before White’s move `from` and ends after Black’s move `to`', () => {
    expect(span(20, 20)).toEqual({ ok: true, value: { start: 38, end: 40 } });
    expect(span(1, 3)).toEqual({ ok: true, value: { start: 0, end: 6 } });
    // The last move is White's 21st: the clip ends on it.
    expect(span(19, 21)).toEqual({ ok: true, value: { start: 36, end: 41 } });
  });

  it(`takes the last ${DEFAULT_CLIP_MOVES} moves without a range, ${DEFAULT_CLIP_MOVES} from \`from\` without \`to\``, () => {
    expect(span(null, null)).toEqual({ ok: true, value: { start: 22, end: 41 } });
    expect(span(5, null)).toEqual({ ok: true, value: { start: 8, end: 28 } });
    expect(span(null, 4)).toEqual({ ok: true, value: { start: 0, end: 8 } });
  });

  it('says what is wrong with a range it refuses', () => {
    const error = (result: ReturnType<typeof span>) => (result.ok ? null : result.error);
    expect(error(span(30, 20))).toBe('from (30) is after to (20)');
    expect(error(span(22, null))).toBe('from 22 is past its end: it has moves 1 to 21');
    expect(error(span(1, 22))).toBe('to 22 is past its end: it has moves 1 to 21');
    expect(error(span(0, 3))).toBe('from must be a move number, 1 or more');
    expect(error(clipSpan({}, 0, 0))).toBe('it has no moves yet');
    expect(error(clipSpan({ from: 1, to: MAX_CLIP_MOVES + 1 }, 0, 400))).toBe(
      `a clip shows at most ${MAX_CLIP_MOVES} moves; moves 1 to ${MAX_CLIP_MOVES + 1} are ${MAX_CLIP_MOVES + 1}`,
    );
    expect(clipSpan({ from: 1, to: MAX_CLIP_MOVES }, 0, 400).ok).toBe(true);
  });

  it('counts from the first position Kibitz saw when it joined mid-game', () => {
    // Joined with Black to move at move 16 (ply 31), 10 half-moves seen since.
    expect(clipSpan({ from: 16, to: 17 }, 31, 41)).toEqual({ ok: true, value: { start: 31, end: 34 } });
    expect(clipSpan({ from: 15, to: 17 }, 31, 41)).toEqual({
      ok: false,
      error: 'from 15 is before what Kibitz saw: it has moves 16 to 21',
    });
  });
});

/** A finished game whose clocks fall by 4 s, 8 s, 20 s, 1 s, … per move after the first two. */
const PGN = `[Event "FICS rated blitz game"]
[White "Alice"]
[Black "Bob"]
[Result "1-0"]

1. e4 {[%clk 0:03:00]} e5 {[%clk 0:03:00]} 2. Nf3 {[%clk 0:02:56]} Nc6 {[%clk 0:02:52]}
3. Bb5 {[%clk 0:02:36]} a6 {[%clk 0:02:51]} 4. Ba4 {[%clk 0:02:35]} Nf6 {[%clk 0:02:11]} 1-0`;

const finished: FinishedGame = {
  gameKey: '7:Alice:Bob',
  game: gameId(7),
  white: 'Alice',
  black: 'Bob',
  pgn: PGN,
  result: '1-0',
  reason: 'Bob resigns',
  endedAt: 0,
};

const services: ClipServices = {
  snapshot: () => undefined,
  finished: (which) =>
    Promise.resolve(
      ('game' in which ? which.game === 7 : which.gameKey === finished.gameKey) ? finished : null,
    ),
};

describe('a clip of a finished game', () => {
  it('shows the moves asked for, each position for a quarter of its next move’s time (0.3-3 s)', async () => {
    const plan = await planClip({ game: gameId(7), from: 2, to: 4 }, services);
    if (!plan.ok) throw new Error(JSON.stringify(plan.error));
    const clip = await renderClip(plan.value, inlineRenderer);
    if (!clip.ok) throw new Error(JSON.stringify(clip.error));
    expect(clip.value).toMatchObject({ fromMove: 2, toMove: 4, frames: 7, live: false });
    expect(clip.value.fileName).toBe('game-7-moves-2-4.gif');
    expect(clip.value.description).toMatch(
      /^Animation of moves 2 to 4 of the game Alice against Bob, 6 half-moves/,
    );
    const reader = new GifReader(clip.value.gif);
    expect(reader.numFrames()).toBe(7);
    // Next moves took 4, 8, 20, 1, 1 and 24 s: a quarter, within 0.3-3 s; the last frame 4 s.
    const delays = [...Array(7).keys()].map((i) => reader.frameInfo(i).delay * 10);
    expect(delays).toEqual([1000, 2000, 3000, 300, 300, 3000, 4000]);
  });

  it('ends on the result and the stored end text when it reaches the end', async () => {
    const plan = await planClip({ game: gameId(7), from: 4 }, services);
    if (!plan.ok) throw new Error(JSON.stringify(plan.error));
    expect(plan.value.scenes.at(-1)!.result).toEqual({ result: '1-0', reason: 'Bob resigns' });
  });

  it('refuses a game it does not have, and a range outside the game', async () => {
    expect(await planClip({ game: gameId(8) }, services)).toEqual({
      ok: false,
      error: { kind: 'unknown-game', game: 8 },
    });
    expect(await planClip({ game: gameId(7), from: 5 }, services)).toEqual({
      ok: false,
      error: { kind: 'range', message: 'from 5 is past its end: it has moves 1 to 4' },
    });
  });
});

describe('ClipGate: clips drawn at once', () => {
  it('takes one per server and two in all, and lets the next in once one is done', () => {
    const gate = new ClipGate(2);
    const first = gate.enter('guild-a');
    expect(first.ok).toBe(true);
    expect(gate.enter('guild-a')).toEqual({
      ok: false,
      error: 'a clip asked for here is still being drawn: ask again once it is posted',
    });
    const second = gate.enter('guild-b');
    expect(second.ok).toBe(true);
    expect(gate.enter('guild-c')).toEqual({
      ok: false,
      error: 'Kibitz is drawing 2 clips already: ask again in a few seconds',
    });
    if (first.ok) first.value();
    expect(gate.enter('guild-c').ok).toBe(true);
    expect(gate.enter('guild-a').ok).toBe(false);
  });
});
