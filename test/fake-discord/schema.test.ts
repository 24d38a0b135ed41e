// Every request body is checked against Discord's published schema (schema.ts): what Discord
// refuses, the fake refuses with 400 50035 and the failing path, whichever route sends it.
import { DiscordAPIError, type Client } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES } from './index.js';
import { errorPaths } from './schema.js';
import { startFakeWithClient, type ClientHarness } from '../discord/harness.js';

let open: ClientHarness | null = null;
afterEach(async () => {
  await open?.close();
  open = null;
});

const button = (i: number) => ({ type: 2, style: 2, label: `b${i}`, custom_id: `b${i}` });
const row = (count: number) => ({ type: 1, components: Array.from({ length: count }, (_, i) => button(i)) });

/** What the fake answered the last request: its status, code and failing paths. */
function lastRefusal(h: ClientHarness): { status: number; code: unknown; paths: string[] } {
  const last = h.fake.requests.at(-1)!;
  const response = last.response as { code?: unknown; errors?: unknown };
  return { status: last.status, code: response.code, paths: errorPaths(response.errors) };
}

async function refused(call: Promise<unknown>): Promise<DiscordAPIError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DiscordAPIError);
  return error as DiscordAPIError;
}

describe('fake Discord: request bodies by Discord schema', () => {
  it('refuses a six-button row, a 257-character title and a 1,025-character attachment description', async () => {
    const h = (open = await startFakeWithClient());
    const rest = (h.client as Client).rest;
    const post = (body: unknown) => rest.post(`/channels/${h.channel.id}/messages`, { body });

    expect((await refused(post({ content: 'x', components: [row(6)] }))).code).toBe(50035);
    expect(lastRefusal(h)).toEqual({ status: 400, code: 50035, paths: ['components.0.components'] });

    await refused(post({ embeds: [{ title: 't'.repeat(257) }] }));
    expect(lastRefusal(h).paths).toEqual(['embeds.0.title']);

    await refused(
      h.textChannel.send({
        files: [{ attachment: Buffer.from('gif'), name: 'board.gif', description: 'd'.repeat(1025) }],
      }),
    );
    expect(lastRefusal(h).paths).toEqual(['attachments.0.description']);

    // The limits themselves pass: five buttons, 256 characters, 1,024 characters.
    await post({ content: 'x', components: [row(5)], embeds: [{ title: 't'.repeat(256) }] });
    await h.textChannel.send({
      files: [{ attachment: Buffer.from('gif'), name: 'board.gif', description: 'd'.repeat(1024) }],
    });
    expect(h.fake.messagesIn(h.channel.id)).toHaveLength(2);
    expect(h.fake.internalErrors).toEqual([]);
  });

  it('checks edits and interaction webhooks too, and refuses uploads over 10 MiB together', async () => {
    const h = (open = await startFakeWithClient());
    const rest = (h.client as Client).rest;
    const message = await h.textChannel.send('board');
    await refused(
      rest.patch(`/channels/${h.channel.id}/messages/${message.id}`, { body: { components: [row(6)] } }),
    );
    expect(lastRefusal(h).paths).toEqual(['components.0.components']);
    expect(h.fake.message(message.id)!.components).toEqual([]);

    await refused(rest.put(`/applications/${h.client.application!.id}/commands`, { body: [{ name: '' }] }));
    expect(lastRefusal(h).paths).toEqual(['0.name']);

    const half = MAX_UPLOAD_BYTES / 2 + 1;
    const big = await refused(
      h.textChannel.send({
        files: [
          { attachment: Buffer.alloc(half), name: 'a.gif' },
          { attachment: Buffer.alloc(half), name: 'b.gif' },
        ],
      }),
    );
    expect([big.status, big.code]).toEqual([413, 40005]);
    expect(h.fake.internalErrors).toEqual([]);
  });
});
