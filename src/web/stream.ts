// One viewer's push stream (server-sent events) with a bounded send buffer: a client that does not
// read (a stalled phone, a slow link) is dropped once what waits for it passes the bound, instead
// of growing the bot's memory. Its browser reconnects and starts again from the full state.
import type { ServerResponse } from 'node:http';

export class EventStream {
  private closed = false;

  constructor(
    private readonly response: ServerResponse,
    /** Bytes that may wait in the socket's buffer before the client counts as not reading. */
    private readonly maxBufferedBytes: number,
    private readonly onClose: (stream: EventStream, dropped: boolean) => void,
  ) {
    response.on('close', () => this.end(false));
  }

  get open(): boolean {
    return !this.closed;
  }

  /** Sends an event (SSE text); false when the client was dropped for not reading. */
  send(text: string): boolean {
    if (this.closed) return false;
    if (this.response.writableLength + text.length > this.maxBufferedBytes) {
      this.end(true);
      this.response.destroy();
      return false;
    }
    this.response.write(text);
    return true;
  }

  close(): void {
    if (this.closed) return;
    this.end(false);
    this.response.end();
  }

  private end(dropped: boolean): void {
    if (this.closed) return;
    this.closed = true;
    this.onClose(this, dropped);
  }
}
