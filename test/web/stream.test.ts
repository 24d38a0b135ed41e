// A viewer's push stream over a real socket: a client that stops reading is dropped once the bytes
// waiting for it pass the bound, instead of growing the server's memory; one that reads is not.
import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { EventStream } from '../../src/web/stream.js';

let server: Server | null = null;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = null;
});

const BOUND = 64 * 1024;
const EVENT = `event: move\ndata: ${JSON.stringify({ pad: 'x'.repeat(1_000) })}\n\n`;

/** Serves one stream; `feed` sends events into it and says whether it was dropped. */
async function serveStream(): Promise<{
  url: string;
  stream: Promise<{ stream: EventStream; closes: boolean[] }>;
}> {
  let found!: (value: { stream: EventStream; closes: boolean[] }) => void;
  const stream = new Promise<{ stream: EventStream; closes: boolean[] }>((resolve) => (found = resolve));
  server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.flushHeaders();
    const closes: boolean[] = [];
    found({ stream: new EventStream(response, BOUND, (_s, dropped) => closes.push(dropped)), closes });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, stream };
}

describe('EventStream', () => {
  it('drops a client that does not read once the bound is passed', async () => {
    const { url, stream } = await serveStream();
    const responded = new Promise<void>((resolve) => {
      const request = get(url, (response) => {
        response.pause();
        request.socket!.pause();
        resolve();
      });
      request.on('error', () => undefined);
    });
    const { stream: s, closes } = await stream;
    await responded;
    // The kernel's socket buffers take a few MiB first; then the stream's own buffer grows.
    let sent = 0;
    while (sent < 200_000 && s.send(EVENT)) sent++;
    expect(s.open).toBe(false);
    expect(closes).toEqual([true]);
    expect(sent).toBeGreaterThan(0);
    expect(sent).toBeLessThan(200_000);
    // Nothing more is sent once it is dropped.
    expect(s.send(EVENT)).toBe(false);
  });

  it('keeps a client that reads everything', async () => {
    const { url, stream } = await serveStream();
    let received = 0;
    const done = new Promise<void>((resolve) =>
      get(url, (response) =>
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received >= 2_000 * EVENT.length) resolve();
        }),
      ),
    );
    const { stream: s, closes } = await stream;
    // Sent a few at a time, as moves come: the client keeps up.
    for (let i = 0; i < 2_000; i++) {
      expect(s.send(EVENT)).toBe(true);
      if (i % 20 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    await done;
    expect(s.open).toBe(true);
    expect(closes).toEqual([]);
    s.close();
    expect(closes).toEqual([false]);
  });
});
