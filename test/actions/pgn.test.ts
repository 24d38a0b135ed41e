// The /pgn action over small fakes: which game it writes (live or stored), in which format, and the
// typed error for a game Kibitz does not have. No Discord here: commands/pgn.ts words the errors.
import { Chess } from 'chessops/chess';
import { parseSan } from 'chessops/san';
import { describe, expect, it } from 'vitest';
import { gameFile, type PgnServices } from '../../src/actions/pgn.js';
import { makeSnapshotPgn } from '../../src/game/pgn.js';
import type { GameSnapshot } from '../../src/game/snapshot.js';
import type { FinishedGame } from '../../src/storage/index.js';
import { GameTracker } from '../../src/game/tracker.js';
import { ObserverDecoder } from '../../src/protocol/decode.js';
import type { ServerEvent } from '../../src/protocol/events.js';
import { style12Line } from '../support/boards.js';
import { gameId } from '../support/fics-values.js';

const STORED_PGN = '[Event "stored"]\n[White "Carol"]\n[Black "Dave"]\n[Result "1-0"]\n\n1. e4 e5 1-0\n';

/** Game 7 as the tracker has it after 1. e4 e5, ended when `ended`. */
function liveGame(ended: boolean): GameSnapshot {
  const players = { game: 7, white: 'Alice', black: 'Bobby' };
  const pos = Chess.default();
  const text = [
    'Game 7: Alice (1500) Bobby (1600) rated blitz 5 0',
    style12Line(pos, { ...players, ply: 0 }),
  ];
  ['e4', 'e5'].forEach((san, i) => {
    pos.play(parseSan(pos, san)!);
    text.push(style12Line(pos, { ...players, ply: i + 1, san, verbose: 'x/none' }));
  });
  if (ended) text.push('{Game 7 (Alice vs. Bobby) Alice resigns} 0-1');
  const tracker = new GameTracker({});
  for (const e of new ObserverDecoder().lines(text) as ServerEvent[]) tracker.apply(e);
  return tracker.snapshot(gameId(7))!;
}

function services(live: GameSnapshot | undefined, stored: string | null): PgnServices {
  return {
    relay: { snapshot: (game) => (game === live?.game ? live : undefined) },
    storage: {
      finishedGames: {
        recent: async (query) =>
          stored !== null && query?.game === 7 ? [{ pgn: stored } as FinishedGame] : [],
      },
    },
  };
}

describe('the /pgn action', () => {
  it('writes the live game while it is on, even when an older game 7 is stored', async () => {
    const live = liveGame(false);
    const file = await gameFile({ game: gameId(7), format: 'pgn' }, services(live, STORED_PGN));
    expect(file).toEqual({ ok: true, value: { name: 'game-7.pgn', text: makeSnapshotPgn(live) } });
  });

  it('hands out the stored PGN of a game that ended, and its ChessLive! form on request', async () => {
    const stored = await gameFile({ game: gameId(7), format: 'pgn' }, services(liveGame(true), STORED_PGN));
    expect(stored).toEqual({ ok: true, value: { name: 'game-7.pgn', text: STORED_PGN } });
    const clv = await gameFile({ game: gameId(7), format: 'chesslive' }, services(undefined, STORED_PGN));
    expect(clv.ok && clv.value.name).toBe('game-7.clv');
    expect(clv.ok && clv.value.text).toContain('Carol');
  });

  it('says which game it does not have, and which stored game has no ChessLive! form', async () => {
    expect(await gameFile({ game: gameId(8), format: 'pgn' }, services(undefined, STORED_PGN))).toEqual({
      ok: false,
      error: { kind: 'unknown-game', game: 8 },
    });
    expect(
      await gameFile({ game: gameId(7), format: 'chesslive' }, services(undefined, 'not a pgn')),
    ).toEqual({
      ok: false,
      error: { kind: 'no-chesslive', game: 7 },
    });
  });
});
