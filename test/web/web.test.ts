// The live web page through the real bot: a real FICS game (a transcript's moves, served by the
// fake FICS) relayed into the fake Discord, its post's "Watch live" link, and the page's routes
// over HTTP on 127.0.0.1: the push stream in order, the PGN and ChessLive! files read back, the
// bounds on viewers, escaping, the security headers, /healthz and /metrics.
import { Chess } from 'chessops/chess';
import { makeFen } from 'chessops/fen';
import { parseSan } from 'chessops/san';
import { afterEach, describe, expect, it } from 'vitest';
import { parseChessLive } from '../../src/chesslive/read.js';
import { parsePgn } from '../../src/game/pgn.js';
import { CONTENT_SECURITY_POLICY } from '../../src/web/server.js';
import type { FakeMessage } from '../fake-discord/index.js';
import { GrowingFile, chessLiveText } from '../chesslive/serve.js';
import { World, fixture, scriptOf } from '../e2e/harness.js';
import { START_FEN, expectImageShows } from '../e2e/images.js';
import { SseClient } from './sse.js';

const NO_EDIT_LIMIT = { rateLimits: { messageEdit: { limit: 10_000, windowMs: 1_000 } } };
const PUBLIC_URL = 'https://kibitz.example.org';

let w: World | null = null;
const streams: SseClient[] = [];
let file: GrowingFile | null = null;
afterEach(async () => {
  for (const stream of streams.splice(0)) stream.close();
  await w?.close();
  w = null;
  file?.remove();
  file = null;
});

async function startWorld(): Promise<World> {
  return (w = await World.start({ discord: NO_EDIT_LIMIT }));
}

async function startBot(world: World, env: Record<string, string> = {}): Promise<string> {
  const bot = await world.startBot({ env: { KIBITZ_WEB_PORT: '0', KIBITZ_PUBLIC_URL: PUBLIC_URL, ...env } });
  if (bot.web === null) throw new Error('no web server');
  return bot.web.url;
}

/** The "Watch live" link of a post: its URL on the public address. */
function watchLink(post: FakeMessage): string {
  for (const row of post.components as { components?: { label?: string; url?: string; style?: number }[] }[])
    for (const c of row.components ?? []) if (c.label === 'Watch live' && c.url !== undefined) return c.url;
  throw new Error('the post has no Watch live link');
}

async function observe(world: World, game: number): Promise<{ post: FakeMessage; id: string }> {
  const reply = await world.command('observe', { game }).reply();
  expect(reply.content).toMatch(/is live here/);
  const post = world.livePosts().at(-1)!;
  const link = watchLink(post);
  const match = /^https:\/\/kibitz\.example\.org\/g\/([A-Za-z0-9_-]{22})$/.exec(link);
  expect(match, link).not.toBeNull();
  return { post, id: match![1]! };
}

async function fetchText(url: string): Promise<{ status: number; headers: Headers; body: string }> {
  const response = await fetch(url);
  return { status: response.status, headers: response.headers, body: await response.text() };
}

async function open(url: string): Promise<SseClient> {
  const stream = await SseClient.open(url);
  streams.push(stream);
  return stream;
}

/** The FEN after each SAN move from the standard start. */
function fensAfter(san: readonly string[]): string[] {
  const pos = Chess.default();
  return san.map((move) => {
    pos.play(parseSan(pos, move)!);
    return makeFen(pos.toSetup());
  });
}

/** One sample of a Prometheus text exposition: `name{labels} value`. */
function sample(text: string, name: string, labels = ''): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const [key, value] = line.split(' ');
    if (key === `${name}${labels}`) return Number(value);
  }
  return undefined;
}

describe('the live web page', () => {
  it('streams a relayed FICS game: full state first, then each move, then the end', async () => {
    const world = await startWorld();
    const script = fixture('lasker_flag#0');
    const game = world.fics.addGame(scriptOf(script));
    const base = await startBot(world);
    world.fics.playMoves(game, 2);
    const { id } = await observe(world, game);

    const stream = await open(`${base}/g/${id}/events`);
    expect(stream.status).toBe(200);
    expect(stream.response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(stream.response.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    const [first] = await stream.waitForEvents(1);
    expect(first!.type).toBe('state');
    const state = first!.data as { id: string; board: { san: string[]; white: string; fen: string } };
    expect(state.id).toBe(id);
    expect(state.board.white).toBe(script.white);
    expect(state.board.san).toEqual(script.san.slice(0, 2));
    const lichess = (fen: string) => `https://lichess.org/analysis/standard/${fen.replaceAll(' ', '_')}`;
    expect((state.board as { analysisUrl?: string }).analysisUrl).toBe(lichess(state.board.fen));

    const fens = fensAfter(script.san);
    for (let ply = 3; ply <= 6; ply++) world.fics.playMove(game);
    const moves = (await stream.waitForEvents(5)).slice(1);
    expect(moves.map((e) => e.type)).toEqual(['move', 'move', 'move', 'move']);
    moves.forEach((event, i) => {
      const move = event.data as Record<string, unknown>;
      expect(move).toMatchObject({
        ply: 3 + i,
        san: script.san[2 + i],
        fen: fens[2 + i],
        analysisUrl: lichess(fens[2 + i]!),
      });
      expect(move.uci).toMatch(/^[a-h][1-8][a-h][1-8][qrbn]?$/);
      expect(typeof move.whiteClockMs).toBe('number');
      expect(typeof move.blackClockMs).toBe('number');
    });

    // A second viewer joining now gets the whole game so far, in one event.
    const late = await open(`${base}/g/${id}/events`);
    const [lateState] = await late.waitForEvents(1);
    expect((lateState!.data as typeof state).board.san).toEqual(script.san.slice(0, 6));

    world.fics.endGame(game, '0-1', 'GuestAbcd forfeits on time');
    const ended = (await stream.waitForEvents(6))[5]!;
    expect(ended.type).toBe('state');
    expect((ended.data as { board: Record<string, unknown> }).board).toMatchObject({
      ended: true,
      result: '0-1',
      reason: 'GuestAbcd forfeits on time',
    });

    // The PGN and the ChessLive! file of the game, read back.
    const pgn = await fetchText(`${base}/g/${id}.pgn`);
    expect(pgn.status).toBe(200);
    const read = parsePgn(pgn.body);
    if (!read.ok) throw new Error(read.error);
    expect(read.value[0]!.san).toEqual(script.san.slice(0, 6));
    expect(read.value[0]!.result).toBe('0-1');

    const clv = await fetchText(`${base}/g/${id}.clv`);
    expect(clv.status).toBe(200);
    expect(clv.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    const parsed = parseChessLive(clv.body);
    if (!parsed.ok) throw new Error(parsed.error.message);
    const back = parsed.value.game;
    expect(back.white).toBe(script.white);
    expect(back.black).toBe(script.black);
    expect(back.san).toEqual(script.san.slice(0, 6));
    const uciSent = [
      ...(first!.data as { board: { uci: string[] } }).board.uci,
      ...moves.map((e) => (e.data as { uci: string }).uci),
    ];
    expect(back.uci).toEqual(uciSent);
    expect(back.result).toBe('0-1');
    expect(back.reason).toBe('GuestAbcd forfeits on time');
  });

  it('serves the page, the front page, health and metrics, read-only, with a strict CSP', async () => {
    const world = await startWorld();
    const strong = world.fics.addGame(
      scriptOf(fixture('lasker_flag#0'), { whiteRating: '2400', blackRating: '2350' }),
    );
    const weak = world.fics.addGame({
      ...scriptOf(fixture('lasker_flag#0')),
      white: 'Weaker',
      black: 'Weakest',
    });
    const base = await startBot(world);
    const { id: weakId } = await observe(world, weak);
    const { id: strongId } = await observe(world, strong);
    expect(weakId).not.toBe(strongId);

    const page = await fetchText(`${base}/g/${strongId}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(page.body).not.toMatch(/<script>|<style|\sstyle=|\son[a-z]+=/i);
    expect(page.body).toContain('<script type="module" src="/assets/live.js"></script>');
    expect(page.body).toContain(`data-events="/g/${strongId}/events"`);
    expect(page.body).toContain(
      `<a id="analyse" rel="noopener" href="https://lichess.org/analysis/standard/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR_w_KQkq_-_0_1">Analyse on lichess</a>`,
    );

    // A pasted link's preview: players and "live", the position, and the board picture served here.
    const meta = (property: string) =>
      new RegExp(`<meta property="${property}" content="([^"]*)">`).exec(page.body)?.[1];
    const { white, black } = fixture('lasker_flag#0');
    expect(meta('og:title')).toBe(`${white} (2400) vs ${black} (2350) · live`);
    expect(meta('og:description')).toBe('unrated lightning 1 0, White to move');
    expect(meta('og:url')).toBe(`${PUBLIC_URL}/g/${strongId}`);
    expect(meta('og:image')).toBe(`${PUBLIC_URL}/g/${strongId}.png`);
    expect(page.body).toContain('<meta name="twitter:card" content="summary_large_image">');
    const picture = await fetch(`${base}/g/${strongId}.png`);
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toBe('image/png');
    await expectImageShows(Buffer.from(await picture.arrayBuffer()), START_FEN);

    // Strongest first.
    const front = await fetchText(`${base}/`);
    expect(front.status).toBe(200);
    const linked = [...front.body.matchAll(/href="\/g\/([A-Za-z0-9_-]{22})"/g)].map((m) => m[1]);
    expect(linked).toEqual([strongId, weakId]);

    for (const asset of [
      'live.js',
      'live.css',
      'chessground.js',
      'chessground.base.css',
      'chessground.cburnett.css',
    ]) {
      const served = await fetchText(`${base}/assets/${asset}`);
      expect(served.status, asset).toBe(200);
      expect(served.headers.get('content-type'), asset).toMatch(/^text\/(javascript|css); charset=utf-8$/);
    }
    expect((await fetchText(`${base}/assets/..%2fpackage.json`)).status).toBe(404);

    // Unknown ids: 404 everywhere, with no hint of which games exist.
    const unknown = 'AAAAAAAAAAAAAAAAAAAAAA';
    for (const path of [
      `/g/${unknown}`,
      `/g/${unknown}/events`,
      `/g/${unknown}.pgn`,
      `/g/${unknown}.clv`,
      '/g/1',
    ])
      expect((await fetchText(`${base}${path}`)).status, path).toBe(404);

    // Read-only: no other method is served.
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const response = await fetch(`${base}/g/${strongId}`, { method });
      expect(response.status, method).toBe(404);
    }

    const head = await fetch(`${base}/g/${strongId}/events`, { method: 'HEAD' });
    expect(head.status).toBe(200);

    const health = await fetchText(`${base}/healthz`);
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body)).toEqual({
      ok: true,
      discord: 'ready',
      fics: { online: 1, connections: 1 },
      database: 'ok',
      databaseError: null,
      queuedWrites: 0,
    });

    const viewer = await open(`${base}/g/${strongId}/events`);
    await viewer.waitForEvents(1);
    world.fics.playMove(strong);
    await viewer.waitForEvents(2);
    await world.relayIdle();
    const metrics = await fetchText(`${base}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(sample(metrics.body, 'kibitz_live_games')).toBe(2);
    expect(sample(metrics.body, 'kibitz_web_viewers')).toBe(1);
    expect(sample(metrics.body, 'kibitz_fics_connections')).toBe(1);
    expect(sample(metrics.body, 'kibitz_fics_reconnects_total')).toBe(0);
    expect(sample(metrics.body, 'kibitz_discord_requests_total', '{status="200"}')).toBeGreaterThan(2);
    expect(sample(metrics.body, 'kibitz_edit_seconds_count')).toBeGreaterThanOrEqual(1);
    expect(sample(metrics.body, 'kibitz_render_seconds_count')).toBeGreaterThanOrEqual(3);
    viewer.close();
  });

  it('bounds viewers per game (429) and in total (503), with a clear body', async () => {
    const world = await startWorld();
    const a = world.fics.addGame(scriptOf(fixture('lasker_flag#0')));
    const b = world.fics.addGame({ ...scriptOf(fixture('lasker_flag#0')), white: 'Other', black: 'Players' });
    const base = await startBot(world, { KIBITZ_WEB_MAX_VIEWERS: '3', KIBITZ_WEB_MAX_VIEWERS_PER_GAME: '2' });
    const { id: idA } = await observe(world, a);
    const { id: idB } = await observe(world, b);

    for (let i = 0; i < 2; i++) expect((await open(`${base}/g/${idA}/events`)).status).toBe(200);
    const overGame = await open(`${base}/g/${idA}/events`);
    expect(overGame.status).toBe(429);
    expect(overGame.response.headers['retry-after']).toBe('60');
    expect(await overGame.text()).toMatch(/This game has as many live viewers as Kibitz allows/);

    const third = await open(`${base}/g/${idB}/events`);
    expect(third.status).toBe(200);
    await third.waitForEvents(1);
    const overAll = await open(`${base}/g/${idB}/events`);
    expect(overAll.status).toBe(503);
    expect(await overAll.text()).toMatch(/Kibitz has as many live viewers as it allows/);

    // A viewer leaving makes room again.
    third.close();
    await world.fake.waitFor(
      async () => ((await open(`${base}/g/${idB}/events`)).status === 200 ? true : undefined),
      'room for a viewer again',
    );
  });

  it('escapes names from a ChessLive! file, lists a public source, and writes its file back', async () => {
    const world = await startWorld();
    const evil = '<img src=x onerror="alert(1)"> & Co';
    const f = (file = new GrowingFile(
      chessLiveText(evil, "O'Brien</title>", ['e2:e4/0/0/299', 'e7:e5/0/0/298']),
    ));
    const base = await startBot(world, {
      KIBITZ_CHESSLIVE_SOURCES: `round1=${f.path}`,
      KIBITZ_CHESSLIVE_POLL_MS: '100',
      KIBITZ_WEB_PUBLIC_SOURCES: 'round1',
    });
    const reply = await world.command('relay chesslive', { name: 'round1' }).reply();
    expect(reply.content).toMatch(/is live here/);
    const post = world.livePosts().at(-1)!;
    const id = /\/g\/([A-Za-z0-9_-]{22})$/.exec(watchLink(post))![1]!;

    for (const path of [`/g/${id}`, '/']) {
      const page = await fetchText(`${base}${path}`);
      expect(page.body, path).not.toContain('<img');
      expect(page.body, path).not.toContain('</title>"');
      expect(page.body, path).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; Co');
      expect(page.body, path).toContain('O&#39;Brien&lt;/title&gt;');
    }
    const clv = await fetchText(`${base}/g/${id}.clv`);
    const read = parseChessLive(clv.body);
    if (!read.ok) throw new Error(read.error.message);
    expect(read.value.game.white).toBe(evil);
    expect(read.value.game.uci).toEqual(['e2e4', 'e7e5']);
  });
});
