// A growing ChessLive! move file for tests, on disk and over HTTP on 127.0.0.1.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A Ruy Lopez, 1. e4 e5 2. Nf3 Nc6 3. Bb5, as MoveSpecs with Time (the mover's clock). */
export const RUY_LOPEZ = [
  'e2:e4/0/0/299',
  'e7:e5/0/0/298',
  'g1:f3/0/0/295/N',
  'b8:c6/0/0/290/N',
  'f1:b5/0/0/280/B',
];
export const RUY_LOPEZ_SAN = ['e4', 'e5', 'Nf3', 'Nc6', 'Bb5'];
export const RUY_LOPEZ_FEN = 'r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3';

/** The file after `moves` MoveSpecs (and the result, when given). */
export function chessLiveText(
  white: string,
  black: string,
  moves: readonly string[],
  result?: string,
): string {
  return `${white};${black};${moves.map((m) => `${m};`).join('')}${result ?? ''}`;
}

export class GrowingFile {
  readonly path: string;
  private readonly dir: string;

  constructor(text = '') {
    this.dir = mkdtempSync(join(tmpdir(), 'kibitz-chesslive-'));
    this.path = join(this.dir, 'game.txt');
    this.write(text);
  }

  write(text: string): void {
    writeFileSync(this.path, text);
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Serves `text` (changeable) at /game.txt, byte ranges too as web servers do; other paths are 404. */
export class GrowingUrl {
  text = '';
  requests = 0;
  /** The Range header of each request (null without one). */
  readonly ranges: (string | null)[] = [];
  /** Body bytes sent. */
  sent = 0;

  private constructor(private readonly server: Server) {}

  static async start(text: string): Promise<GrowingUrl> {
    const server = createServer();
    const served = new GrowingUrl(server);
    served.text = text;
    server.on('request', (request, response) => {
      served.requests++;
      if (request.url !== '/game.txt') {
        response.writeHead(404).end('not here');
        return;
      }
      served.ranges.push(request.headers.range ?? null);
      const body = Buffer.from(served.text);
      const range = /^bytes=(\d+)-$/.exec(request.headers.range ?? '');
      const type = { 'content-type': 'text/plain; charset=utf-8' };
      if (range === null) {
        served.sent += body.length;
        response.writeHead(200, type).end(body);
        return;
      }
      const start = Number(range[1]);
      if (start >= body.length) {
        response.writeHead(416, { 'content-range': `bytes */${body.length}` }).end();
        return;
      }
      served.sent += body.length - start;
      response
        .writeHead(206, { ...type, 'content-range': `bytes ${start}-${body.length - 1}/${body.length}` })
        .end(body.subarray(start));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return served;
  }

  url(path = '/game.txt'): string {
    const address = this.server.address();
    if (address === null || typeof address === 'string') throw new Error('not listening');
    return `http://127.0.0.1:${address.port}${path}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
