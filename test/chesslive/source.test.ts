import { afterEach, describe, expect, it } from 'vitest';
import { parseChessLive } from '../../src/chesslive/read.js';
import {
  parseChessLiveSources,
  readSource,
  snapshotOfRead,
  type ChessLiveSource,
} from '../../src/chesslive/source.js';
import { loadConfig } from '../../src/config.js';
import { isChessLive, makeChessLiveGame } from '../../src/game/game-id.js';
import { GrowingFile, GrowingUrl, RUY_LOPEZ, RUY_LOPEZ_FEN, RUY_LOPEZ_SAN, chessLiveText } from './serve.js';

const closing: { close?(): Promise<void>; remove?(): void }[] = [];
afterEach(async () => {
  for (const item of closing.splice(0)) {
    item.remove?.();
    await item.close?.();
  }
});

describe('KIBITZ_CHESSLIVE_SOURCES', () => {
  it('reads named files and http(s) URLs', () => {
    expect(
      parseChessLiveSources(' Round1 = /srv/live/r1.txt , board_2=https://example.org/live?board=2&x=y,'),
    ).toEqual({
      ok: true,
      value: [
        { name: 'round1', kind: 'file', location: '/srv/live/r1.txt' },
        { name: 'board_2', kind: 'url', location: 'https://example.org/live?board=2&x=y' },
      ],
    });
    expect(parseChessLiveSources('')).toEqual({ ok: true, value: [] });
  });

  it('refuses what it cannot read, naming the entry', () => {
    expect(parseChessLiveSources('round1')).toEqual({ ok: false, error: '"round1" is not name=path-or-url' });
    expect(parseChessLiveSources('a=/x,A=/y')).toEqual({ ok: false, error: 'source name "a" is used twice' });
    expect(parseChessLiveSources('a b=/x').ok).toBe(false);
    expect(parseChessLiveSources('a=')).toEqual({
      ok: false,
      error: 'source "a" has no path or URL after "="',
    });
    expect(parseChessLiveSources('a=ftp://example.org/x')).toEqual({
      ok: false,
      error: 'source "a": only http(s) URLs and file paths are read, not ftp://',
    });
  });

  it('is part of the configuration, with its poll interval, and a bad value stops the start', () => {
    const good = loadConfig({
      DISCORD_TOKEN: 'token',
      KIBITZ_CHESSLIVE_SOURCES: 'round1=/srv/r1.txt',
      KIBITZ_CHESSLIVE_POLL_MS: '500',
    });
    expect(good.ok && good.value.chesslive).toEqual({
      sources: [{ name: 'round1', kind: 'file', location: '/srv/r1.txt' }],
      pollMs: 500,
      maxBytes: 1_048_576,
    });
    const bad = loadConfig({
      DISCORD_TOKEN: 'token',
      KIBITZ_CHESSLIVE_SOURCES: 'r1',
      KIBITZ_CHESSLIVE_POLL_MS: '5',
    });
    expect(bad).toEqual({
      ok: false,
      error: [
        'KIBITZ_CHESSLIVE_POLL_MS must be a whole number from 100 to 600000, got "5".',
        'KIBITZ_CHESSLIVE_SOURCES must list name=path-or-url entries separated by commas (e.g. round1=/srv/live/round1.txt,board2=https://example.org/board2.txt): "r1" is not name=path-or-url.',
      ],
    });
  });
});

describe('readSource', () => {
  it('reads a file and a URL; says which source failed and why', async () => {
    const text = chessLiveText('Carlsen', 'Nepo', RUY_LOPEZ);
    const file = new GrowingFile(text);
    closing.push(file);
    const served = await GrowingUrl.start(text);
    closing.push(served);
    const fromFile: ChessLiveSource = { name: 'disk', kind: 'file', location: file.path };
    const fromUrl: ChessLiveSource = { name: 'web', kind: 'url', location: served.url() };
    expect(await readSource(fromFile)).toBe(text);
    expect(await readSource(fromUrl)).toBe(text);

    await expect(readSource({ ...fromFile, location: `${file.path}.missing` })).rejects.toThrow(
      'ChessLive! source "disk" cannot be read: ENOENT',
    );
    await expect(readSource({ ...fromUrl, location: served.url('/nothing') })).rejects.toThrow(
      'ChessLive! source "web" cannot be read: HTTP 404 Not Found',
    );
    await expect(readSource(fromFile, { maxBytes: 10 })).rejects.toThrow(
      `ChessLive! source "disk" cannot be read: it is ${text.length} bytes, more than the 10 allowed`,
    );
  });
});

describe('snapshotOfRead', () => {
  it('is the game so far: moves, position, clocks, result', () => {
    const read = parseChessLive(chessLiveText('Carlsen', 'Nepo', RUY_LOPEZ, '+;Nepo resigns'), {
      growing: true,
    });
    if (!read.ok) throw new Error(read.error.message);
    const snap = snapshotOfRead(read.value, {
      key: 'chesslive:r1:1',
      game: makeChessLiveGame(0),
      source: 'r1',
    });
    expect(isChessLive(snap)).toBe(true);
    expect(snap).toMatchObject({
      white: 'Carlsen',
      black: 'Nepo',
      variant: 'chess',
      san: RUY_LOPEZ_SAN,
      uci: ['e2e4', 'e7e5', 'g1f3', 'b8c6', 'f1b5'],
      fen: RUY_LOPEZ_FEN,
      sideToMove: 'black',
      whiteClockMs: 280_000,
      blackClockMs: 290_000,
      clocksMs: [299_000, 298_000, 295_000, 290_000, 280_000],
      check: false,
      result: '1-0',
      reason: 'Nepo resigns',
      ended: true,
      complete: true,
    });
  });

  it('sees check, and a game without clocks', () => {
    // 1. e4 f5 2. Qh5+ as bare steps (no Time).
    const read = parseChessLive('A;B;e2:e4;f7:f5;d1:h5;', { growing: true });
    if (!read.ok) throw new Error(read.error.message);
    const snap = snapshotOfRead(read.value, { key: 'k', game: makeChessLiveGame(0), source: 'k' });
    expect(snap).toMatchObject({
      san: ['e4', 'f5', 'Qh5+'],
      check: true,
      whiteClockMs: 0,
      ended: false,
      reason: null,
    });
  });
});
