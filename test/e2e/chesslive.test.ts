// /relay chesslive through the real bot: a ChessLive! file growing on disk is relayed to the fake
// Discord move by move, in one message, ending with the result, the PGN and the GIF.
import { afterEach, describe, expect, it } from 'vitest';
import { START_FEN, expectImageShows } from './images.js';
import { World, boardPng, buttonIds, embedOf, fixture, linkButtons, scriptOf } from './harness.js';
import { makeChessLiveGame } from '../../src/game/game-id.js';
import { GrowingFile, RUY_LOPEZ, RUY_LOPEZ_FEN, chessLiveText } from '../chesslive/serve.js';

let world: World | null = null;
let file: GrowingFile | null = null;
afterEach(async () => {
  await world?.close();
  world = null;
  file?.remove();
  file = null;
});

async function start(
  dbFile = false,
): Promise<{ w: World; f: GrowingFile; startBot: () => Promise<unknown> }> {
  const f = (file = new GrowingFile(chessLiveText('Carlsen', 'Nepo', [])));
  const w = (world = await World.start({
    dbFile,
    discord: { rateLimits: { messageEdit: { limit: 10_000, windowMs: 1_000 } } },
  }));
  const env = {
    KIBITZ_CHESSLIVE_SOURCES: `round1=${f.path},gone=${f.path}.missing`,
    KIBITZ_CHESSLIVE_POLL_MS: '100',
  };
  const startBot = () => w.startBot({ env });
  await startBot();
  return { w, f, startBot };
}

/** What the live message shows last, after each of the Ruy Lopez moves. */
const SHOWN = ['1. e4', '1. e4 e5', '1. e4 e5 2. Nf3', '1. e4 e5 2. Nf3 Nc6', '1. e4 e5 2. Nf3 Nc6 3. Bb5'];

describe('/relay chesslive', () => {
  it('relays a growing file move by move to the end, with the result, the PGN and the GIF', async () => {
    const { w, f } = await start();
    const reply = await w.command('relay chesslive', { name: 'round1' }).reply();
    expect(reply.ephemeral).toBe(true);
    expect(reply.content).toBe(
      'Carlsen vs Nepo (ChessLive! "round1") is live here: the board updates as moves arrive.',
    );
    const post = w.livePosts()[0]!;
    expect(embedOf(post).title).toBe('round1: Carlsen vs Nepo');
    await expectImageShows(boardPng(post), START_FEN);

    for (let n = 1; n <= RUY_LOPEZ.length; n++) {
      f.write(chessLiveText('Carlsen', 'Nepo', RUY_LOPEZ.slice(0, n)));
      await w.waitForMessage(post.id, (m) => embedOf(m).description.endsWith(SHOWN[n - 1]!), `move ${n}`);
    }
    await expectImageShows(boardPng(w.fake.message(post.id)!), RUY_LOPEZ_FEN);
    f.write(chessLiveText('Carlsen', 'Nepo', RUY_LOPEZ, '+;Nepo resigns'));
    const game = makeChessLiveGame(0);
    // The final edit, then the same with the GIF.
    const final = await w.waitForMessage(
      post.id,
      (m) => m.attachments.some((a) => a.filename === `game-${game}.gif`),
      'the result and its GIF',
    );
    expect(embedOf(final).footer).toBe('1-0 · Nepo resigns');
    expect(buttonIds(final)).toEqual(['clip:1']);
    expect(linkButtons(final).map((link) => link.label)).toEqual(['Analyse on lichess']);
    await expectImageShows(boardPng(final), RUY_LOPEZ_FEN, 'white', true);
    const names = final.attachments.map((a) => a.filename);
    expect(names).toEqual(['board.png', `game-${game}.pgn`, `game-${game}-clocks.png`, `game-${game}.gif`]);
    const pgn = final.attachments[1]!.bytes.toString();
    expect(pgn).toContain('[White "Carlsen"]');
    expect(pgn).toContain('[ECO "C60"]\n[Opening "Ruy Lopez"]');
    expect(embedOf(final).description).toContain('C60 Ruy Lopez');
    expect(pgn).toContain(
      '1. e4 { [%clk 0:04:59] } e5 { [%clk 0:04:58] } 2. Nf3 { [%clk 0:04:55] } Nc6 { [%clk 0:04:50] } 3. Bb5 { [%clk 0:04:40] } 1-0',
    );

    // One message, edited once per move (each waited for), once at the end and once for the GIF.
    const shown = final.revisions.map((r) => embedOf(r).description.split('\n').at(-1));
    expect(shown.slice(1)).toEqual([...SHOWN, SHOWN[4], SHOWN[4]]);
    expect(w.livePosts()).toHaveLength(1);
    // Over: the source is not read any more.
    expect(w.running.context.chesslive.snapshot(game)!.ended).toBe(true);
  });

  it('goes on in the same message after a restart', async () => {
    const { w, f, startBot } = await start(true);
    await w.command('relay chesslive', { name: 'round1' }).reply();
    const post = w.livePosts()[0]!;
    f.write(chessLiveText('Carlsen', 'Nepo', RUY_LOPEZ.slice(0, 2)));
    await w.waitForMessage(post.id, (m) => embedOf(m).description.endsWith(SHOWN[1]!), 'two moves');
    await w.relayIdle();
    await w.stopBot();
    f.write(chessLiveText('Carlsen', 'Nepo', RUY_LOPEZ.slice(0, 4)));
    await startBot();
    await w.waitForMessage(post.id, (m) => embedOf(m).description.endsWith(SHOWN[3]!), 'caught up');
    f.write(chessLiveText('Carlsen', 'Nepo', RUY_LOPEZ, '-;Carlsen resigns'));
    const final = await w.waitForMessage(post.id, (m) => embedOf(m).footer !== null, 'the result');
    expect(embedOf(final).footer).toBe('0-1 · Carlsen resigns');
    expect(w.livePosts()).toHaveLength(1);
  });

  it('names the sources, and says what is wrong with one', async () => {
    const { w } = await start();
    const suggest = await w.fake
      .autocomplete(w.guildId, w.channelId, 'relay chesslive', { name: 'ro' }, 'name')
      .reply();
    expect(suggest.choices).toEqual([{ name: 'round1', value: 'round1' }]);
    const unknown = await w.command('relay chesslive', { name: 'round9' }).reply();
    expect(unknown.content).toBe('There is no ChessLive! source "round9". Sources: round1, gone.');
    const gone = await w.command('relay chesslive', { name: 'gone' }).reply();
    expect(gone.ephemeral).toBe(true);
    expect(gone.content).toBe('ChessLive! source "gone" cannot be read: ENOENT');
    expect(w.livePosts()).toEqual([]);
  });

  it('says so when the file holds a finished game', async () => {
    const { w, f } = await start();
    f.write(chessLiveText('Carlsen', 'Nepo', RUY_LOPEZ, '=;Draw agreed'));
    const reply = await w.command('relay chesslive', { name: 'round1' }).reply();
    expect(reply.content).toBe(
      'The ChessLive! source "round1" holds a finished game (Carlsen vs Nepo, 1/2-1/2): nothing left to relay live.',
    );
    expect(w.livePosts()).toEqual([]);
  });
});

describe('a FICS game with a large number, ChessLive! sources set up', () => {
  it('FICS game 1,000,001 comes from FICS: posted, ended with its FICS PGN, and unobserved on FICS when stopped', async () => {
    const { w } = await start();
    const script = fixture('lasker_flag#0');
    const game = w.fics.addGame(scriptOf(script), 1_000_001);
    const reply = await w.command('observe', { player: script.white }).reply();
    expect(reply.content).toMatch(/^Game 1000001, .* is live here/);
    const post = w.livePosts()[0]!;
    expect(embedOf(post).title).toBe(`Game 1000001: ${script.white} (1500) vs ${script.black} (1450)`);
    await expectImageShows(boardPng(post), START_FEN);

    w.fics.playAll(game);
    const ended = await w.waitForMessage(
      post.id,
      (m) => m.attachments.some((a) => a.filename === 'game-1000001.gif'),
      'the final edit and its GIF',
    );
    expect(embedOf(ended).footer).toBe(`0-1 · ${script.reason}`);
    await expectImageShows(boardPng(ended), script.fenFinal, 'white', true);
    expect(ended.attachments.map((a) => a.filename)).toEqual([
      'board.png',
      'game-1000001.pgn',
      'game-1000001-clocks.png',
      'game-1000001.gif',
    ]);
    const pgn = ended.attachments[1]!.bytes.toString();
    expect(pgn).toContain(`[White "${script.white}"]`);
    expect(pgn).toContain('[Site "127.0.0.1"]');
    expect(pgn).not.toContain('ChessLive!');
    // The ChessLive! source was never read for it.
    expect(w.running.context.chesslive.snapshot(makeChessLiveGame(0))).toBeUndefined();

    // The number again, for the next game: stopping its post stops FICS sending it.
    w.fics.addGame(scriptOf(script), 1_000_001);
    await w.command('observe', { player: script.white }).reply();
    const next = w.livePosts()[1]!;
    expect(w.fics.observers(1_000_001)).toHaveLength(1);
    const stop = buttonIds(next).find((id) => id.startsWith('stop:'))!;
    expect((await w.fake.button(next.id, stop).reply()).content).toBe('Stopped relaying game 1000001.');
    await w.fics.waitFor(() => w.fics.observers(1_000_001).length === 0, 'the unobserve');
  });
});
