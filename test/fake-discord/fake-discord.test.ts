// The fake Discord, exercised through the real discord.js client: if these pass, discord.js
// accepts what the fake sends, and the fake sees what discord.js really sends.
import { on, once } from 'node:events';
import { connect } from 'node:net';
import {
  ActionRowBuilder,
  AttachmentBuilder,
  ButtonBuilder,
  ButtonStyle,
  ChannelType,
  Client,
  DiscordjsError,
  Events,
  GatewayIntentBits,
  GatewayOpcodes,
  MessageFlags,
  PermissionFlagsBits,
  SlashCommandBuilder,
  StringSelectMenuBuilder,
} from 'discord.js';
import type { DiscordAPIError, Interaction, RateLimitData, ThreadChannel } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { IDENTIFY_WINDOW_MS } from './gateway.js';
import { MESSAGE_FLAG_EPHEMERAL } from './index.js';
import { startFake, startFakeWithClient, TINY_PNG } from '../discord/harness.js';
import type { ClientHarness, Harness } from '../discord/harness.js';

let open: Harness[] = [];
afterEach(async () => {
  for (const harness of open) await harness.close();
  open = [];
});

async function withClient(...args: Parameters<typeof startFakeWithClient>): Promise<ClientHarness> {
  const harness = await startFakeWithClient(...args);
  open.push(harness);
  return harness;
}

const observe = new SlashCommandBuilder()
  .setName('observe')
  .setDescription('Show a live game')
  .addIntegerOption((o) =>
    o.setName('game').setDescription('Game number').setRequired(true).setAutocomplete(true),
  )
  .addBooleanOption((o) => o.setName('flip').setDescription('Black at the bottom'));

/** Registers /observe in the harness guild and routes interactions to `handler`. */
async function withObserve(
  h: ClientHarness,
  handler: (interaction: Interaction) => Promise<void>,
): Promise<void> {
  await h.client.application.commands.set([observe.toJSON()], h.guild.id);
  h.client.on(Events.InteractionCreate, (interaction) => void handler(interaction));
}

describe('fake Discord: gateway', () => {
  it('logs discord.js in to READY with guilds, channels, roles and the bot member cached', async () => {
    const h = await withClient();
    expect(h.client.user.id).toBe(h.fake.bot.id);
    expect(h.client.application.id).toBe(h.fake.applicationId);
    const guild = h.client.guilds.cache.get(h.guild.id);
    expect(guild?.name).toBe('Chess Club');
    expect(guild?.members.me?.id).toBe(h.fake.bot.id);
    expect(guild?.roles.everyone.id).toBe(h.guild.id);
    expect(h.textChannel.name).toBe('live-games');
    // discord.js computes the same channel permissions as the fake does.
    expect(h.textChannel.permissionsFor(h.fake.bot.id)?.bitfield).toBe(
      h.fake.permissionsFor(h.channel.id, h.fake.bot.id),
    );
    expect(
      h.fake.gatewayLog.filter((e) => e.direction === 'in' && e.op === GatewayOpcodes.Identify),
    ).toHaveLength(1);
    expect(h.fake.requests.map((r) => `${r.method} ${r.route} ${r.status}`)).toEqual([
      'GET /gateway/bot 200',
    ]);
  });

  it('answers heartbeats with ACKs', async () => {
    const h = await withClient({ heartbeatIntervalMs: 100 });
    const acked = new Promise((resolve) =>
      h.client.on(Events.Debug, (message) => message.includes('Heartbeat acknowledged') && resolve(message)),
    );
    await acked;
    const log = h.fake.gatewayLog;
    const beat = log.findIndex((e) => e.direction === 'in' && e.op === GatewayOpcodes.Heartbeat);
    expect(beat).toBeGreaterThan(-1);
    expect(log.slice(beat).some((e) => e.direction === 'out' && e.op === GatewayOpcodes.HeartbeatAck)).toBe(
      true,
    );
  });

  it('refuses a wrong token over REST, which discord.js reports as an invalid token', async () => {
    const h = await startFake();
    open.push(h);
    const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: h.fake.apiBase } });
    const error = await client.login('not-the-token').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DiscordjsError);
    expect((error as DiscordjsError).code).toBe('TokenInvalid');
    expect(h.fake.requests[0]?.status).toBe(401);
    await client.destroy();
  });

  it('sends guilds, channels and role changes made after READY', async () => {
    const h = await withClient();
    const guildCreated = once(h.client, Events.GuildCreate);
    const late = h.fake.createGuild({ name: 'Late Club' });
    const [guild] = (await guildCreated) as [{ id: string }];
    expect(guild.id).toBe(late.id);

    const channelCreated = once(h.client, Events.ChannelCreate);
    const extra = h.fake.createChannel(h.guild.id, { name: 'blitz' });
    await channelCreated;
    expect(h.client.channels.cache.get(extra.id)).toBeDefined();

    const roleUpdated = once(h.client, Events.GuildRoleUpdate);
    h.fake.setRolePermissions(h.guild.id, h.guild.id, PermissionFlagsBits.ViewChannel);
    h.fake.setRolePermissions(h.guild.id, h.fake.botRole(h.guild.id).id, PermissionFlagsBits.ViewChannel);
    await roleUpdated;
    await h.fake.waitFor(
      () =>
        h.textChannel.permissionsFor(h.fake.bot.id)?.has(PermissionFlagsBits.SendMessages) === false
          ? true
          : undefined,
      'the client to see the reduced permissions',
      2000,
    );
    expect(h.textChannel.permissionsFor(h.fake.bot.id)?.bitfield).toBe(PermissionFlagsBits.ViewChannel);
  });

  it('resumes a dropped connection and replays the events it missed', async () => {
    const h = await withClient();
    await withObserve(h, async (interaction) => {
      if (interaction.isChatInputCommand())
        await interaction.reply(`observing ${interaction.options.getInteger('game')}`);
    });
    const resumed = once(h.client, Events.ShardResume);
    h.fake.dropGateway();
    expect(h.fake.connected).toBe(false);
    // Sent while disconnected: must arrive through the RESUME replay.
    const handle = h.fake.command(h.guild.id, h.channel.id, 'observe', { game: 12 });
    const [, replayed] = (await resumed) as [number, number];
    // discord.js counts the RESUMED event itself among the replayed ones.
    expect(replayed).toBe(2);
    expect((await handle.reply()).content).toBe('observing 12');
    const log = h.fake.gatewayLog;
    const resume = log.findIndex((e) => e.direction === 'in' && e.op === GatewayOpcodes.Resume);
    expect(
      log
        .slice(resume)
        .filter((e) => e.direction === 'out' && e.t !== null)
        .map((e) => e.t),
    ).toEqual(['INTERACTION_CREATE', 'RESUMED']);
    expect(log.filter((e) => e.direction === 'in' && e.op === GatewayOpcodes.Identify)).toHaveLength(1);
  });

  it('makes the client identify afresh when the session cannot be resumed', async () => {
    // No identify throttling in this client: the fake's behaviour is what is under test.
    const h = await withClient(
      {},
      { ws: { buildIdentifyThrottler: async () => ({ waitForIdentify: async () => {} }) } },
    );
    const readyAgain = once(h.client, Events.ShardReady);
    // Past Discord's identify window (one IDENTIFY per 5 s), which the fake enforces.
    h.fake.advanceClock(IDENTIFY_WINDOW_MS);
    h.fake.dropGateway({ resumable: false });
    // Wait for the client's own view: destroying a client that is mid-IDENTIFY makes discord.js reconnect.
    await readyAgain;
    const log = h.fake.gatewayLog;
    expect(log.filter((e) => e.direction === 'in' && e.op === GatewayOpcodes.Resume)).toHaveLength(1);
    expect(log.filter((e) => e.direction === 'out' && e.op === GatewayOpcodes.InvalidSession)).toHaveLength(
      1,
    );
    expect(log.filter((e) => e.direction === 'in' && e.op === GatewayOpcodes.Identify)).toHaveLength(2);
    expect(log.filter((e) => e.direction === 'out' && e.t === 'READY')).toHaveLength(2);
    expect(h.fake.connected).toBe(true);
  });

  it('takes one IDENTIFY per rate-limit key (shard % max_concurrency) per 5 s, answering Invalid Session', async () => {
    const h = await startFake({ maxConcurrency: 2 });
    open.push(h);
    const answer = await fetch(`${h.fake.apiBase}/v10/gateway/bot`, {
      headers: { authorization: `Bot ${h.fake.token}` },
    });
    expect(((await answer.json()) as { session_start_limit: unknown }).session_start_limit).toMatchObject({
      max_concurrency: 2,
    });
    // Keys 0 and 1: both let in at once.
    expect(await Promise.all([identifyAs(h, 0, 4), identifyAs(h, 1, 4)])).toEqual([
      GatewayOpcodes.Dispatch,
      GatewayOpcodes.Dispatch,
    ]);
    // Shard 2 has key 0, which identified less than 5 s ago.
    expect(await identifyAs(h, 2, 4)).toBe(GatewayOpcodes.InvalidSession);
    expect(h.fake.refusedIdentifies.map((r) => r.shard)).toEqual([2]);
    h.fake.advanceClock(IDENTIFY_WINDOW_MS);
    expect(await identifyAs(h, 2, 4)).toBe(GatewayOpcodes.Dispatch);
    expect(h.fake.refusedIdentifies).toHaveLength(1);
  });
});

/** Opens a gateway connection, identifies as shard `[id, count]`, and gives the op of the answer. */
async function identifyAs(h: Harness, id: number, count: number): Promise<number> {
  const ws = new WebSocket(h.fake.gatewayUrl);
  try {
    const frames = on(ws, 'message') as AsyncIterableIterator<[Buffer]>;
    await frames.next(); // HELLO
    ws.send(
      JSON.stringify({
        op: GatewayOpcodes.Identify,
        d: { token: h.fake.token, intents: GatewayIntentBits.Guilds, properties: {}, shard: [id, count] },
      }),
    );
    const { value } = await frames.next();
    return (JSON.parse(String((value as [Buffer])[0])) as { op: number }).op;
  } finally {
    ws.terminate();
  }
}

describe('fake Discord: interactions', () => {
  it('round-trips a slash command with options to an ephemeral reply', async () => {
    const h = await withClient();
    let seen: { game: number | null; flip: boolean | null; user: string; appPermissions: bigint } | null =
      null;
    await withObserve(h, async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      seen = {
        game: interaction.options.getInteger('game'),
        flip: interaction.options.getBoolean('flip'),
        user: interaction.user.username,
        appPermissions: interaction.appPermissions.bitfield,
      };
      await interaction.reply({ content: 'Not a live game.', flags: MessageFlags.Ephemeral });
    });
    const reply = await h.fake.command(h.guild.id, h.channel.id, 'observe', { game: 12, flip: true }).reply();
    expect(seen).toEqual({
      game: 12,
      flip: true,
      user: 'tester',
      appPermissions: h.fake.permissionsFor(h.channel.id, h.fake.bot.id),
    });
    expect(reply).toMatchObject({
      callbackType: 4,
      ephemeral: true,
      flags: MESSAGE_FLAG_EPHEMERAL,
      content: 'Not a live game.',
    });
    // Ephemeral replies are not part of the channel's history.
    expect(h.fake.messagesIn(h.channel.id).filter((m) => (m.flags & MESSAGE_FLAG_EPHEMERAL) === 0)).toEqual(
      [],
    );
  });

  it('returns the created message when asked with_response, and serves the bot member', async () => {
    const h = await withClient();
    let content: string | undefined;
    await withObserve(h, async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      const response = await interaction.reply({ content: 'Game 12 is live', withResponse: true });
      content = response.resource?.message?.content;
    });
    await h.fake.command(h.guild.id, h.channel.id, 'observe', { game: 12 }).reply();
    await h.fake.waitFor(() => content, 'the callback response', 2000);
    expect(content).toBe('Game 12 is live');
    const me = await h.client.guilds.cache.get(h.guild.id)?.members.fetchMe({ force: true });
    expect(me?.id).toBe(h.fake.bot.id);
    expect(h.fake.requests.at(-1)?.path).toBe(`/guilds/${h.guild.id}/members/${h.fake.bot.id}`);
  });

  it('checks option names and types against the registered command', async () => {
    const h = await withClient();
    await withObserve(h, async () => {});
    expect(() => h.fake.command(h.guild.id, h.channel.id, 'observe', { gmae: 12 })).toThrow(
      /no option "gmae"/,
    );
    expect(() => h.fake.command(h.guild.id, h.channel.id, 'observe', { game: 'twelve' })).toThrow(
      /integer, got string/,
    );
    expect(() => h.fake.command(h.guild.id, h.channel.id, 'nope')).toThrow(/not registered/);
  });

  it('defers, then edits @original with an image: the reply is the edit, with the PNG bytes', async () => {
    const h = await withClient();
    await withObserve(h, async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      await interaction.deferReply();
      await interaction.editReply({
        content: 'Game 12',
        files: [new AttachmentBuilder(TINY_PNG, { name: 'board.png' })],
      });
      await interaction.followUp({ content: 'Only you see this', flags: MessageFlags.Ephemeral });
    });
    const handle = h.fake.command(h.guild.id, h.channel.id, 'observe', { game: 12 });
    const reply = await handle.reply();
    expect(reply.callbackType).toBe(5);
    expect(reply.content).toBe('Game 12');
    expect(reply.files).toHaveLength(1);
    expect(reply.files[0]?.filename).toBe('board.png');
    expect(reply.files[0]?.bytes.equals(TINY_PNG)).toBe(true);
    const followUp = await handle.followUp(0);
    expect(followUp.content).toBe('Only you see this');
    expect(followUp.flags & MESSAGE_FLAG_EPHEMERAL).toBe(MESSAGE_FLAG_EPHEMERAL);

    const edit = h.fake.requests.find((r) => r.method === 'PATCH');
    expect(edit?.route).toBe('/webhooks/:application_id/:interaction_token/messages/:message_id');
    expect(edit?.params.message_id).toBe('@original');
    expect(edit?.files[0]?.bytes.equals(TINY_PNG)).toBe(true);
    // The attachment URL the fake hands out serves the same bytes.
    const url = (h.fake.apiMessage(reply.message!).attachments as { url: string; width: number }[])[0];
    expect(url?.width).toBe(3);
    expect(Buffer.from(await (await fetch(url!.url)).arrayBuffer()).equals(TINY_PNG)).toBe(true);
  });

  it('answers autocomplete with choices', async () => {
    const h = await withClient();
    await withObserve(h, async (interaction) => {
      if (!interaction.isAutocomplete()) return;
      const typed = interaction.options.getFocused();
      await interaction.respond([{ name: `Game ${typed}4: Alice vs Bob`, value: Number(`${typed}4`) }]);
    });
    const reply = await h.fake
      .autocomplete(h.guild.id, h.channel.id, 'observe', { game: '1' }, 'game')
      .reply();
    expect(reply.callbackType).toBe(8);
    expect(reply.choices).toEqual([{ name: 'Game 14: Alice vs Bob', value: 14 }]);
  });

  it('delivers a button press on a posted message and records the update', async () => {
    const h = await withClient();
    h.client.on(Events.InteractionCreate, (interaction) => {
      if (interaction.isButton()) void interaction.update({ content: `pressed ${interaction.customId}` });
      if (interaction.isStringSelectMenu())
        void interaction.reply({ content: `chose ${interaction.values.join(',')}` });
    });
    const row = new ActionRowBuilder<ButtonBuilder>().addComponents(
      new ButtonBuilder().setCustomId('flip:7').setLabel('Flip').setStyle(ButtonStyle.Secondary),
    );
    const menu = new ActionRowBuilder<StringSelectMenuBuilder>().addComponents(
      new StringSelectMenuBuilder().setCustomId('theme:7').addOptions({ label: 'Green', value: 'green' }),
    );
    const posted = await h.textChannel.send({ content: 'Game 7', components: [row, menu] });

    const pressed = await h.fake.button(posted.id, 'flip:7').reply();
    expect(pressed.callbackType).toBe(7);
    expect(pressed.content).toBe('pressed flip:7');
    expect(h.fake.message(posted.id)?.revisions.map((r) => r.content)).toEqual(['Game 7', 'pressed flip:7']);

    const chosen = await h.fake.selectMenu(posted.id, 'theme:7', ['green']).reply();
    expect(chosen.content).toBe('chose green');
    expect(() => h.fake.button(posted.id, 'nope')).toThrow(/no component "nope"/);
  });

  it('refuses a second response and a response after the 3 s window', async () => {
    const h = await withClient();
    const errors: unknown[] = [];
    await withObserve(h, async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      const game = interaction.options.getInteger('game');
      if (game === 1) {
        await interaction.reply('first');
        // A second initial response straight to the callback route, as a buggy bot would send it.
        await h.client.rest
          .post(`/interactions/${interaction.id}/${interaction.token}/callback`, {
            body: { type: 4, data: { content: 'again' } },
            auth: false,
          })
          .catch((e: unknown) => errors.push(e));
      } else {
        h.fake.advanceClock(3_001);
        await interaction.reply('too late').catch((e: unknown) => errors.push(e));
      }
    });
    await h.fake.command(h.guild.id, h.channel.id, 'observe', { game: 1 }).reply();
    const late = h.fake.command(h.guild.id, h.channel.id, 'observe', { game: 2 });
    await h.fake.waitFor(() => (errors.length === 2 ? true : undefined), 'two refusals', 3000);
    expect((errors as DiscordAPIError[]).map((e) => e.code)).toEqual([40060, 10062]);
    expect(late.record.callback).toBeNull();
  });
});

describe('fake Discord: channels and threads', () => {
  it('posts and edits channel messages with files, replacing the image as Discord does', async () => {
    const h = await withClient();
    const first = Buffer.concat([TINY_PNG, Buffer.from([1])]);
    const posted = await h.textChannel.send({
      content: 'move 1',
      files: [new AttachmentBuilder(first, { name: 'board.png' })],
    });
    const edited = await posted.edit({
      content: 'move 2',
      files: [new AttachmentBuilder(TINY_PNG, { name: 'board.png' })],
    });
    expect(edited.attachments.size).toBe(1);
    const stored = h.fake.message(posted.id);
    expect(stored?.attachments).toHaveLength(1);
    expect(stored?.attachments[0]?.bytes.equals(TINY_PNG)).toBe(true);
    expect(stored?.revisions.map((r) => [r.content, r.attachments[0]?.bytes.length])).toEqual([
      ['move 1', first.length],
      ['move 2', TINY_PNG.length],
    ]);
    const patch = h.fake.requestsTo('PATCH', '/channels/:channel_id/messages/:message_id')[0];
    expect(patch?.body).toMatchObject({ content: 'move 2', attachments: [{ id: '0' }] });
    for (const request of h.fake.requests)
      expect(request.headers['authorization']).toBe(`Bot ${h.fake.token}`);
  });

  it('creates threads (standalone and from a message) and posts into them', async () => {
    const h = await withClient();
    const threadCreated = once(h.client, Events.ThreadCreate);
    const thread = await h.textChannel.threads.create({
      name: 'Game 12: Alice vs Bob',
      type: ChannelType.PublicThread,
    });
    await threadCreated;
    expect(thread.parentId).toBe(h.channel.id);
    await thread.send({ files: [new AttachmentBuilder(TINY_PNG, { name: 'board.png' })] });
    expect(h.fake.messagesIn(thread.id)).toHaveLength(1);

    const starter = await h.textChannel.send('Game 40 starts');
    const fromMessage: ThreadChannel = await starter.startThread({ name: 'Game 40 chat' });
    expect(fromMessage.id).toBe(starter.id);
    const again = await starter.startThread({ name: 'twice' }).catch((e: unknown) => e);
    expect((again as DiscordAPIError).code).toBe(160004);
  });

  it('refuses posts the bot has no permission for, as Discord does', async () => {
    const h = await withClient();
    const updated = once(h.client, Events.ChannelUpdate);
    h.fake.setOverwrite(h.channel.id, {
      id: h.fake.botRole(h.guild.id).id,
      type: 'role',
      deny: PermissionFlagsBits.AttachFiles,
    });
    await updated;
    expect(h.textChannel.permissionsFor(h.fake.bot.id)?.has(PermissionFlagsBits.AttachFiles)).toBe(false);
    const error = await h.textChannel
      .send({ files: [new AttachmentBuilder(TINY_PNG, { name: 'board.png' })] })
      .catch((e: unknown) => e);
    expect((error as DiscordAPIError).code).toBe(50013);
    const text = await h.textChannel.send('text is still fine');

    // A moderator deletes the message: editing it now fails with Unknown Message.
    h.fake.deleteMessage(text.id);
    const gone = await text.edit('x').catch((e: unknown) => e);
    expect((gone as DiscordAPIError).code).toBe(10008);
  });
});

describe('fake Discord: rate limits and failures', () => {
  it('drops a request whose client hangs up halfway (a killed bot), and serves the next', async () => {
    const h = await startFake();
    open.push(h);
    const api = new URL(h.fake.apiBase);
    const socket = connect(Number(api.port), api.hostname);
    await once(socket, 'connect');
    socket.write(
      `POST ${api.pathname}/v10/channels/${h.channel.id}/messages HTTP/1.1\r\nHost: ${api.host}\r\n` +
        `Authorization: Bot ${h.fake.token}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"content":`,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    const whole = await fetch(`${h.fake.apiBase}/v10/channels/${h.channel.id}/messages`, {
      method: 'POST',
      headers: { authorization: `Bot ${h.fake.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'board' }),
    });
    expect(whole.status).toBe(200);
    expect(h.fake.messagesIn(h.channel.id).map((m) => m.content)).toEqual(['board']);
  });

  it('sends X-RateLimit-* headers and enforces the per-channel edit bucket with a proper 429', async () => {
    const h = await startFake({ rateLimits: { messageEdit: { limit: 2, windowMs: 60_000 } } });
    open.push(h);
    const other = h.fake.createChannel(h.guild.id, { name: 'other' });
    const auth = { authorization: `Bot ${h.fake.token}`, 'content-type': 'application/json' };
    const post = async (channelId: string): Promise<string> => {
      const response = await fetch(`${h.fake.apiBase}/v10/channels/${channelId}/messages`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ content: 'board' }),
      });
      return ((await response.json()) as { id: string }).id;
    };
    const edit = (channelId: string, id: string): Promise<Response> =>
      fetch(`${h.fake.apiBase}/v10/channels/${channelId}/messages/${id}`, {
        method: 'PATCH',
        headers: auth,
        body: JSON.stringify({ content: 'next' }),
      });
    const id = await post(h.channel.id);
    const first = await edit(h.channel.id, id);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-limit')).toBe('2');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('1');
    expect(Number(first.headers.get('x-ratelimit-reset-after'))).toBeGreaterThan(59);
    expect(first.headers.get('x-ratelimit-bucket')).toMatch(/^[0-9a-f]{16}$/);
    expect((await edit(h.channel.id, id)).headers.get('x-ratelimit-remaining')).toBe('0');

    const limited = await edit(h.channel.id, id);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(59);
    expect(limited.headers.get('x-ratelimit-scope')).toBe('user');
    expect(((await limited.json()) as { retry_after: number }).retry_after).toBeGreaterThan(59);
    expect(h.fake.message(id)?.revisions).toHaveLength(3);

    // Another channel has its own bucket.
    expect((await edit(other.id, await post(other.id))).status).toBe(200);
  });

  it('makes discord.js wait out an injected 429 and then succeed', async () => {
    const h = await withClient();
    const limits: RateLimitData[] = [];
    h.client.rest.on('rateLimited', (info) => limits.push(info));
    h.fake.failNext(
      { method: 'POST', route: '/channels/:channel_id/messages' },
      { kind: 'rateLimit', retryAfterMs: 300 },
    );
    const sent = await h.textChannel.send('after the limit');
    expect(sent.content).toBe('after the limit');
    const posts = h.fake.requestsTo('POST', '/channels/:channel_id/messages');
    expect(posts.map((r) => r.status)).toEqual([429, 200]);
    expect(posts[1]!.at - posts[0]!.at).toBeGreaterThanOrEqual(300);
    expect(limits).toHaveLength(1);
    expect(limits[0]?.retryAfter).toBeGreaterThanOrEqual(300);
  });

  it('lets discord.js pace edits by the announced bucket without ever getting a 429', async () => {
    const h = await withClient({ rateLimits: { messageEdit: { limit: 2, windowMs: 300 } } });
    const posted = await h.textChannel.send('move 0');
    for (let move = 1; move <= 5; move++) await posted.edit(`move ${move}`);
    const edits = h.fake.requestsTo('PATCH', '/channels/:channel_id/messages/:message_id');
    expect(edits.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    // Two per window: the third edit waited for the first window to close.
    expect(edits[2]!.at - edits[0]!.at).toBeGreaterThanOrEqual(250);
  });

  it('lists a request sent again on its method and path less than 250 ms (its clock) after a 5xx or a cut', async () => {
    const h = await startFake();
    open.push(h);
    const get = (path: string): Promise<number> =>
      fetch(`${h.fake.apiBase}/v10${path}`, { headers: { authorization: `Bot ${h.fake.token}` } }).then(
        (response) => response.status,
        () => -1,
      );
    const gateway = '/gateway/bot';
    const channel = `/channels/${h.channel.id}`;
    h.fake.failNext({ path: gateway }, { kind: 'error', status: 503 });
    expect(await get(gateway)).toBe(503);
    // Another path is not a retry of it.
    expect(await get(channel)).toBe(200);
    expect(h.fake.immediateRetries).toEqual([]);
    // The same, at once: served, and listed.
    expect(await get(gateway)).toBe(200);
    expect(h.fake.immediateRetries).toMatchObject([{ method: 'GET', path: gateway, failedStatus: 503 }]);
    expect(h.fake.immediateRetries[0]!.waitedMs).toBeLessThan(250);
    // After the wait: not listed.
    h.fake.failNext({ path: gateway }, { kind: 'error', status: 500 });
    expect(await get(gateway)).toBe(500);
    h.fake.advanceClock(250);
    expect(await get(gateway)).toBe(200);
    // A cut connection, then the same at once: listed.
    h.fake.failNext({ path: channel }, { kind: 'reset' });
    expect(await get(channel)).toBe(-1);
    expect(await get(channel)).toBe(200);
    // A refusal for good is not a failure to wait out (a retry of it is another rule).
    h.fake.failNext({ path: channel }, { kind: 'error', status: 403, code: 50001 });
    expect(await get(channel)).toBe(403);
    expect(await get(channel)).toBe(200);
    expect(h.fake.immediateRetries.map((r) => [r.path, r.failedStatus])).toEqual([
      [gateway, 503],
      [channel, -1],
    ]);
    // What the harnesses call when a test ends.
    expect(() => h.fake.assertRetriesWaited()).toThrow(
      /2 request\(s\) sent again less than 250 ms after a 5xx or a cut connection .*GET \/gateway\/bot/,
    );
    expect(h.fake.takeImmediateRetries()).toHaveLength(2);
    expect(() => h.fake.assertRetriesWaited()).not.toThrow();
  });

  it('answers 500 on demand (discord.js, left at retries: 3, resends it at once) and can reset a connection', async () => {
    const h = await withClient();
    h.fake.failNext({ path: /^\/channels\/\d+\/messages$/ }, { kind: 'error', status: 500 });
    await h.textChannel.send('retried');
    const posts = h.fake.requestsTo('POST', '/channels/:channel_id/messages');
    expect(posts.map((r) => r.status)).toEqual([500, 200]);
    // Sent again with no wait: Discord asks for one, the fake lists it (the bot sets retries: 0).
    expect(h.fake.takeImmediateRetries()).toEqual([
      {
        method: 'POST',
        path: posts[0]!.path,
        failedSeq: posts[0]!.seq,
        failedStatus: 500,
        seq: posts[1]!.seq,
        waitedMs: expect.any(Number) as number,
      },
    ]);

    h.fake.failNext(
      { method: 'POST' },
      { kind: 'error', status: 403, code: 50013, message: 'Missing Permissions' },
    );
    const refused = await h.textChannel.send('refused').catch((e: unknown) => e);
    expect((refused as DiscordAPIError).code).toBe(50013);

    // discord.js does not retry a closed socket: the caller sees the error.
    h.fake.failNext({ method: 'POST' }, { kind: 'reset' });
    await expect(h.textChannel.send('lost')).rejects.toThrow(/other side closed/);
    expect(h.fake.requests.at(-1)?.status).toBe(-1);
    // The wait Discord asks for before the same request again, on the fake's clock.
    h.fake.advanceClock(250);
    await h.textChannel.send('after a reset');
    expect(h.fake.messagesIn(h.channel.id).map((m) => m.content)).toEqual(['retried', 'after a reset']);
    expect(h.fake.internalErrors).toEqual([]);
  });
});
