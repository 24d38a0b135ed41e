// Scenes from game snapshots decoded from real FICS transcripts, and the text they put in the bars.
import { readFileSync } from 'node:fs';
import { GifReader } from 'omggif';
import { describe, expect, it } from 'vitest';
import { formatClock, renderGif, resultText } from '../../render/index.js';
import { gameScenes, sceneFromSnapshot } from '../../src/game/scenes.js';
import type { GameSnapshot } from '../../src/game/snapshot.js';
import { decodeTranscript } from '../../src/game/transcript.js';

const transcript = (path: string): GameSnapshot[] =>
  decodeTranscript(readFileSync(new URL(`../fixtures/fics/${path}`, import.meta.url))).games;

const boardOf = (fen: string): string => fen.split(' ')[0]!.replace(/\[.*\]/, '');

describe('clock and result text', () => {
  it.each([
    [0, '0:00.0'],
    [-1_500, '0:00.0'],
    [9_950, '0:09.9'],
    [10_000, '0:10'],
    [59_999, '0:59'],
    [180_000, '3:00'],
    [3_599_000, '59:59'],
    [3_600_000, '1:00:00'],
    [4_000_000, '1:06:40'],
  ])('%i ms is %s', (ms, text) => {
    expect(formatClock(ms)).toBe(text);
  });

  it('puts the score and the reason together', () => {
    expect(resultText({ result: '1-0', reason: 'Black resigns' })).toBe('1-0 · Black resigns');
    expect(resultText({ result: '1/2-1/2', reason: null })).toBe('½-½');
    expect(resultText({ result: '*', reason: 'Game aborted by mutual agreement' })).toBe(
      'Game aborted by mutual agreement',
    );
  });
});

describe('scenes from snapshots', () => {
  const crazyhouse = transcript('lasker_crazyhouse/obs_multi.raw');
  const bughouse = transcript('fatics_bughouse/obs_both.raw');

  it('takes players, clocks, last move, holdings and result from the snapshot', () => {
    const snap = crazyhouse[0]!;
    const scene = sceneFromSnapshot(snap, { theme: 'green', size: 600 });
    expect(scene).toMatchObject({
      fen: snap.fen,
      rules: 'crazyhouse',
      orientation: 'white',
      lastMove: 'Q@g7',
      white: { name: 'GuestYCRJ', clockMs: snap.whiteClockMs },
      black: { name: 'GuestIBJV', clockMs: snap.blackClockMs },
      holdings: { white: '', black: 'PPPPPPPPPBBQ' },
      result: { result: '1-0', reason: 'GuestIBJV checkmated' },
      theme: 'green',
      size: 600,
    });
    expect(sceneFromSnapshot({ ...snap, flip: true }).orientation).toBe('black');
    expect(sceneFromSnapshot({ ...snap, ended: false }).result).toBeNull();
  });

  it('replays a crazyhouse game to the snapshot position, with each ply clock', () => {
    const snap = crazyhouse[0]!;
    const scenes = gameScenes(snap);
    if (!scenes.ok) throw new Error(scenes.error);
    expect(scenes.value).toHaveLength(snap.uci.length + 1);
    expect(scenes.value.at(-1)!.fen.split(' ')[0]).toBe(snap.fen.split(' ')[0]);
    expect(scenes.value.at(-1)!.result).toEqual({ result: '1-0', reason: 'GuestIBJV checkmated' });
    expect(scenes.value[0]!.lastMove).toBeNull();
    expect(scenes.value[1]!.lastMove).toBe(snap.uci[0]);
    // After White's first move White's clock is the one the snapshot recorded for ply 1.
    expect(scenes.value[1]!.white.clockMs).toBe(snap.clocksMs[0]);
    expect(scenes.value[2]!.white.clockMs).toBe(snap.clocksMs[0]);
    expect(scenes.value[2]!.black.clockMs).toBe(snap.clocksMs[1]);
  });

  it('replays a bughouse board whose drops came from the partner, with the hands seen after each move', () => {
    for (const snap of bughouse) {
      const scenes = gameScenes(snap);
      if (!scenes.ok) throw new Error(scenes.error);
      expect(boardOf(scenes.value.at(-1)!.fen)).toBe(boardOf(snap.fen));
      expect(scenes.value.at(-1)!.holdings).toEqual(snap.holdings);
      expect(snap.handsAfter).toHaveLength(snap.uci.length);
      snap.handsAfter!.forEach((hands, i) =>
        expect(scenes.value[i + 1]!.holdings).toEqual(hands ?? { white: '', black: '' }),
      );
      // Pieces were in hand before the end, and the replay shows them where they were.
      expect(
        scenes.value.slice(1, -1).some((scene) => scene.holdings!.white + scene.holdings!.black !== ''),
      ).toBe(true);
      const gif = renderGif(scenes.value);
      if (!gif.ok) throw new Error(gif.error);
      expect(new GifReader(gif.value).numFrames()).toBe(snap.uci.length + 1);
    }
  });

  it('reports a move that cannot be read', () => {
    expect(gameScenes({ ...crazyhouse[0]!, uci: ['e2e4', 'zz'] })).toEqual({
      ok: false,
      error: 'invalid move "zz" at ply 2',
    });
  });
});
