// The live web page's HTTP server (fastify): the front page, each game's page, its push stream,
// its PGN and ChessLive! file, the health check and the metrics. Everything is read-only (GET and
// the HEAD fastify adds), every response carries a Content-Security-Policy that allows the page's
// own scripts and styles only, and the push streams are bounded in number and in buffered bytes.
import { existsSync, readFileSync } from 'node:fs';
import { createServer, STATUS_CODES } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { formatClock, LOW_CLOCK_MS } from '../../render/index.js';
import { makeChessLive } from '../chesslive/write.js';
import { makeSnapshotPgn } from '../game/pgn.js';
import type { GameSnapshot } from '../game/snapshot.js';
import { shortened, type Logger } from '../log.js';
import { LogWindow } from '../log-window.js';
import type { Admission, LiveGames } from './games.js';
import type { Metrics } from './metrics.js';
import { errorPage, frontPage, livePage, themesCss } from './pages.js';
import { isThemeName, type ThemeName } from '../../render/theme.js';
import { EventStream } from './stream.js';

export interface Health {
  /** Whether every part answers; the status code stays 200 (the server itself answers). */
  ok: boolean;
  discord: string;
  fics: { online: number; connections: number };
  /** `ok`, or `failing` while the database takes no write (`databaseError` says why). */
  database: string;
  databaseError?: string | null;
  /** Writes waiting for the database (src/storage/writes.ts). */
  queuedWrites?: number;
}

export interface WebServerOptions {
  games: LiveGames;
  metrics: Metrics;
  /** Asked on each /healthz: it may try a database write. */
  health(): Health | Promise<Health>;
  logger: Logger;
  /** Bytes a viewer's stream may have waiting before the viewer is dropped (256 KiB by default). */
  maxBufferedBytes?: number;
  /** Time between two keep-alive comments on every stream (25 s by default). */
  pingMs?: number;
  /** KIBITZ_WEB_MAX_STREAMS_PER_ADDRESS: open push streams from one client address. */
  maxStreamsPerAddress?: number;
  /** KIBITZ_PUBLIC_URL: the page's link preview names its picture by an absolute URL; none when null. */
  publicUrl?: string | null;
  /** A game's board as PNG (the posts' own render, cached per position): `/g/<id>.png`. */
  boardPicture?: (snapshot: GameSnapshot, theme?: ThemeName) => Promise<Buffer>;
  /** KIBITZ_WEB_TRUST_PROXY: the reverse proxy whose X-Forwarded-For names the client (fastify's trustProxy). */
  trustProxy?: string;
}

/** Open push streams one client address may hold: a few tabs, not every slot. */
export const DEFAULT_MAX_STREAMS_PER_ADDRESS = 20;
/** Time a request may take to arrive whole (headers and all); a stream is not bounded by it. */
const REQUEST_TIMEOUT_MS = 10_000;
/** Error lines logged per minute; the rest are counted. */
const ERROR_LOG_LIMITS = { burst: 10, windowMs: 60_000 };

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

export const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** A page id: 128 random bits in base64url (games.ts). */
const PAGE = /^([A-Za-z0-9_-]{22})(?:\.(pgn|clv|png))?$/;

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
    ['front.js', client('front.js'), 'text/javascript'],
    ['common.js', client('common.js'), 'text/javascript'],
    ['sound.js', client('sound.js'), 'text/javascript'],
    ['live.css', client('live.css'), 'text/css'],
  ];
  const assets = new Map(
    files.map(([name, path, type]) => [name, { type: `${type}; charset=utf-8`, body: readFileSync(path) }]),
  );
  // The pictures' own clock formatter, served as it is: the page and the pictures cannot disagree.
  const clock = `export ${formatClock.toString()}\nexport const LOW_CLOCK_MS = ${LOW_CLOCK_MS};\n`;
  assets.set('clock.js', { type: 'text/javascript; charset=utf-8', body: Buffer.from(clock) });
  // The board colours of the pictures' themes, from the same table (render/theme.ts).
  assets.set('themes.css', { type: 'text/css; charset=utf-8', body: Buffer.from(themesCss()) });
  return assets;
}

export function buildWebApp(options: WebServerOptions): FastifyInstance {
  const { games, metrics } = options;
  const maxBufferedBytes = options.maxBufferedBytes ?? 256 * 1024;
  const assets = loadAssets();
  const errorLog = new LogWindow(
    { now: Date.now, after: (ms, fn) => setTimeout(fn, ms).unref() },
    ERROR_LOG_LIMITS,
    (suppressed, windowMs) =>
      options.logger.warn({ suppressed, windowMs }, 'more web requests failed; not logged one by one'),
  );
  const streamsFrom = new Map<string, number>();
  const maxStreamsPerAddress = options.maxStreamsPerAddress ?? DEFAULT_MAX_STREAMS_PER_ADDRESS;
  // Streams never end by themselves: closing the server ends them rather than waiting for them.
  const app = Fastify({
    logger: false,
    bodyLimit: 1024,
    forceCloseConnections: true,
    ...(options.trustProxy === undefined ? {} : { trustProxy: options.trustProxy }),
    // Node checks request times every 30 s by default: a body that never ends would hold its
    // socket that long; here a request that has not arrived whole in 10 s is dropped within 1 s more.
    serverFactory: (handler) =>
      createServer(
        {
          requestTimeout: REQUEST_TIMEOUT_MS,
          headersTimeout: REQUEST_TIMEOUT_MS,
          connectionsCheckingInterval: 1_000,
        },
        handler,
      ),
    // Node's own refusals (malformed request, headers too large, too slow): the same headers, no input echoed.
    clientErrorHandler: (error, socket) => {
      if (socket.destroyed || (error as NodeJS.ErrnoException).code === 'ECONNRESET') return;
      const code = (error as NodeJS.ErrnoException).code;
      const status = code === 'HPE_HEADER_OVERFLOW' ? 431 : code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
      if (socket.writable) socket.write(rawAnswer(status));
      socket.destroy();
    },
    // fastify's own refusals (a URL it cannot decode) would echo the path.
    frameworkErrors: (_error, _request, reply) => void plain(reply as FastifyReply, STATUS_CODES[400]!, 400),
  });
  app.addHook('onSend', async (_request, reply) => {
    reply.headers(SECURITY_HEADERS);
  });
  // Everything here is GET or HEAD: a body is refused at once, unread, and its connection closed.
  app.addHook('onRequest', async (request, reply) => {
    const { headers } = request;
    if (headers['transfer-encoding'] === undefined && Number(headers['content-length'] ?? 0) === 0) return;
    return plain(reply.header('connection', 'close'), 'This server takes no request bodies.', 413);
  });
  app.setNotFoundHandler((_request, reply) =>
    html(reply.code(404), errorPage('Not found', 'There is no such page here.')),
  );
  app.setErrorHandler((error: { statusCode?: number; code?: string; message?: string }, _request, reply) => {
    const status = error.statusCode !== undefined && error.statusCode >= 400 ? error.statusCode : 500;
    // The client's mistake (4xx) is its answer, not a log line; ours is logged, shortened, rate-limited.
    if (status >= 500 && errorLog.admit())
      options.logger.warn(
        { code: error.code, message: shortened(String(error.message)) },
        'web request failed',
      );
    return plain(
      reply as FastifyReply,
      status >= 500 ? 'Internal error' : (STATUS_CODES[status] ?? 'Refused'),
      status,
    );
  });

  app.get('/', async (_request, reply) =>
    html(reply.header('cache-control', 'no-store'), frontPage(await games.front())),
  );

  // The front page's one stream: its mini-boards, then each change of one.
  app.get('/events', async (request, reply) => {
    const admission = games.admitsFront();
    // The boards are chosen again (a database read) only for a stream that will be admitted.
    if (admission === 'ok' && !addressFull(request.ip)) await games.front();
    return openStream(
      request,
      reply,
      admission,
      'front page',
      (stream) => games.watchFront(stream),
      (stream) => games.leaveFront(stream),
    );
  });

  app.get<{ Params: { name: string }; Querystring: { theme?: unknown } }>('/g/:name', (request, reply) => {
    const match = PAGE.exec(request.params.name);
    // The posting server's board colours (/settings theme); anything else is the default.
    const asked = request.query.theme;
    const theme = typeof asked === 'string' && isThemeName(asked) ? asked : undefined;
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
    if (match![2] === 'png') {
      if (options.boardPicture === undefined) return notFound(reply);
      // A link preview fetches it once; the position may change a second later.
      return options
        .boardPicture(snapshot, theme)
        .then((png) => reply.header('cache-control', 'public, max-age=5').type('image/png').send(png));
    }
    return html(reply, livePage(id, snapshot, options.publicUrl ?? null, theme));
  });

  app.get<{ Params: { id: string } }>('/g/:id/events', (request, reply) => {
    const id = request.params.id;
    const admission = PAGE.test(id) ? games.admits(id) : 'unknown';
    if (admission === 'unknown') return notFound(reply);
    return openStream(
      request,
      reply,
      admission,
      'game',
      (stream) => games.watch(id, stream),
      (stream) => games.leave(id, stream),
    );
  });

  function addressFull(address: string): boolean {
    return (streamsFrom.get(address) ?? 0) >= maxStreamsPerAddress;
  }

  /**
   * A push stream, admitted or refused: the per-address bound first, then the page's own
   * (`admission`). Each stream counts against its address until it closes.
   */
  function openStream(
    request: FastifyRequest,
    reply: FastifyReply,
    admission: Exclude<Admission, 'unknown'>,
    /** What the page shows, for the refusal's sentence. */
    shows: string,
    watch: (stream: EventStream) => void,
    leave: (stream: EventStream) => void,
  ): FastifyReply | undefined {
    const address = request.ip;
    const fromAddress = streamsFrom.get(address) ?? 0;
    if (admission === 'ok' && addressFull(address))
      return plain(
        reply.header('retry-after', '60'),
        'This address has as many live pages open as Kibitz allows; close one or try again in a minute.',
        429,
      );
    if (admission !== 'ok') {
      // The page's EventSource tries again by itself; Retry-After says when it is worth it.
      const [code, text] =
        admission === 'full'
          ? [503, 'Kibitz has as many live viewers as it allows; try again in a minute.']
          : [429, `This ${shows} has as many live viewers as Kibitz allows; try again in a minute.`];
      return plain(reply.header('retry-after', '60'), text, code);
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
    streamsFrom.set(address, fromAddress + 1);
    const stream = new EventStream(response, maxBufferedBytes, (closed, dropped) => {
      const left = (streamsFrom.get(address) ?? 1) - 1;
      if (left > 0) streamsFrom.set(address, left);
      else streamsFrom.delete(address);
      leave(closed);
      if (dropped) metrics.viewersDropped.inc();
    });
    // The browser waits this long before reconnecting after a drop.
    response.write('retry: 2000\n\n');
    watch(stream);
    return undefined;
  }

  app.get('/healthz', async (_request, reply) =>
    reply.header('cache-control', 'no-store').send(await options.health()),
  );

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

/** A short plain-text answer that echoes nothing of the request. */
function plain(reply: FastifyReply, text: string, status: number): FastifyReply {
  return reply.code(status).headers(SECURITY_HEADERS).type('text/plain; charset=utf-8').send(text);
}

/** A whole HTTP answer written straight to a socket that fastify never saw as a request. */
function rawAnswer(status: number): string {
  const body = `${STATUS_CODES[status] ?? 'Bad Request'}\n`;
  const headers = Object.entries({
    ...SECURITY_HEADERS,
    'content-type': 'text/plain; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
  }).map(([name, value]) => `${name}: ${value}\r\n`);
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${headers.join('')}\r\n${body}`;
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
