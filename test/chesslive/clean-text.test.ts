// Names and reasons with line breaks and control characters, from a ChessLive! file or a FICS
// game, come out on one line: in PGN tags (the exported PGN reads back as one game), in
// ChessLive! files written, and in the snapshots the relay posts.
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { makeChessLive, parseChessLive } from '../../src/chesslive/index.js';
import { snapshotOfRead } from '../../src/chesslive/source.js';
import { makePgn, makeSnapshotPgn, parsePgn } from '../../src/game/pgn.js';
import type { GameSnapshot } from '../../src/game/snapshot.js';
import { ChessLiveFeed } from '../../src/chesslive/feed.js';
import { GrowingFile, RUY_LOPEZ, RUY_LOPEZ_SAN, chessLiveText } from './serve.js';
import { gameId } from '../support/fics-values.js';

const closing: (() => unknown)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

const WHITE = 'Carlsen\n[Event "forged"]\r\n';
const BLACK = 'Nepo\u0007\u2028mniachtchi';
const REASON = 'Black resigns\n\n1. e4 *';

async function snapshotOfFile(text: string): Promise<GameSnapshot> {
  const file = new GrowingFile(text);
  closing.push(() => file.remove());
  const feed = new ChessLiveFeed({
    sources: [{ name: 'disk', kind: 'file', location: file.path }],
    pollMs: 5,
    logger: pino({ level: 'silent' }),
  });
  closing.push(() => feed.close());
  const game = await feed.observeGame(feed.gameOf('disk')!);
  return feed.snapshot(game)!;
}

describe('text from outside, on its way out', () => {
  it('a ChessLive! file with line breaks in the names and reason exports a PGN that reads back as one game', async () => {
    const snapshot = await snapshotOfFile(`${chessLiveText(WHITE, BLACK, RUY_LOPEZ)}+;${REASON}`);
    expect([snapshot.white, snapshot.black, snapshot.reason]).toEqual([
      'Carlsen [Event "forged"]',
      'Nepo mniachtchi',
      'Black resigns 1. e4 *',
    ]);
    const pgn = makeSnapshotPgn(snapshot);
    const read = parsePgn(pgn);
    if (!read.ok) throw new Error(read.error);
    expect(read.value).toHaveLength(1);
    expect(read.value[0]!).toMatchObject({ white: 'Carlsen [Event "forged"]', black: 'Nepo mniachtchi' });
    expect(read.value[0]!.san).toEqual(RUY_LOPEZ_SAN);
  });

  it('a FICS game end reason with line breaks stays in its Termination tag', () => {
    const base = parseChessLive(chessLiveText('A', 'B', RUY_LOPEZ));
    if (!base.ok) throw new Error(base.error.message);
    const pgn = makeSnapshotPgn({
      ...snapshotOfRead(base.value, { key: '7:1', game: gameId(7), source: 'x' }),
      source: null,
      reason: 'A forfeits on time\n[White "X"]\u0000',
      result: '0-1',
      ended: true,
    });
    expect(pgn).toContain('[Termination "A forfeits on time [White \\"X\\"]"]');
    const read = parsePgn(pgn);
    expect(read.ok && read.value).toHaveLength(1);
  });

  it('ChessLive! files and PGN written from a game keep each name on one line', () => {
    const game = {
      white: WHITE,
      black: BLACK,
      variant: 'chess' as const,
      san: [],
      uci: [],
      clocksMs: [],
      result: '1-0' as const,
      reason: REASON,
    };
    const written = makeChessLive(game);
    if (!written.ok) throw new Error(written.error);
    expect(written.value).toBe('Carlsen [Event "forged"];Nepo mniachtchi;+;Black resigns 1. e4 *');
    const pgn = makePgn(game);
    if (!pgn.ok) throw new Error(pgn.error);
    const read = parsePgn(pgn.value);
    expect(read.ok && read.value.map((g) => [g.white, g.black, g.reason])).toEqual([
      ['Carlsen [Event "forged"]', 'Nepo mniachtchi', 'Black resigns 1. e4 *'],
    ]);
  });
});
