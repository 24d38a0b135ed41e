// The files of a final post: the PGN, the clock chart and the GIF, also for a game that ended
// while Kibitz was restarting (made from its stored PGN).
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { chartColours } from '../../render/chart.js';
import { inlineRenderer, RENDERER_CLOSED, type Renderer } from '../../render/index.js';
import { computeLayout } from '../../render/layout.js';
import { makeSnapshotPgn } from '../../src/game/pgn.js';
import { decodeTranscript } from '../../src/game/transcript.js';
import { themeByName } from '../../render/theme.js';
import { BoardImages, chartFileName, themedUrl } from '../../src/relay/images.js';
import { count, decodeGif, decodePng, hex, same } from '../render/pixels.js';
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
      { flip: false },
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

describe('final files not drawn', () => {
  /** BoardImages over a renderer whose GIFs and charts fail with `error`, and the lines it logs. */
  function failing(error: string): { images: BoardImages; logged: string[] } {
    const logged: string[] = [];
    const renderer: Renderer = {
      ...inlineRenderer,
      gif: () => Promise.resolve({ ok: false, error }),
      chart: () => Promise.resolve({ ok: false, error }),
    };
    const logger = pino(
      { level: 'warn' },
      { write: (line: string) => void logged.push(JSON.parse(line).msg) },
    );
    return { images: new BoardImages({ renderer, snapshot: () => undefined, logger }), logged };
  }

  it('are logged one by one when the renderer fails', async () => {
    const game = finishedGame();
    const { images, logged } = failing('render failed: out of memory');
    expect(await images.finalGif(game)).toBeNull();
    const files = await images.finalFiles(game, makeSnapshotPgn(game));
    expect(files.map((f) => f.name)).toEqual([`game-${game.game}.pgn`]);
    expect(logged).toEqual(['game GIF not rendered', 'clock chart not rendered']);
  });

  it('are not logged one by one when the renderer was closed (the bot stopping counts them)', async () => {
    const game = finishedGame();
    const { images, logged } = failing(RENDERER_CLOSED);
    expect(await images.finalGif(game)).toBeNull();
    const files = await images.finalFiles(game, makeSnapshotPgn(game));
    expect(files.map((f) => f.name)).toEqual([`game-${game.game}.pgn`]);
    expect(logged).toEqual([]);
  });
});

describe('themes', () => {
  const grey = themeByName('grey');
  const brown = themeByName('brown');

  it("draws a post's board in its theme, one render per position and theme whatever the posts", async () => {
    const drawn: (string | undefined)[] = [];
    const counting = new BoardImages({
      renderer: { ...inlineRenderer, png: (scene) => (drawn.push(scene.theme), inlineRenderer.png(scene)) },
      snapshot: () => undefined,
      logger: pino({ level: 'silent' }),
    });
    const game = finishedGame();
    const greyPost = await counting.message(game, { flip: false, theme: 'grey' });
    await counting.message(game, { flip: false, theme: 'grey' });
    const brownPost = await counting.message(game, { flip: false });
    expect(drawn).toEqual(['grey', undefined]);
    const greyBoard = await decodePng(greyPost.image!.data);
    const brownBoard = await decodePng(brownPost.image!.data);
    const all = { x: 0, y: 0, w: greyBoard.width, h: greyBoard.height };
    expect(count(greyBoard, all, same(hex(grey.dark)))).toBeGreaterThan(1000);
    expect(count(greyBoard, all, same(hex(brown.dark)))).toBe(0);
    expect(count(brownBoard, all, same(hex(brown.dark)))).toBeGreaterThan(1000);
  });

  it("makes the final GIF in the post's theme, and the live page's link carries it", async () => {
    const game = finishedGame();
    const gif = await images.finalGif(game, 'grey');
    const { frames } = decodeGif(gif!.data);
    const first = frames[0]!;
    const all = { x: 0, y: 0, w: first.width, h: first.height };
    expect(count(first, all, same(hex(grey.light)))).toBeGreaterThan(1000);
    expect(count(first, all, same(hex(brown.light)))).toBe(0);
    expect(themedUrl('https://k.example/g/ab', 'grey')).toBe('https://k.example/g/ab?theme=grey');
    expect(themedUrl('https://k.example/g/ab', undefined)).toBe('https://k.example/g/ab');
  });
});

describe('a bughouse pair', () => {
  // FatICS, one observer on both boards of a bughouse match (games 20 and 21).
  const [a, b] = decodeTranscript(transcript('fatics_bughouse', 'obs_both.raw')).games;

  it('is two pictures of one board each, the partner turned; each drawn once for both games’ posts', async () => {
    expect([a!.game, b!.game, a!.partnerGame]).toEqual([20, 21, 21]);
    const drawn: string[] = [];
    const pair = new BoardImages({
      renderer: {
        ...inlineRenderer,
        png: (scene) => (drawn.push(`${scene.fen} ${scene.orientation}`), inlineRenderer.png(scene)),
      },
      snapshot: (game) => [a!, b!].find((s) => s.game === game),
      logger: pino({ level: 'silent' }),
    });
    const post = await pair.message(a!, { flip: false });
    expect(post.partner?.title).toBe('Partner board · Game 21: GuestRXLS (++++) vs GuestXJAN (++++) · 0-1');
    expect([post.image!.name, post.partner?.image.name]).toEqual(['board.png', 'partner.png']);
    expect(post.partner?.image.description).toMatch(/^Partner board, Black at the bottom\. /);
    expect(post.partner?.image.description).toContain(`FEN: ${b!.fen}`);
    const single = computeLayout(480, { footer: true, holdings: true });
    for (const data of [post.image!.data, post.partner!.image.data]) {
      const img = await decodePng(data);
      expect([img.width, img.height]).toEqual([single.width, single.height]);
    }
    // The partner game's own post, turned: the same two renders, drawn already.
    const partnerPost = await pair.message(b!, { flip: true });
    expect(partnerPost.image!.data).toBe(post.partner!.image.data);
    expect(partnerPost.partner!.image.data).toBe(post.image!.data);
    expect(drawn).toEqual([`${a!.fen} white`, `${b!.fen} black`]);
  });
});
