// A new post that meets a connection cut is tried again after a wait, and never made twice: the
// bot sends each post with a nonce Discord enforces, so a try whose answer was lost gets back the
// message it made. The waits are asked of a clock the test holds (no real time passes), the fake
// Discord's: it checks that each retry came after a wait.
import { afterEach, describe, expect, it } from 'vitest';
import { DiscordPostPort, POST_ATTEMPTS } from '../../src/discord/live-port.js';
import { BOARD_IMAGE, type LiveMessage } from '../../src/relay/message.js';
import { startFakeWithClient, TINY_PNG, type ClientHarness } from './harness.js';

let open: ClientHarness | null = null;
afterEach(async () => {
  await open?.close();
  open = null;
});

const board: LiveMessage = {
  title: 'Game 7: Alice vs Bob',
  lines: ['1. e4'],
  image: { name: BOARD_IMAGE, data: TINY_PNG },
  files: [],
  live: true,
  footer: null,
};

const CREATE = { method: 'POST', route: '/channels/:channel_id/messages' };

async function withPort(): Promise<{ h: ClientHarness; port: DiscordPostPort; waits: number[] }> {
  const h = (open = await startFakeWithClient());
  const waits: number[] = [];
  // The wait passes on the fake's clock, which measures the wait before each retry (at least 250 ms).
  const port = new DiscordPostPort(h.client, null, Date.now, (ms) => {
    waits.push(ms);
    h.fake.advanceClock(ms);
    return Promise.resolve();
  });
  return { h, port, waits };
}

describe('a new post and connection failures', () => {
  it('a post whose answer was lost (made, then the connection cut) is tried again and exists once', async () => {
    const { h, port, waits } = await withPort();
    h.fake.failNext(CREATE, { kind: 'resetAfter' });
    const where = await port.post(1, h.channel.id, board, null);
    const posts = h.fake.messagesIn(h.channel.id);
    expect(posts.map((m) => m.id)).toEqual([where.messageId]);
    expect(waits).toEqual([1_000]);
    const tries = h.fake.requests.filter((r) => r.method === 'POST');
    expect(tries).toHaveLength(2);
    expect((tries[0]!.body as { nonce: string }).nonce).toBe((tries[1]!.body as { nonce: string }).nonce);
  });

  it('a post cut before Discord read it is made on the next try', async () => {
    const { h, port, waits } = await withPort();
    h.fake.failNext(CREATE, { kind: 'reset' }, 2);
    const where = await port.post(2, h.channel.id, board, null);
    expect(h.fake.messagesIn(h.channel.id).map((m) => m.id)).toEqual([where.messageId]);
    expect(waits.length).toBeGreaterThanOrEqual(1);
  });

  it('gives up after a bounded number of tries and says why', async () => {
    const { h, port, waits } = await withPort();
    h.fake.failNext(CREATE, { kind: 'reset' }, 100);
    await expect(port.post(3, h.channel.id, board, null)).rejects.toThrow();
    expect(waits).toEqual([1_000, 2_000, 4_000]);
    expect(waits).toHaveLength(POST_ATTEMPTS - 1);
    expect(h.fake.messagesIn(h.channel.id)).toEqual([]);
  });

  it('what Discord refused for good is not tried again', async () => {
    const { h, port, waits } = await withPort();
    h.fake.failNext(CREATE, { kind: 'error', status: 403, code: 50013 });
    await expect(port.post(4, h.channel.id, board, null)).rejects.toThrow();
    expect(waits).toEqual([]);
    expect(h.fake.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
  });
});
