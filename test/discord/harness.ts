// Test harness: a fake Discord with one guild and a text channel, and a real discord.js client
// logged in to it. Everything it starts is closed by close().
import { once } from 'node:events';
import { Client, Events, GatewayIntentBits } from 'discord.js';
import type { ClientOptions, TextChannel } from 'discord.js';
import { FakeDiscord } from '../fake-discord/index.js';
import type { FakeChannel, FakeDiscordOptions, FakeGuild } from '../fake-discord/index.js';
import { startLoggedBot, type LoggedBot } from '../support/logged-bot.js';
import type { ScheduleClock } from '../../src/clock.js';

export interface Harness {
  fake: FakeDiscord;
  guild: FakeGuild;
  channel: FakeChannel;
  close(): Promise<void>;
}

export interface ClientHarness extends Harness {
  client: Client<true>;
  /** The channel as the client caches it. */
  textChannel: TextChannel;
}

export async function startFake(options: FakeDiscordOptions = {}): Promise<Harness> {
  const fake = await FakeDiscord.start(options);
  const guild = fake.createGuild({ name: 'Chess Club' });
  const channel = fake.createChannel(guild.id, { name: 'live-games' });
  return { fake, guild, channel, close: () => stopChecked(fake) };
}

export async function startFakeWithClient(
  options: FakeDiscordOptions = {},
  clientOptions: Partial<ClientOptions> = {},
): Promise<ClientHarness> {
  const harness = await startFake(options);
  const client = new Client({
    intents: [GatewayIntentBits.Guilds],
    ...clientOptions,
    rest: { api: harness.fake.apiBase, ...clientOptions.rest },
  });
  client.on(Events.Error, () => undefined);
  const ready = once(client, Events.ClientReady);
  await client.login(harness.fake.token);
  await ready;
  if (!client.isReady()) throw new Error('client not ready');
  const textChannel = client.channels.cache.get(harness.channel.id) as TextChannel;
  return {
    ...harness,
    client,
    textChannel,
    close: async () => {
      await client.destroy();
      await harness.close();
    },
  };
}

/**
 * Stops the fake, then fails the test if a request was sent again without a wait after a 5xx or a
 * cut connection (`minRetryWaitMs`): every test that uses a fake guards that rule.
 */
async function stopChecked(fake: FakeDiscord): Promise<void> {
  await fake.stop();
  fake.assertRetriesWaited();
}

/** A real 3x2 red PNG, made once with @napi-rs/canvas and kept as bytes. */
export const TINY_PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000030000000208060000009d74661a0000000473424954080808087c086488000000017352474200aece1ce90000001349444154089963fccfc0f09f010a98189000002f1f02023d848baa0000000049454e44ae426082',
  'hex',
);

export type TestBot = LoggedBot;

/** Starts the real bot (startBot, as main does) against the harness's fake, logging at trace. */
export function startTestBot(
  harness: Harness,
  options: { commandsDir?: URL; env?: Record<string, string | undefined>; answerClock?: ScheduleClock } = {},
): Promise<TestBot> {
  return startLoggedBot(
    {
      DISCORD_TOKEN: harness.fake.token,
      DISCORD_API_BASE: harness.fake.apiBase,
      DISCORD_GUILD_ID: harness.guild.id,
      KIBITZ_DB: ':memory:',
      LOG_LEVEL: 'trace',
      ...options.env,
    },
    {
      ...(options.commandsDir ? { commandsDir: options.commandsDir } : {}),
      ...(options.answerClock ? { answerClock: options.answerClock } : {}),
    },
  );
}

export const FIXTURE_COMMANDS = new URL('./fixture-commands/', import.meta.url);
export const BROKEN_COMMANDS = new URL('./fixture-commands-broken/', import.meta.url);
