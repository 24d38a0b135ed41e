// The files of a final post: the PGN, the clock chart and the GIF, also for a game that ended
// while Kibitz was restarting (made from its stored PGN).
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { chartColours } from '../../render/chart.js';
import { inlineRenderer } from '../../render/index.js';
import { makeSnapshotPgn } from '../../src/game/pgn.js';
import { decodeTranscript } from '../../src/game/transcript.js';
import { BoardImages, chartFileName } from '../../src/relay/images.js';
import { count, decodePng, hex, same } from '../render/pixels.js';
import { transcript } from '../support/fixtures.js';

const images = new BoardImages({
  renderer: inlineRenderer,
  snapshot: () => undefined,
  logger: pino({ level: 'silent' }),
});

function finishedGame() {
  const { games } = decodeTranscript(transcript('fatics_takeback', 'obs_start.raw'));
  return games.find((g) => g.ended && g.san.length > 0)!;
}

describe('final files', () => {
  it('are the PGN and the clock chart, in the order they are given up last to first; the GIF apart', async () => {
    const game = finishedGame();
    const files = await images.finalFiles(game, makeSnapshotPgn(game));
    expect(files.map((f) => f.name)).toEqual([`game-${game.game}.pgn`, chartFileName(game.game)]);
    const gif = await images.finalGif(game);
    expect(gif!.name).toBe(`game-${game.game}.gif`);
    expect(gif!.data.subarray(0, 6).toString()).toBe('GIF89a');
    const chart = await decodePng(files[1]!.data);
    expect([chart.width, chart.height]).toEqual([800, 400]);
  });

  it('a game without clocks has no chart', async () => {
    const played = finishedGame();
    const game = { ...played, clocksMs: played.uci.map(() => null) };
    const files = await images.finalFiles(game, makeSnapshotPgn(game));
    expect(files.map((f) => f.name)).toEqual([`game-${game.game}.pgn`]);
  });

  it('a game that ended during a restart gets its chart from the clocks of its stored PGN', async () => {
    const game = finishedGame();
    const message = await images.storedFinal(
      {
        gameKey: game.key,
        game: game.game,
        white: game.white,
        black: game.black,
        pgn: makeSnapshotPgn(game),
        result: game.result,
        reason: game.reason,
        endedAt: 0,
      },
      false,
    );
    expect(message.files.map((f) => f.name)).toEqual([
      `game-${game.game}.pgn`,
      chartFileName(game.game),
      `game-${game.game}.gif`,
    ]);
    const chart = await decodePng(message.files[1]!.data);
    for (const side of ['white', 'black'] as const) {
      expect(
        count(chart, { x: 0, y: 0, w: chart.width, h: chart.height }, same(hex(chartColours()[side]))),
        side,
      ).toBeGreaterThan(500);
    }
  });
});
