// The ChessLive! feed against real growing files and a local HTTP server: what the relay hears.
import { EventEmitter } from 'node:events';
import type * as FsPromises from 'node:fs/promises';
import { pino } from 'pino';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as Feed from '../../src/chesslive/feed.js';
import type { ChessLiveSource } from '../../src/chesslive/source.js';
import type { GameSnapshot } from '../../src/game/snapshot.js';
import type { TrackerUpdate } from '../../src/game/tracker.js';
import type { FicsFeed } from '../../src/chesslive/feed.js';
import { makeChessLiveGame } from '../../src/game/game-id.js';
import type { GameNumber } from '../../src/protocol/game-number.js';
import { GrowingFile, GrowingUrl, RUY_LOPEZ, RUY_LOPEZ_SAN, chessLiveText } from './serve.js';
import { waitFor } from '../support/wait.js';
import { gameId } from '../support/fics-values.js';

// The feed opens a file once per read: counting the opens lets a test wait for a read instead of
// sleeping. The feed is loaded afresh over the counting `open`: the integration project shares its
// module cache between files (isolate: false, vitest.config.ts), where a hoisted vi.mock would
// come too late.
const opened = new Map<string, number>();
let ChessLiveFeed: typeof Feed.ChessLiveFeed;
let CombinedFeed: typeof Feed.CombinedFeed;
beforeAll(async () => {
  vi.resetModules();
  vi.doMock('node:fs/promises', async (importOriginal) => {
    const fs = await importOriginal<typeof FsPromises>();
    const open: typeof fs.open = (path, ...rest) => {
      opened.set(String(path), (opened.get(String(path)) ?? 0) + 1);
      return fs.open(path, ...rest);
    };
    return { ...fs, open };
  });
  ({ ChessLiveFeed, CombinedFeed } = await import('../../src/chesslive/feed.js'));
});
const opens = (path: string): number => opened.get(path) ?? 0;

/** Waits until the feed has read `path` `times` times, each started after this call (whole reads). */
async function reads(path: string, times = 1): Promise<void> {
  // One more: a read that had already opened the file when this was called does not count.
  const target = opens(path) + times + 1;
  await waitFor(() => opens(path) >= target, `${times} read(s) of ${path}`);
}

const closing: (() => unknown)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

function feedOf(sources: ChessLiveSource[], lines: string[] = []) {
  const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
  const feed = new ChessLiveFeed({ sources, pollMs: 5, logger });
  closing.push(() => feed.close());
  const updates: TrackerUpdate[] = [];
  feed.on('update', (u) => updates.push(u));
  return { feed, updates };
}

const summary = (updates: TrackerUpdate[]) =>
  updates.map((u) =>
    u.type === 'needs' || u.type === 'undecoded' ? u.type : `${u.type} ${u.snapshot.san.length}`,
  );

describe('ChessLiveFeed', () => {
  it('reports a growing file move by move, then its result once the text stops changing', async () => {
    const file = new GrowingFile(chessLiveText('Carlsen', 'Nepo', []));
    closing.push(() => file.remove());
    const { feed, updates } = feedOf([{ name: 'round1', kind: 'file', location: file.path }]);
    const game = feed.gameOf('Round1')!;
    expect(game).toBe(makeChessLiveGame(0));
    expect(feed.gameOf('round2')).toBeNull();
    expect(await feed.observeGame(game)).toBe(game);
    expect(summary(updates)).toEqual(['started 0']);

    for (let n = 1; n <= RUY_LOPEZ.length; n++) {
      // Half a MoveSpec first: it is not read until its ";" arrives.
      file.write(chessLiveText('Carlsen', 'Nepo', RUY_LOPEZ.slice(0, n - 1)) + RUY_LOPEZ[n - 1]!.slice(0, 3));
      await reads(file.path);
      file.write(chessLiveText('Carlsen', 'Nepo', RUY_LOPEZ.slice(0, n)));
      await waitFor(() => feed.snapshot(game)!.san.length === n, `move ${n}`);
    }
    file.write(chessLiveText('Carlsen', 'Nepo', RUY_LOPEZ, '+;Nepo res'));
    await new Promise((resolve) => setTimeout(resolve, 2));
    file.write(chessLiveText('Carlsen', 'Nepo', RUY_LOPEZ, '+;Nepo resigns'));
    await waitFor(() => updates.at(-1)?.type === 'ended', 'the end');
    expect(summary(updates)).toEqual([
      'started 0',
      'moved 1',
      'moved 2',
      'moved 3',
      'moved 4',
      'moved 5',
      'ended 5',
    ]);
    const last = (updates.at(-1) as { snapshot: GameSnapshot }).snapshot;
    expect(last).toMatchObject({ san: RUY_LOPEZ_SAN, result: '1-0', reason: 'Nepo resigns', ended: true });
    // Over: no more reads, the last snapshot stays for the PGN.
    expect(feed.snapshot(game)).toBe(last);
  });

  it('reads a URL; a broken source is logged once and read again until it comes back', async () => {
    const served = await GrowingUrl.start(chessLiveText('Carlsen', 'Nepo', RUY_LOPEZ.slice(0, 1)));
    closing.push(() => served.close());
    const lines: string[] = [];
    const { feed, updates } = feedOf([{ name: 'web', kind: 'url', location: served.url() }], lines);
    const game = await feed.observeGame(feed.gameOf('web')!);
    expect(feed.snapshot(game)!.san).toEqual(['e4']);
    served.text = 'Carlsen;Nepo;e2:e5;';
    const requests = served.requests;
    await waitFor(() => served.requests > requests + 3, 'several reads of the broken file');
    served.text = chessLiveText('Carlsen', 'Nepo', RUY_LOPEZ.slice(0, 2));
    await waitFor(() => feed.snapshot(game)!.san.length === 2, 'the repaired file');
    expect(summary(updates)).toEqual(['started 1', 'moved 2']);
    const warnings = lines.map((l) => JSON.parse(l) as { error: string; msg: string });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.error).toMatch(
      /^ChessLive! source "web": line 1, column 14: move 1 \(field 3\): no legal move/,
    );
  });

  it('refuses a source it cannot read, and ends the game when another one replaces it', async () => {
    const file = new GrowingFile(chessLiveText('Carlsen', 'Nepo', RUY_LOPEZ.slice(0, 2)));
    closing.push(() => file.remove());
    // Another game, read at the same pace: once it has been read, so would round1 have been.
    const other = new GrowingFile(chessLiveText('Ding', 'Gukesh', []));
    closing.push(() => other.remove());
    const { feed, updates } = feedOf([
      { name: 'gone', kind: 'file', location: `${file.path}.missing` },
      { name: 'round1', kind: 'file', location: file.path },
      { name: 'round2', kind: 'file', location: other.path },
    ]);
    await expect(feed.observeGame(feed.gameOf('gone')!)).rejects.toThrow(
      'ChessLive! source "gone" cannot be read: ENOENT',
    );
    await expect(feed.observeGame(gameId(42))).rejects.toThrow('No ChessLive! source has game number 42.');
    file.write('Carlsen;Ne');
    await expect(feed.observeGame(feed.gameOf('round1')!)).rejects.toThrow(
      'ChessLive! source "round1" holds no game yet: it does not name both players.',
    );
    file.write(chessLiveText('Carlsen', 'Nepo', RUY_LOPEZ.slice(0, 2)));
    const game = await feed.observeGame(feed.gameOf('round1')!);
    // Caught while being rewritten (truncated, half written): not a new game, just not ready.
    for (const partial of ['', 'Carl', 'Carlsen;Nepo;e2:e4/0/0/299;']) {
      file.write(partial);
      await reads(file.path);
    }
    expect(summary(updates)).toEqual(['started 2']);
    file.write(chessLiveText('Ding', 'Gukesh', []));
    await waitFor(() => updates.at(-1)?.type === 'ended', 'the end of the replaced game');
    expect((updates.at(-1) as { snapshot: GameSnapshot }).snapshot).toMatchObject({
      white: 'Carlsen',
      result: '*',
      reason: 'the source now shows Ding vs Gukesh',
      ended: true,
    });
    // Observed again, the new game is a new game with its own key.
    const before = feed.snapshot(game)!.key;
    await feed.observeGame(game);
    expect(feed.snapshot(game)).toMatchObject({ white: 'Ding', black: 'Gukesh', ended: false });
    expect(feed.snapshot(game)!.key).not.toBe(before);
    await feed.unobserve(game);
    await feed.observeGame(feed.gameOf('round2')!);
    const heard = updates.length;
    file.write(chessLiveText('Ding', 'Gukesh', RUY_LOPEZ.slice(0, 1)));
    await reads(other.path, 3);
    expect(updates).toHaveLength(heard);
  });
});

describe('CombinedFeed', () => {
  /** A ChessLive! feed with one source, behind a combined feed whose FICS side records what it is asked. */
  function combinedOf(path: string) {
    const { feed: chesslive } = feedOf([{ name: 'round1', kind: 'file', location: path }]);
    const asked: string[] = [];
    const fics = Object.assign(new EventEmitter<{ update: [TrackerUpdate] }>(), {
      observeGame: async (game: GameNumber) => (asked.push(`observe ${String(game)}`), game),
      unobserve: async (game: GameNumber) => void asked.push(`unobserve ${String(game)}`),
      snapshot: () => undefined,
    }) satisfies FicsFeed;
    const combined = new CombinedFeed(fics, chesslive);
    closing.push(() => combined.close());
    return { combined, chesslive, fics, asked };
  }

  it('sends ChessLive! game numbers to the ChessLive! feed and the rest to FICS, and merges updates', async () => {
    const file = new GrowingFile(chessLiveText('Carlsen', 'Nepo', []));
    closing.push(() => file.remove());
    const { combined, fics, asked } = combinedOf(file.path);
    const round1 = makeChessLiveGame(0);
    const heard: number[] = [];
    combined.on('update', (u) => {
      if (u.type !== 'needs' && u.type !== 'undecoded') heard.push(u.snapshot.game);
    });
    await combined.observeGame(gameId(12));
    await combined.observeGame(round1);
    await combined.unobserve(gameId(12));
    expect(asked).toEqual(['observe 12', 'unobserve 12']);
    expect(combined.snapshot(round1)!.white).toBe('Carlsen');
    fics.emit('update', { type: 'moved', snapshot: { ...combined.snapshot(round1)!, game: gameId(12) } });
    expect(heard).toEqual([round1, 12]);
  });

  it('sends FICS game 1,000,001 to FICS, though a ChessLive! source is configured', async () => {
    const file = new GrowingFile(chessLiveText('Carlsen', 'Nepo', []));
    closing.push(() => file.remove());
    const { combined, chesslive, asked } = combinedOf(file.path);
    await combined.observeGame(gameId(1_000_001));
    await combined.unobserve(gameId(1_000_001));
    expect(asked).toEqual(['observe 1000001', 'unobserve 1000001']);
    expect(combined.snapshot(gameId(1_000_001))).toBeUndefined();
    // The ChessLive! source was not read for it.
    expect(opens(file.path)).toBe(0);
    expect(chesslive.snapshot(makeChessLiveGame(0))).toBeUndefined();
  });
});
