// ChessLive! sources at small limits: sizes checked before and while reading, redirects and time
// bounded, only the bytes appended since the last poll read, a source that outgrows the limit
// reported once and no longer relayed, a game past the ply limit ended.
import { createServer, type Server, type ServerResponse } from 'node:http';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { readSource, type ChessLiveSource } from '../../src/chesslive/source.js';
import type { TrackerUpdate } from '../../src/game/tracker.js';
import { ChessLiveFeed } from '../../src/chesslive/feed.js';
import { GrowingFile, GrowingUrl, RUY_LOPEZ, chessLiveText } from './serve.js';
import { waitFor } from '../support/wait.js';

const KIB = 1024;
const closing: (() => unknown)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

/** A server answering every request with `answer`; counts the body bytes it got out. */
async function serve(
  answer: (response: ServerResponse, path: string) => void,
): Promise<{ url: string; sent: () => number }> {
  let sent = 0;
  const server: Server = createServer((request, response) => {
    const write = response.write.bind(response);
    response.write = ((chunk: Buffer | string, ...rest: never[]) => {
      sent += chunk.length;
      return write(chunk, ...rest);
    }) as typeof response.write;
    response.on('error', () => undefined);
    answer(response, request.url ?? '/');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closing.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening');
  return { url: `http://127.0.0.1:${address.port}`, sent: () => sent };
}

/** Writes 16 KiB pieces until the client hangs up (at most 64 MiB). */
function flood(response: ServerResponse): void {
  const piece = Buffer.alloc(16 * KIB, 'a');
  let left = 4096;
  const more = (): void => {
    while (left-- > 0 && !response.destroyed)
      if (!response.write(piece)) return void response.once('drain', more);
    response.end();
  };
  more();
}

const url = (location: string): ChessLiveSource => ({ name: 'web', kind: 'url', location });

describe('reading a source within limits', () => {
  it('refuses a file over the limit from its size, without reading it', async () => {
    const file = new GrowingFile('x'.repeat(100 * KIB));
    closing.push(() => file.remove());
    await expect(
      readSource({ name: 'disk', kind: 'file', location: file.path }, { maxBytes: 64 * KIB }),
    ).rejects.toThrow(
      `ChessLive! source "disk" cannot be read: it is ${100 * KIB} bytes, more than the ${64 * KIB} allowed`,
    );
  });

  it('refuses a URL whose Content-Length is over the limit before reading the body', async () => {
    const server = await serve((response) => {
      response.writeHead(200, { 'content-length': String(1 << 30) });
      flood(response);
    });
    await expect(readSource(url(`${server.url}/big`), { maxBytes: 64 * KIB })).rejects.toThrow(
      `it is ${1 << 30} bytes, more than the ${64 * KIB} allowed`,
    );
    expect(server.sent()).toBeLessThan(8 << 20);
  });

  it('stops reading a body without a length as soon as it passes the limit', async () => {
    const server = await serve((response) => {
      response.writeHead(200);
      flood(response);
    });
    await expect(readSource(url(`${server.url}/stream`), { maxBytes: 64 * KIB })).rejects.toThrow(
      `it is larger than the ${64 * KIB} bytes allowed`,
    );
    expect(server.sent()).toBeLessThan(8 << 20);
  });

  it('follows a few redirects, and no more', async () => {
    const text = chessLiveText('Carlsen', 'Nepo', RUY_LOPEZ);
    const server = await serve((response, path) => {
      const hop = Number(path.slice(1));
      if (hop > 0) response.writeHead(302, { location: `/${hop - 1}` }).end();
      else response.writeHead(200).end(text);
    });
    expect(await readSource(url(`${server.url}/3`), { maxRedirects: 3 })).toBe(text);
    await expect(readSource(url(`${server.url}/4`), { maxRedirects: 3 })).rejects.toThrow(
      'more than 3 redirects',
    );
  });

  it('gives up a body that trickles in, after the time allowed for the whole read', async () => {
    const server = await serve((response) => {
      response.writeHead(200);
      const timer = setInterval(() => response.write('W;'), 20);
      response.on('close', () => clearInterval(timer));
    });
    await expect(readSource(url(`${server.url}/slow`), { timeoutMs: 300 })).rejects.toThrow(
      'no complete answer in 300 ms',
    );
  });
});

function feedOf(
  options: Partial<ConstructorParameters<typeof ChessLiveFeed>[0]> & { sources: ChessLiveSource[] },
) {
  const lines: string[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
  const feed = new ChessLiveFeed({ pollMs: 5, logger, ...options });
  closing.push(() => feed.close());
  const updates: TrackerUpdate[] = [];
  feed.on('update', (u) => updates.push(u));
  return { feed, updates, lines };
}

/** Knight moves back and forth: a game as long as wanted. */
function shuffle(plies: number): string[] {
  const cycle = ['g1:f3', 'g8:f6', 'f3:g1', 'f6:g8'];
  return Array.from({ length: plies }, (_, i) => cycle[i % 4]!);
}

describe('relaying a source within limits', () => {
  it('reads only what was appended since the last poll', async () => {
    const moves = shuffle(400);
    const served = await GrowingUrl.start(chessLiveText('Carlsen', 'Nepo', moves.slice(0, 300)));
    closing.push(() => served.close());
    const { feed, updates } = feedOf({ sources: [url(served.url())] });
    const game = await feed.observeGame(feed.gameOf('web')!);
    for (let ply = 301; ply <= 400; ply++) {
      served.text = chessLiveText('Carlsen', 'Nepo', moves.slice(0, ply));
      await waitFor(() => feed.snapshot(game)?.san.length === ply, `ply ${ply}`);
    }
    expect(updates.filter((u) => u.type === 'moved')).toHaveLength(100);
    // After the first read, each asks for the bytes from just before the end of the last.
    expect(served.ranges[0]).toBeNull();
    expect(served.ranges.slice(1).every((r) => r !== null && Number(/\d+/.exec(r)![0]) > 0)).toBe(true);
    const size = served.text.length;
    expect(served.sent).toBeLessThan(size + served.requests * 200);
  });

  it('tells a rewritten file from a grown one', async () => {
    const served = await GrowingUrl.start(chessLiveText('Carlsen', 'Nepo', RUY_LOPEZ.slice(0, 3)));
    closing.push(() => served.close());
    const { feed, updates } = feedOf({ sources: [url(served.url())] });
    const game = await feed.observeGame(feed.gameOf('web')!);
    served.text = chessLiveText('Carlsen', 'Nepo', ['d2:d4', 'd7:d5', 'c2:c4', 'e7:e6']);
    await waitFor(() => feed.snapshot(game)?.san.length === 4, 'the rewritten game');
    expect(feed.snapshot(game)?.san).toEqual(['d4', 'd5', 'c4', 'e6']);
    expect(updates.at(-1)?.type).toBe('moved');
  });

  it('waits while a file that just got its result is rewritten and read half written', async () => {
    const served = await GrowingUrl.start(chessLiveText('Carlsen', 'Nepo', RUY_LOPEZ.slice(0, 4)));
    closing.push(() => served.close());
    // Polls far apart, so the rewrite below comes between two of them.
    const { feed, updates } = feedOf({ sources: [url(served.url())], pollMs: 200 });
    const game = await feed.observeGame(feed.gameOf('web')!);
    served.text = chessLiveText('Carlsen', 'Nepo', RUY_LOPEZ, '+;Black resigns');
    await waitFor(() => updates.some((u) => u.type === 'moved'), 'the last move and the result');
    // The writer starts the file again: the next reads see less than before.
    served.text = chessLiveText('Carlsen', 'Nepo', RUY_LOPEZ.slice(0, 2));
    const reads = served.requests;
    await waitFor(() => served.requests >= reads + 2, 'two reads of the half-written file');
    expect(updates.map((u) => u.type)).toEqual(['started', 'moved']);
    served.text = chessLiveText('Carlsen', 'Nepo', RUY_LOPEZ, '+;Black resigns');
    await waitFor(() => updates.some((u) => u.type === 'ended'), 'the end');
    expect(feed.snapshot(game)).toMatchObject({ san: { length: 5 }, result: '1-0', reason: 'Black resigns' });
  });

  it('reports a source that grows past the limit once, and relays it no more', async () => {
    const big = await GrowingUrl.start(chessLiveText('Carlsen', 'Nepo', RUY_LOPEZ.slice(0, 2)));
    const other = await GrowingUrl.start(chessLiveText('Ding', 'Gukesh', RUY_LOPEZ.slice(0, 2)));
    closing.push(
      () => big.close(),
      () => other.close(),
    );
    const { feed, updates, lines } = feedOf({
      sources: [
        { name: 'big', kind: 'url', location: big.url() },
        { name: 'other', kind: 'url', location: other.url() },
      ],
      read: { maxBytes: 2 * KIB },
    });
    const game = await feed.observeGame(feed.gameOf('big')!);
    await feed.observeGame(feed.gameOf('other')!);
    big.text = chessLiveText('Carlsen', 'Nepo', [...RUY_LOPEZ.slice(0, 2), ' '.repeat(4 * KIB)]);
    await waitFor(() => updates.some((u) => u.type === 'ended'), 'the end');
    const end = updates.find((u) => u.type === 'ended');
    expect(end?.type === 'ended' && [end.snapshot.game, end.snapshot.reason]).toEqual([
      game,
      'the source grew past the 2048 bytes Kibitz reads: it is no longer relayed',
    ]);
    // The other source's reads go on; this one is read no more, and was reported once.
    const reads = big.requests;
    const otherReads = other.requests;
    await waitFor(() => other.requests >= otherReads + 5, 'five more reads of the other source');
    expect(big.requests).toBe(reads);
    expect(lines.filter((l) => l.includes('too large'))).toHaveLength(1);
  });

  it('ends a game that goes past the ply limit as not supported', async () => {
    const file = new GrowingFile(chessLiveText('Carlsen', 'Nepo', shuffle(8)));
    closing.push(() => file.remove());
    const { feed, updates } = feedOf({
      sources: [{ name: 'disk', kind: 'file', location: file.path }],
      maxPlies: 10,
    });
    await feed.observeGame(feed.gameOf('disk')!);
    file.write(chessLiveText('Carlsen', 'Nepo', shuffle(12)));
    await waitFor(() => updates.some((u) => u.type === 'ended'), 'the end');
    const end = updates.find((u) => u.type === 'ended');
    expect(end?.type === 'ended' && [end.snapshot.san.length, end.snapshot.reason]).toEqual([
      8,
      'more than 10 moves (plies): Kibitz does not relay games that long',
    ]);
    file.write(chessLiveText('Carlsen', 'Nepo', shuffle(20)));
    await expect(
      feedOf({
        sources: [{ name: 'disk', kind: 'file', location: file.path }],
        maxPlies: 10,
      }).feed.observeGame(feed.gameOf('disk')!),
    ).rejects.toThrow('has 20 moves (plies), more than the 10 Kibitz relays');
  });
});
