// The bot's HTTP step for discord.js (buffered-request.ts) against discord.js's own (undici's
// request()): for every kind of answer, the same request reaches the server and discord.js is
// handed the same status, headers and body; an aborted or cut request fails the same way.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DefaultRestOptions, type ResponseLike } from 'discord.js';
import type { RequestInit } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bufferedRequest, MAX_ANSWER_BYTES } from '../../src/discord/buffered-request.js';
import { parseBody } from '../fake-discord/http.js';

interface Received {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

const received: Received[] = [];
/** What the server does for each path. */
const ANSWERS: Record<string, (res: ServerResponse) => void> = {
  '/api/v10/ok': (res) => {
    res.writeHead(200, {
      'Content-Type': 'application/json',
      'X-RateLimit-Limit': '5',
      'X-RateLimit-Remaining': '4',
      'X-RateLimit-Reset-After': '1.25',
      'X-RateLimit-Bucket': 'abc',
    });
    res.end(JSON.stringify({ id: '12', embeds: [{ title: 'Game 7 · é' }] }));
  },
  '/api/v10/refused': (res) => {
    res.writeHead(404, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ message: 'Unknown Message', code: 10008 }));
  },
  '/api/v10/limited': (res) => {
    res.writeHead(429, {
      'Content-Type': 'application/json',
      'Retry-After': '2',
      'X-RateLimit-Global': 'true',
      'X-RateLimit-Scope': 'global',
    });
    res.end(JSON.stringify({ message: 'You are being rate limited.', retry_after: 1.5, global: true }));
  },
  '/api/v10/empty': (res) => {
    res.writeHead(204);
    res.end();
  },
  '/api/v10/chunked': (res) => {
    res.setHeader('Set-Cookie', ['a=1', 'b=2']);
    res.writeHead(502, { 'Content-Type': 'text/html' });
    res.write('<html>bad ');
    setImmediate(() => res.end('gateway</html>'));
  },
  '/api/v10/slow': (res) => {
    setTimeout(() => res.end('{}'), 2_000).unref();
  },
  '/api/v10/cut': (res) => res.socket?.destroy(),
  '/api/v10/huge': (res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    // Past the bound in 1 MiB writes, each after the last was taken (a peer that never stops).
    const piece = Buffer.alloc(1024 * 1024, 0x20);
    let sent = 0;
    const more = (): void => {
      while (sent <= MAX_ANSWER_BYTES && !res.destroyed) {
        sent += piece.length;
        if (!res.write(piece)) return void res.once('drain', more);
      }
      res.end();
    };
    more();
  },
};

let server: Server;
let base = '';
beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        method: req.method!,
        url: req.url!,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('latin1'),
      });
      ANSWERS[req.url!]!(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v10`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

type MakeRequest = (url: string, init: RequestInit) => Promise<ResponseLike>;

/** What discord.js reads of an answer, and what the server received. */
async function seen(
  makeRequest: MakeRequest,
  path: string,
  init: RequestInit,
  read: 'json' | 'text' | 'arrayBuffer',
) {
  received.length = 0;
  const res = await makeRequest(`${base}${path}`, init);
  const headers = [...res.headers.entries()].filter(([name]) => name !== 'date' && name !== 'keep-alive');
  const body =
    read === 'arrayBuffer' ? Buffer.from(await res.arrayBuffer()).toString('hex') : await res[read]();
  const request = received.map(({ headers, ...rest }) => ({
    ...rest,
    headers: Object.entries(headers).filter(([name]) => name !== 'connection'),
  }));
  return {
    status: res.status,
    statusText: res.statusText,
    ok: res.ok,
    headers,
    body,
    request,
  };
}

const JSON_INIT: RequestInit = {
  method: 'PATCH',
  body: JSON.stringify({ embeds: [{ title: 'x' }] }),
  headers: {
    'Content-Type': 'application/json',
    Authorization: 'Bot token',
    'User-Agent': 'DiscordBot (test)',
  },
};
const BYTES_INIT: RequestInit = {
  method: 'PATCH',
  body: Buffer.from([0, 1, 2, 250, 255, 13, 10]),
  headers: { 'Content-Type': 'multipart/form-data; boundary=b', Authorization: 'Bot token' },
};

/** A file's bytes: every byte value, and what looks like a part's boundary. */
const FILE_BYTES = Buffer.concat([
  Buffer.from(Array.from({ length: 256 }, (_, i) => i)),
  Buffer.from('\r\n--x--\r\n'),
]);
const PAYLOAD = JSON.stringify({ content: 'Game 7 · é', attachments: [{ id: 0, filename: 'board.png' }] });

/** A reply with files as discord.js's REST builds it: its own FormData of Blobs, then payload_json. */
function filesInit(headers: Record<string, string> = { Authorization: 'Bot token' }): RequestInit {
  const form = new FormData();
  form.append('files[0]', new Blob([FILE_BYTES], { type: 'image/png' }), 'board.png');
  form.append('files[1]', new Blob(['1. e4 e5 *'], { type: 'application/octet-stream' }), 'game 7 "x".pgn');
  form.append('payload_json', PAYLOAD);
  return { method: 'POST', body: form, headers: { 'User-Agent': 'DiscordBot (test)', ...headers } };
}

/** The parts of a multipart request the server received, parsed as the fake Discord parses them. */
async function partsOf(request: { headers: [string, unknown][]; body: string }) {
  const contentType = String(request.headers.find(([name]) => name === 'content-type')?.[1]);
  const { body, files } = await parseBody(contentType, Buffer.from(request.body, 'latin1'));
  return {
    payload: body,
    files: files.map(({ bytes, ...file }) => ({ ...file, hex: bytes.toString('hex') })),
  };
}

/** A request with its multipart boundary (random each time) named BOUNDARY. */
function sameBoundary<T extends { headers: [string, unknown][]; body: string }>(request: T): T {
  const boundary = /boundary=(.+)$/.exec(
    String(request.headers.find(([name]) => name === 'content-type')?.[1]),
  )![1]!;
  const named = (text: string): string => text.split(boundary).join('BOUNDARY');
  return {
    ...request,
    headers: request.headers.map(([name, value]) => [name, named(String(value))]),
    body: named(request.body),
  };
}

describe('buffered answers for discord.js', () => {
  it.each([
    ['/ok', JSON_INIT, 'json'],
    ['/ok', BYTES_INIT, 'arrayBuffer'],
    ['/refused', JSON_INIT, 'json'],
    ['/limited', BYTES_INIT, 'json'],
    ['/empty', { method: 'DELETE', headers: { Authorization: 'Bot token' } }, 'text'],
    ['/chunked', { method: 'GET', headers: {} }, 'text'],
  ] as const)('%s: the same request sent, the same answer handed over', async (path, init, read) => {
    const ours = await seen(bufferedRequest, path, init, read);
    const theirs = await seen(DefaultRestOptions.makeRequest, path, init, read);
    expect(ours).toEqual(theirs);
    expect(ours.request).toHaveLength(1);
  });

  it('a FormData body (a reply with files) is sent as discord.js sent it: the same parts, headers and bytes', async () => {
    const ours = await seen(bufferedRequest, '/ok', filesInit(), 'json');
    const theirs = await seen(DefaultRestOptions.makeRequest, '/ok', filesInit(), 'json');
    expect(ours.request).toHaveLength(1);
    expect(await partsOf(ours.request[0]!)).toEqual({
      payload: JSON.parse(PAYLOAD),
      files: [
        {
          field: 'files[0]',
          index: 0,
          filename: 'board.png',
          contentType: 'image/png',
          hex: FILE_BYTES.toString('hex'),
        },
        {
          field: 'files[1]',
          index: 1,
          filename: 'game 7 "x".pgn',
          contentType: 'application/octet-stream',
          hex: Buffer.from('1. e4 e5 *').toString('hex'),
        },
      ],
    });
    expect(await partsOf(ours.request[0]!)).toEqual(await partsOf(theirs.request[0]!));
    expect({ ...ours, request: ours.request.map(sameBoundary) }).toEqual({
      ...theirs,
      request: theirs.request.map(sameBoundary),
    });
  });

  it("a FormData body's Content-Type is its own boundary's, whatever the caller's headers said", async () => {
    const init = filesInit({
      Authorization: 'Bot token',
      'Content-Type': 'multipart/form-data; boundary=stale',
    });
    const ours = await seen(bufferedRequest, '/ok', init, 'json');
    const [request] = ours.request;
    expect(request!.headers).toContainEqual(['authorization', 'Bot token']);
    expect(request!.headers).not.toContainEqual(['content-type', 'multipart/form-data; boundary=stale']);
    expect((await partsOf(request!)).files.map((file) => file.filename)).toEqual([
      'board.png',
      'game 7 "x".pgn',
    ]);
  });

  it('a body of a kind discord.js does not send is refused, named, before anything is sent', async () => {
    received.length = 0;
    const init: RequestInit = { method: 'POST', body: new Blob(['x']), headers: {} };
    await expect(bufferedRequest(`${base}/ok`, init)).rejects.toThrow(
      'a request body of this kind is not sent: [object Blob]',
    );
    expect(received).toEqual([]);
  });

  it('a body is read once, as a fetch Response is', async () => {
    const res = await bufferedRequest(`${base}/ok`, JSON_INIT);
    expect(res.bodyUsed).toBe(false);
    expect(await res.json()).toEqual({ id: '12', embeds: [{ title: 'Game 7 · é' }] });
    expect(res.bodyUsed).toBe(true);
    await expect(res.text()).rejects.toThrow(TypeError);
  });

  it('an abort (discord.js times a request out so) fails the request as it did', async () => {
    const fail = async (makeRequest: MakeRequest, when: 'before' | 'during') => {
      const controller = new AbortController();
      if (when === 'before') controller.abort();
      const pending = makeRequest(`${base}/slow`, { ...JSON_INIT, signal: controller.signal });
      if (when === 'during') setTimeout(() => controller.abort(), 50);
      const error = (await pending.then(
        () => null,
        (e: unknown) => e,
      )) as Error | null;
      return error === null ? null : { name: error.name, message: error.message };
    };
    for (const when of ['before', 'during'] as const) {
      const ours = await fail(bufferedRequest, when);
      expect(ours?.name).toBe('AbortError');
      expect(ours).toEqual(await fail(DefaultRestOptions.makeRequest, when));
    }
  });

  it('a connection cut fails the request with the same error', async () => {
    const cut = async (makeRequest: MakeRequest) => {
      const error = (await makeRequest(`${base}/cut`, JSON_INIT).then(
        () => null,
        (e: unknown) => e,
      )) as (Error & { code?: string }) | null;
      return error === null ? null : { name: error.name, code: error.code, message: error.message };
    };
    const ours = await cut(bufferedRequest);
    expect(ours?.code).toBe('UND_ERR_SOCKET');
    expect(ours).toEqual(await cut(DefaultRestOptions.makeRequest));
  });

  it('an answer past MAX_ANSWER_BYTES fails the request, named, instead of being kept', async () => {
    const error = (await bufferedRequest(`${base}/huge`, { method: 'GET', headers: {} }).then(
      () => null,
      (e: unknown) => e,
    )) as Error | null;
    expect(error?.message).toBe(`the answer to GET ${base}/huge passed ${MAX_ANSWER_BYTES} bytes`);
  });

  it('an answer past MAX_ANSWER_BYTES to a FormData request (a reply with files) fails the same way', async () => {
    const error = (await bufferedRequest(`${base}/huge`, filesInit()).then(
      () => null,
      (e: unknown) => e,
    )) as Error | null;
    expect(error?.message).toBe(`the answer to POST ${base}/huge passed ${MAX_ANSWER_BYTES} bytes`);
  });
});
