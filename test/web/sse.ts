// A server-sent-events client for tests and the load script: node:http, the events parsed as they
// arrive (`event:` and `data:` lines, a blank line ends one), each kept with its arrival time.
import { once } from 'node:events';
import { get, type IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';

export interface SseEvent {
  type: string;
  data: unknown;
  /** performance.timeOrigin + performance.now() at arrival: comparable across processes. */
  at: number;
}

export class SseClient {
  readonly events: SseEvent[] = [];
  private buffer = '';
  private waiters: (() => void)[] = [];
  closed = false;

  private constructor(
    readonly response: IncomingMessage,
    private readonly onEvent: ((event: SseEvent) => void) | null,
  ) {
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => this.receive(chunk));
    response.on('close', () => {
      this.closed = true;
      this.wake();
    });
  }

  /** Opens a stream; resolves with the response whatever its status (check `status`). */
  static open(url: string, onEvent: ((event: SseEvent) => void) | null = null): Promise<SseClient> {
    return new Promise((resolve, reject) => {
      const request = get(url, { headers: { accept: 'text/event-stream' } }, (response) =>
        resolve(new SseClient(response, onEvent)),
      );
      request.on('error', reject);
    });
  }

  get status(): number {
    return this.response.statusCode ?? 0;
  }

  /** Waits until `count` events have arrived (or the stream closed, or `timeoutMs` passed). */
  async waitForEvents(count: number, timeoutMs = 15_000): Promise<SseEvent[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.events.length < count) {
      if (this.closed) throw new Error(`stream closed after ${this.events.length} of ${count} events`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`only ${this.events.length} of ${count} events within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.events.slice(0, count);
  }

  /** The body of a refused request (read to its end). */
  async text(): Promise<string> {
    if (!this.response.readableEnded) await once(this.response, 'end');
    return this.buffer;
  }

  close(): void {
    this.response.destroy();
  }

  private receive(chunk: string): void {
    this.buffer += chunk;
    for (let end = this.buffer.indexOf('\n\n'); end >= 0; end = this.buffer.indexOf('\n\n')) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      let type = 'message';
      let data: string | null = null;
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) type = line.slice(7);
        else if (line.startsWith('data: ')) data = (data === null ? '' : `${data}\n`) + line.slice(6);
      }
      // Comments (keep-alives) and the `retry:` field carry no data.
      if (data === null) continue;
      const event = {
        type,
        data: JSON.parse(data) as unknown,
        at: performance.timeOrigin + performance.now(),
      };
      this.events.push(event);
      this.onEvent?.(event);
    }
    this.wake();
  }

  private wake(): void {
    for (const waiter of this.waiters.splice(0)) waiter();
  }
}
