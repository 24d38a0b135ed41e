// The fake Discord refuses and limits the way Discord does, seen from the real discord.js client:
// header-less 429s and a ban after too many invalid answers, 30046 on edits of messages older
// than an hour (by a clock the test moves), embed and file limits, the bot removed from a guild.
import { once } from 'node:events';
import { DiscordAPIError, Events, RateLimitError, type APIEmbed, type Client } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { BLOCKED_BODY, OLD_MESSAGE_MS } from './index.js';
import { errorPaths } from './schema.js';
import { startFake, startFakeWithClient, type ClientHarness } from '../discord/harness.js';

let open: ClientHarness | null = null;
afterEach(async () => {
  await open?.close();
  open = null;
});

async function harness(...args: Parameters<typeof startFakeWithClient>): Promise<ClientHarness> {
  open = await startFakeWithClient(...args);
  return open;
}

/** Discord's per-channel buckets are not what these tests are about. */
const rateLimits = {
  messageEdit: { limit: 1_000, windowMs: 1_000 },
  messageCreate: { limit: 1_000, windowMs: 1_000 },
};

/** Every 429 thrown, not waited out: what the bot does for header-less ones. */
const rejectAll = { rest: { rejectOnRateLimit: () => true } };

/** An embed showing the attachment `name` as its picture. */
const picture = (name: string): APIEmbed => ({ title: name, image: { url: `attachment://${name}` } });
const png = Buffer.from('png');

describe('fake Discord refusals', () => {
  it('a header-less 429 carries no Retry-After, no X-RateLimit-* and the "blocked" body', async () => {
    const h = await harness({}, rejectAll);
    h.fake.failNext({ method: 'POST' }, { kind: 'blocked' });
    const error = await h.textChannel.send('hi').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(0);
    const answered = h.fake.requests.at(-1)!;
    expect(answered.status).toBe(429);
    expect(answered.response).toEqual(BLOCKED_BODY);
  });

  it('bans the IP after too many invalid answers in the window: every request then gets a header-less 429', async () => {
    const h = await harness({ invalidRequestLimit: 5, banMs: 60_000 }, rejectAll);
    const message = await h.textChannel.send('board');
    h.fake.deleteMessage(message.id);
    h.fake.failNext({ method: 'PATCH' }, { kind: 'error', status: 403, code: 50013 }, 5);
    for (let i = 0; i < 5; i++) await h.textChannel.messages.edit(message.id, 'x').catch(() => undefined);
    expect(h.fake.invalidRequests()).toBe(5);
    expect(h.fake.banned).toBe(true);
    const error = await h.textChannel.send('after').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(h.fake.requests.at(-1)!.response).toEqual(BLOCKED_BODY);
    expect(h.fake.bans).toBe(1);
  });

  it('edits of a message older than an hour: a few, then 429 with code 30046', async () => {
    const h = await harness({ rateLimits, oldMessageEdits: { limit: 2, windowMs: 60_000 } }, rejectAll);
    const message = await h.textChannel.send('board');
    for (let i = 0; i < 5; i++) await h.textChannel.messages.edit(message.id, `young ${i}`);
    h.fake.advanceClock(OLD_MESSAGE_MS + 1);
    await h.textChannel.messages.edit(message.id, 'old 1');
    await h.textChannel.messages.edit(message.id, 'old 2');
    const error = await h.textChannel.messages.edit(message.id, 'old 3').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(h.fake.requests.at(-1)!.response).toMatchObject({ code: 30046 });
    expect(h.fake.message(message.id)!.content).toBe('old 2');
  });

  it('embeds over any text limit: 400 50035 naming the field, nothing changed', async () => {
    const h = await harness({ rateLimits });
    const over = [
      [{ title: 'x'.repeat(257) }, 'embeds.0.title'],
      [{ description: 'x'.repeat(4_097) }, 'embeds.0.description'],
      [{ footer: { text: 'x'.repeat(2_049) } }, 'embeds.0.footer.text'],
      [{ fields: [{ name: 'x'.repeat(257), value: 'v' }] }, 'embeds.0.fields.0.name'],
      [{ fields: [{ name: 'n', value: 'x'.repeat(1_025) }] }, 'embeds.0.fields.0.value'],
      [
        { title: 'x'.repeat(256), description: 'x'.repeat(4_096), footer: { text: 'x'.repeat(1_700) } },
        'embeds',
      ],
    ] satisfies [APIEmbed, string][];
    for (const [embed, field] of over) {
      const error = await h.textChannel.send({ embeds: [embed] }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DiscordAPIError);
      expect((error as DiscordAPIError).code).toBe(50035);
      expect(errorPaths((h.fake.requests.at(-1)!.response as { errors: object }).errors)).toEqual([field]);
    }
    const menu = (options: { label: string; value: string }[]) => ({
      components: [{ type: 1, components: [{ type: 3, custom_id: 'm', options }] }],
    });
    for (const options of [
      Array.from({ length: 26 }, (_, i) => ({ label: `${i}`, value: `${i}` })),
      [{ label: 'x'.repeat(101), value: 'v' }],
    ]) {
      const error = await h.client.rest
        .post(`/channels/${h.channel.id}/messages`, { body: menu(options) })
        .catch((e: unknown) => e);
      expect((error as DiscordAPIError).code).toBe(50035);
    }
    expect(h.fake.messagesIn(h.channel.id)).toEqual([]);
    const big = await h.textChannel
      .send({ files: [{ attachment: Buffer.alloc(10 * 1024 * 1024 + 1), name: 'big.gif' }] })
      .catch((e: unknown) => e);
    expect((big as DiscordAPIError).code).toBe(40005);
    expect((big as DiscordAPIError).status).toBe(413);
  });

  it('a message of several embeds: at most 10, their texts 6,000 characters together, as Discord says', async () => {
    const h = await harness({ rateLimits });
    const embed = (description: string): APIEmbed => ({ description });
    for (const [embeds, field] of [
      [Array.from({ length: 11 }, () => embed('x')), 'embeds'],
      // Each within its own limits (4,096 each), over 6,000 together.
      [[embed('x'.repeat(4_096)), embed('x'.repeat(1_905))], 'embeds'],
      [
        [
          embed('x'.repeat(2_000)),
          { title: 'x'.repeat(256), footer: { text: 'x'.repeat(2_048) } },
          embed('x'.repeat(1_697)),
        ],
        'embeds',
      ],
    ] satisfies [APIEmbed[], string][]) {
      const error = await h.textChannel.send({ embeds }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DiscordAPIError);
      expect((error as DiscordAPIError).code).toBe(50035);
      expect(errorPaths((h.fake.requests.at(-1)!.response as { errors: object }).errors)).toEqual([field]);
    }
    expect(h.fake.messagesIn(h.channel.id)).toEqual([]);
    // At the limits: taken.
    await h.textChannel.send({ embeds: Array.from({ length: 10 }, () => embed('x')) });
    await h.textChannel.send({ embeds: [embed('x'.repeat(4_096)), embed('x'.repeat(1_904))] });
    expect(h.fake.messagesIn(h.channel.id)).toHaveLength(2);
  });

  it('notes an embed picture naming no attachment of its message (Discord shows it outside the embed)', async () => {
    const h = await harness({ rateLimits });
    const message = await h.textChannel.send({
      embeds: [picture('board.png'), picture('partner.png')],
      files: [{ attachment: png, name: 'board.png' }],
    });
    expect(h.fake.state.unresolvedPictures).toEqual([
      `${message.id} embeds.1.image: attachment://partner.png`,
    ]);
    // An edit without files keeps the attachments: its names still match.
    await h.textChannel.messages.edit(message.id, { embeds: [picture('board.png')] });
    expect(h.fake.state.unresolvedPictures).toHaveLength(1);
    // An edit that drops every attachment leaves the picture naming none.
    await h.textChannel.messages.edit(message.id, { embeds: [picture('board.png')], attachments: [] });
    expect(h.fake.state.unresolvedPictures).toEqual([
      `${message.id} embeds.1.image: attachment://partner.png`,
      `${message.id} embeds.0.image: attachment://board.png`,
    ]);
  });

  it('notes a picture an edit left outside its embed (Discord shows it as a loose file)', async () => {
    const h = await harness({ rateLimits });
    const message = await h.textChannel.send({
      embeds: [picture('board.png'), picture('partner.png')],
      files: [
        { attachment: png, name: 'board.png' },
        { attachment: png, name: 'partner.png' },
        { attachment: png, name: 'game.pgn' },
      ],
    });
    // Both embeds kept: nothing loose (a file no embed ever showed, the PGN, is not a picture).
    await h.textChannel.messages.edit(message.id, { embeds: [picture('board.png'), picture('partner.png')] });
    expect(h.fake.state.loosePictures).toEqual([]);
    // The partner's embed dropped, its file kept.
    await h.textChannel.messages.edit(message.id, { embeds: [picture('board.png')] });
    expect(h.fake.state.loosePictures).toEqual([`${message.id}: partner.png`]);
  });

  it('the bot removed from a guild: GUILD_DELETE, then 50001 on its channels; added back: GUILD_CREATE', async () => {
    const h = await harness();
    const message = await h.textChannel.send('board');
    const deleted = once(h.client as Client, Events.GuildDelete);
    h.fake.removeBot(h.guild.id);
    const [guild] = (await deleted) as [{ id: string; available: boolean }];
    expect(guild.id).toBe(h.guild.id);
    const error = await h.client.rest
      .patch(`/channels/${h.channel.id}/messages/${message.id}`, { body: { content: 'x' } })
      .catch((e: unknown) => e);
    expect((error as DiscordAPIError).code).toBe(50001);
    const created = once(h.client as Client, Events.GuildCreate);
    h.fake.addBot(h.guild.id);
    await created;
    await h.client.rest.patch(`/channels/${h.channel.id}/messages/${message.id}`, {
      body: { content: 'back' },
    });
    expect(h.fake.message(message.id)!.content).toBe('back');
  });
});

describe('fake Discord global limit', () => {
  it("counts every connection of one token in the bot's global limit", async () => {
    const { fake, channel } = await startFake({
      rateLimits: { ...rateLimits, global: { limit: 10, windowMs: 60_000 } },
    });
    try {
      // Two processes of one bot (two shards), each on its own connections.
      const shard = (n: number) =>
        Array.from({ length: 8 }, (_, i) =>
          fetch(`${fake.apiBase}/v10/channels/${channel.id}/messages`, {
            method: 'POST',
            headers: {
              authorization: `Bot ${fake.token}`,
              'content-type': 'application/json',
              connection: 'close',
            },
            body: JSON.stringify({ content: `shard ${n} message ${i}` }),
          }),
        );
      const answers = await Promise.all([...shard(0), ...shard(1)]);
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(10);
      const refused = answers.filter((a) => a.status === 429);
      expect(refused).toHaveLength(6);
      expect(refused.every((a) => a.headers.get('x-ratelimit-global') === 'true')).toBe(true);
      expect(refused[0]!.headers.get('x-ratelimit-scope')).toBe('global');
      expect(fake.globalLimited).toBe(6);
    } finally {
      await fake.stop();
    }
  });
});
