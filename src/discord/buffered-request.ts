// discord.js's HTTP step (REST option `makeRequest`), with the answer read into one buffer. Its
// default (undici's request()) hands each answer over as a Node stream, built and run for a few
// hundred bytes of JSON: at 40 edits a second that machinery and its garbage were a good part of
// the bot's main-thread time (docs/performance.md). Here undici's dispatcher sends the same request
// (same connection pool, same bytes on the wire) and a small handler keeps the answer's bytes; the
// JSON is parsed only if a caller reads it (an edit's answer never is: live-port.ts). discord.js's
// rate limits, timeouts and error handling all stay its own: they run around this step.
import { STATUS_CODES } from 'node:http';
import type { ResponseLike } from 'discord.js';
import { getGlobalDispatcher, Headers, util, type Dispatcher, type RequestInit } from 'undici';

/**
 * The most of an answer kept. Discord's largest answers (a thousand members, a channel list) are
 * a few MB; a peer sending more is cut off with an error, not held in memory to the end.
 */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/** `makeRequest` for discord.js's REST: the request undici's request() would send, the answer buffered. */
export function bufferedRequest(url: string, init: RequestInit): Promise<ResponseLike> {
  const body = init.body ?? null;
  // What discord.js sends: JSON text, our multipart bytes (multipart.ts), or its own FormData of
  // files (replies with files), which undici's dispatcher encodes as its request() did, with its
  // boundary's Content-Type (so none of the caller's goes with it).
  const form = body instanceof FormData;
  if (body !== null && typeof body !== 'string' && !(body instanceof Uint8Array) && !form)
    return Promise.reject(
      new TypeError(`a request body of this kind is not sent: ${Object.prototype.toString.call(body)}`),
    );
  const headers = init.headers as Record<string, string>;
  const signal = init.signal ?? null;
  if (signal?.aborted === true) return Promise.reject(abortReason(signal));
  // discord.js builds `${api}/v10/...`: the origin is what precedes the path's first slash.
  const pathAt = url.indexOf('/', url.indexOf('//') + 2);
  const dispatcher = (init.dispatcher as Dispatcher | undefined) ?? getGlobalDispatcher();
  return new Promise((resolve, reject) => {
    let abort: ((reason: Error) => void) | null = null;
    let status = 0;
    let rawHeaders: Buffer[] = [];
    const chunks: Buffer[] = [];
    let size = 0;
    const onAbort = (): void => abort?.(abortReason(signal!));
    const done = (): void => signal?.removeEventListener('abort', onAbort);
    const handler: Dispatcher.DispatchHandlers = {
      onConnect: (abortRequest) => {
        abort = abortRequest;
        if (signal?.aborted === true) onAbort();
      },
      onHeaders: (statusCode, headers) => {
        // 1xx answers are not the answer (undici's request() skips them too).
        if (statusCode >= 200) {
          status = statusCode;
          rawHeaders = headers as Buffer[];
        }
        return true;
      },
      onData: (chunk) => {
        size += chunk.length;
        if (size > MAX_ANSWER_BYTES) {
          abort?.(new Error(`the answer to ${init.method ?? 'GET'} ${url} passed ${MAX_ANSWER_BYTES} bytes`));
          return false;
        }
        chunks.push(chunk);
        return true;
      },
      onComplete: () => {
        done();
        resolve(
          bufferedResponse(status, rawHeaders, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)),
        );
      },
      onError: (error) => {
        done();
        reject(error);
      },
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      dispatcher.dispatch(
        {
          origin: url.slice(0, pathAt),
          path: url.slice(pathAt),
          method: (init.method ?? 'GET') as Dispatcher.HttpMethod,
          body: body as Dispatcher.DispatchOptions['body'],
          headers: form ? withoutContentType(headers) : headers,
        },
        handler,
      );
    } catch (error) {
      done();
      reject(error);
    }
  });
}

/** What an aborted request fails with: the signal's reason, as undici's request() does. */
function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error
    ? signal.reason
    : new DOMException('This operation was aborted', 'AbortError');
}

/** An answer whose bytes are all here: read once, as a fetch Response is. */
function bufferedResponse(status: number, rawHeaders: Buffer[], bytes: Buffer): ResponseLike {
  let used = false;
  const take = (): Buffer => {
    if (used) throw new TypeError('Body is unusable: Body has already been read');
    used = true;
    return bytes;
  };
  return {
    body: null,
    get bodyUsed() {
      return used;
    },
    // The same Headers undici's request() gave discord.js (parsed as it parses them).
    headers: new Headers(util.parseHeaders(rawHeaders) as Record<string, string>),
    status,
    statusText: STATUS_CODES[status] ?? '',
    ok: status >= 200 && status < 300,
    arrayBuffer: async () => {
      const taken = take();
      return taken.buffer.slice(taken.byteOffset, taken.byteOffset + taken.byteLength) as ArrayBuffer;
    },
    text: async () => decoder.decode(take()),
    json: async () => JSON.parse(decoder.decode(take())) as unknown,
  };
}

const decoder = new TextDecoder();

function withoutContentType(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'content-type'),
  );
}
