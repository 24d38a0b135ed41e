// The live web page's HTTP server (fastify): the front page, each game's page, its push stream,
// its PGN and ChessLive! file, the health check and the metrics. Everything is read-only (GET and
// the HEAD fastify adds), every response carries a Content-Security-Policy that allows the page's
// own scripts and styles only, and the push streams are bounded in number and in buffered bytes.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { formatClock, LOW_CLOCK_MS } from '../../render/index.js';
import { makeChessLive } from '../chesslive/write.js';
import { makeSnapshotPgn } from '../game/pgn.js';
import type { Logger } from '../log.js';
import type { LiveGames } from './games.js';
import type { Metrics } from './metrics.js';
import { errorPage, frontPage, livePage } from './pages.js';
import { EventStream } from './stream.js';

export interface Health {
  /** Whether every part answers; the status code stays 200 (the server itself answers). */
  ok: boolean;
  discord: string;
  fics: { online: number; connections: number };
  database: string;
}

export interface WebServerOptions {
  games: LiveGames;
  metrics: Metrics;
  health(): Health;
  logger: Logger;
  /** Bytes a viewer's stream may have waiting before the viewer is dropped (256 KiB by default). */
  maxBufferedBytes?: number;
  /** Time between two keep-alive comments on every stream (25 s by default). */
  pingMs?: number;
}

export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  // chessground's piece and board pictures are data: URLs in its style sheets.
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** A page id: 128 random bits in base64url (games.ts). */
const PAGE = /^([A-Za-z0-9_-]{22})(?:\.(pgn|clv))?$/;

interface Asset {
  type: string;
  body: Buffer;
}

/** The page's files: chessground from the package, the client script and style from src/web/client. */
function loadAssets(): Map<string, Asset> {
  const require = createRequire(import.meta.url);
  const chessground = require
    .resolve('@lichess-org/chessground')
    .replace(/chessground\.js$/, 'chessground.min.js');
  const css = (name: string): string => require.resolve(`@lichess-org/chessground/assets/${name}`);
  // Beside this module under tsx; from dist/src/web (npm run build copies no .js or .css) the source's.
  const folder = [new URL('./client/', import.meta.url), new URL('../../../src/web/client/', import.meta.url)]
    .map((url) => fileURLToPath(url))
    .find((path) => existsSync(path));
  const client = (name: string): string => join(folder ?? '', name);
  const files: [string, string, string][] = [
    ['chessground.js', chessground, 'text/javascript'],
    ['chessground.base.css', css('chessground.base.css'), 'text/css'],
    ['chessground.brown.css', css('chessground.brown.css'), 'text/css'],
    ['chessground.cburnett.css', css('chessground.cburnett.css'), 'text/css'],
    ['live.js', client('live.js'), 'text/javascript'],
    ['live.css', client('live.css'), 'text/css'],
  ];
  const assets = new Map(
    files.map(([name, path, type]) => [name, { type: `${type}; charset=utf-8`, body: readFileSync(path) }]),
  );
  // The pictures' own clock formatter, served as it is: the page and the pictures cannot disagree.
  const clock = `export ${formatClock.toString()}\nexport const LOW_CLOCK_MS = ${LOW_CLOCK_MS};\n`;
  assets.set('clock.js', { type: 'text/javascript; charset=utf-8', body: Buffer.from(clock) });
  return assets;
}

export function buildWebApp(options: WebServerOptions): FastifyInstance {
  const { games, metrics } = options;
  const maxBufferedBytes = options.maxBufferedBytes ?? 256 * 1024;
  const assets = loadAssets();
  // Streams never end by themselves: closing the server ends them rather than waiting for them.
  const app = Fastify({
    logger: false,
    bodyLimit: 1024,
    forceCloseConnections: true,
  });
  app.addHook('onSend', async (_request, reply) => {
    reply.headers(SECURITY_HEADERS);
  });
  app.setNotFoundHandler((_request, reply) =>
    html(reply.code(404), errorPage('Not found', 'There is no such page here.')),
  );
  app.setErrorHandler((error, _request, reply) => {
    options.logger.warn({ err: error }, 'web request failed');
    return reply.code(500).type('text/plain; charset=utf-8').send('Internal error');
  });

  app.get('/', async (_request, reply) =>
    html(reply.header('cache-control', 'no-store'), frontPage(await games.list())),
  );

  app.get<{ Params: { name: string } }>('/g/:name', (request, reply) => {
    const match = PAGE.exec(request.params.name);
    const id = match?.[1];
    const snapshot = id === undefined ? undefined : games.snapshot(id);
    if (id === undefined || snapshot === undefined) return notFound(reply);
    reply.header('cache-control', 'no-store');
    if (match![2] === 'pgn')
      return reply.type('application/x-chess-pgn; charset=utf-8').send(makeSnapshotPgn(snapshot));
    if (match![2] === 'clv') {
      const file = makeChessLive(snapshot);
      if (!file.ok)
        return reply
          .code(404)
          .type('text/plain; charset=utf-8')
          .send(`No ChessLive! file for this game: ${file.error}`);
      return reply.type('text/plain; charset=utf-8').send(file.value);
    }
    return html(reply, livePage(id, snapshot));
  });

  app.get<{ Params: { id: string } }>('/g/:id/events', (request, reply) => {
    const id = request.params.id;
    const admission = PAGE.test(id) ? games.admits(id) : 'unknown';
    if (admission === 'unknown') return notFound(reply);
    if (admission !== 'ok') {
      // The page's EventSource tries again by itself; Retry-After says when it is worth it.
      const [code, text] =
        admission === 'full'
          ? [503, 'Kibitz has as many live viewers as it allows; try again in a minute.']
          : [429, 'This game has as many live viewers as Kibitz allows; try again in a minute.'];
      return reply.code(code).header('retry-after', '60').type('text/plain; charset=utf-8').send(text);
    }
    // A HEAD request gets the headers only: it is no viewer.
    if (request.method === 'HEAD') return reply.type('text/event-stream; charset=utf-8').send();
    reply.hijack();
    const response = reply.raw;
    response.writeHead(200, {
      ...SECURITY_HEADERS,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      // A proxy (nginx) must pass each event on at once rather than buffer the stream.
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
    });
    // Small writes go out at once (each event is one write).
    request.raw.socket.setNoDelay(true);
    const stream = new EventStream(response, maxBufferedBytes, (closed, dropped) => {
      games.leave(id, closed);
      if (dropped) metrics.viewersDropped.inc();
    });
    // The browser waits this long before reconnecting after a drop.
    response.write('retry: 2000\n\n');
    games.watch(id, stream);
  });

  app.get('/healthz', (_request, reply) => reply.header('cache-control', 'no-store').send(options.health()));

  app.get('/metrics', async (_request, reply) =>
    reply
      .header('cache-control', 'no-store')
      .type(metrics.registry.contentType)
      .send(await metrics.registry.metrics()),
  );

  app.get<{ Params: { name: string } }>('/assets/:name', (request, reply) => {
    const asset = assets.get(request.params.name);
    if (asset === undefined) return notFound(reply);
    return reply.header('cache-control', 'public, max-age=3600').type(asset.type).send(asset.body);
  });

  return app;
}

function html(reply: FastifyReply, body: string): FastifyReply {
  return reply.type('text/html; charset=utf-8').send(body);
}

function notFound(reply: FastifyReply): FastifyReply {
  return html(
    reply.code(404),
    errorPage('Not found', 'This game is not relayed (any more), or the address is wrong.'),
  );
}

export interface WebServer {
  /** `http://host:port` it listens on. */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/** Starts listening; rejects (with the reason) when the address is taken or not allowed. */
export async function startWebServer(
  options: WebServerOptions,
  host: string,
  port: number,
): Promise<WebServer> {
  const app = buildWebApp(options);
  await app.listen({ host, port });
  const address = app.server.address();
  const bound = typeof address === 'object' && address !== null ? address.port : port;
  const ping = setInterval(() => options.games.ping(':\n\n'), options.pingMs ?? 25_000);
  ping.unref();
  const sweep = setInterval(() => options.games.sweep(), 30_000);
  sweep.unref();
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}`,
    port: bound,
    close: async () => {
      clearInterval(ping);
      clearInterval(sweep);
      await app.close();
    },
  };
}
