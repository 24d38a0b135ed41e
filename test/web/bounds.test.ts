// The web server's bounds on hostile clients, against the real server on 127.0.0.1: open streams
// per client address, request bodies refused unread, every refusal (fastify's and Node's own
// included) with the security headers and without the request's text, error logs rate-limited.
import { EventEmitter } from 'node:events';
import { get, request, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { parseChessLive } from '../../src/chesslive/read.js';
import { snapshotOfRead } from '../../src/chesslive/source.js';
import type { TrackerUpdate } from '../../src/game/tracker.js';
import { LiveGames } from '../../src/web/games.js';
import { Metrics } from '../../src/web/metrics.js';
import { SECURITY_HEADERS, startWebServer, type WebServer } from '../../src/web/server.js';
import { gameId } from '../support/fics-values.js';

const closing: (() => unknown)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

async function serve(options: { maxViewers?: number; maxStreamsPerAddress?: number } = {}) {
  const read = parseChessLive('Alice;Bob;e2:e4');
  if (!read.ok) throw new Error(read.error.message);
  const snapshot = {
    ...snapshotOfRead(read.value, { key: '1:1', game: gameId(1), source: 'x' }),
    source: null,
  };
  const feed = new EventEmitter<{ update: [TrackerUpdate] }>();
  const games = new LiveGames({
    feed: { on: feed.on.bind(feed), off: feed.off.bind(feed), snapshot: () => undefined },
    isRelayed: () => true,
    relayed: () => Promise.resolve([snapshot]),
    publicSources: [],
    maxViewers: options.maxViewers ?? 10_000,
    maxViewersPerGame: 10_000,
  });
  const lines: { msg: string }[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  const metrics = new Metrics({ liveGames: () => 1, viewers: () => games.viewers, ficsConnections: () => 1 });
  const server: WebServer = await startWebServer(
    {
      games,
      metrics,
      logger,
      health: () => ({ ok: true, discord: 'ready', fics: { online: 1, connections: 1 }, database: 'ok' }),
      ...(options.maxStreamsPerAddress === undefined
        ? {}
        : { maxStreamsPerAddress: options.maxStreamsPerAddress }),
    },
    '127.0.0.1',
    0,
  );
  closing.push(() => server.close());
  return { server, id: games.idFor(snapshot), lines };
}

/** Opens a push stream from `localAddress`; resolves with its response (kept open). */
function openStream(url: string, localAddress: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = get(url, { localAddress, agent: false }, (response) => {
      response.resume();
      closing.push(() => response.destroy());
      resolve(response);
    });
    req.on('error', reject);
  });
}

/** Sends raw bytes and reads the whole answer until the server closes the connection. */
function raw(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(answer));
  });
}

function expectSecurityHeaders(answer: string): void {
  const head = answer.split('\r\n\r\n')[0]!.toLowerCase();
  for (const [name, value] of Object.entries(SECURITY_HEADERS))
    expect(head).toContain(`${name}: ${value.toLowerCase()}`);
}

describe('the web server against hostile clients', () => {
  it('one address opening 1,000 streams gets its limit; a second address still gets in', async () => {
    const { server, id } = await serve({ maxViewers: 100, maxStreamsPerAddress: 20 });
    const url = `${server.url}/g/${id}/events`;
    const statuses = new Map<number, number>();
    for (let i = 0; i < 1_000; i++) {
      const response = await openStream(url, '127.0.0.1');
      statuses.set(response.statusCode!, (statuses.get(response.statusCode!) ?? 0) + 1);
      if (response.statusCode !== 200) response.destroy();
    }
    expect(Object.fromEntries(statuses)).toEqual({ 200: 20, 429: 980 });
    const other = await openStream(url, '127.0.0.2');
    expect(other.statusCode).toBe(200);
    console.info(
      `figure: one address opened 1,000 streams: ${statuses.get(200)} admitted, ${statuses.get(429)} refused (429); a second address got ${other.statusCode}`,
    );
  });

  it("counts the front page's stream against the same per-address bound as a game's", async () => {
    const { server, id } = await serve({ maxViewers: 100, maxStreamsPerAddress: 20 });
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++)
      statuses.push((await openStream(`${server.url}/g/${id}/events`, '127.0.0.1')).statusCode!);
    for (let i = 0; i < 15; i++) {
      const response = await openStream(`${server.url}/events`, '127.0.0.1');
      statuses.push(response.statusCode!);
      if (response.statusCode !== 200) response.destroy();
    }
    expect(statuses).toEqual([...Array<number>(20).fill(200), ...Array<number>(5).fill(429)]);
    expect((await openStream(`${server.url}/events`, '127.0.0.2')).statusCode).toBe(200);
  });

  it('refuses a body at once with 413, unread, and closes the connection', async () => {
    const { server } = await serve();
    // Announces 10 MB and sends 10 bytes: the answer comes without the rest, and the socket closes.
    const answer = await raw(
      server.port,
      'POST /g/x HTTP/1.1\r\nHost: a\r\nContent-Length: 10000000\r\nContent-Type: text/plain\r\n\r\n0123456789',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expectSecurityHeaders(answer);
    const chunked = await raw(
      server.port,
      'POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nContent-Type: text/plain\r\n\r\n5\r\nhello\r\n',
    );
    expect(chunked).toMatch(/^HTTP\/1\.1 413 /);
  });

  it("answers fastify's and Node's own refusals with the security headers, echoing nothing", async () => {
    const { server } = await serve();
    const badUrl = await raw(
      server.port,
      'GET /%zz<script>%ff HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n',
    );
    expect(badUrl).toMatch(/^HTTP\/1\.1 400 /);
    expectSecurityHeaders(badUrl);
    expect(badUrl).not.toContain('<script>');
    const huge = await raw(server.port, `GET / HTTP/1.1\r\nHost: a\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`);
    expect(huge).toMatch(/^HTTP\/1\.1 431 /);
    expectSecurityHeaders(huge);
    const garbage = await raw(server.port, 'NOT HTTP AT ALL <script>\r\n\r\n');
    expect(garbage).toMatch(/^HTTP\/1\.1 400 /);
    expectSecurityHeaders(garbage);
    expect(garbage).not.toContain('<script>');
  });

  it('logs no line per refused request', async () => {
    const { server, lines } = await serve();
    for (let i = 0; i < 50; i++) {
      const status = await new Promise<number>((resolve, reject) => {
        const req = request(`${server.url}/`, { method: 'POST', agent: false }, (response) => {
          response.resume();
          resolve(response.statusCode!);
        });
        req.on('error', reject);
        req.end('x'.repeat(2_000));
      });
      expect(status).toBe(413);
    }
    // A request after them is answered: they were all handled before it.
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect(lines.filter((line) => line.msg === 'web request failed')).toEqual([]);
  });
});
