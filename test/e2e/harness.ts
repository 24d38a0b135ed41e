// End-to-end world: the fake Discord, the fake FICS server, and the real bot (startBot, the real
// discord.js client, real renders, real SQLite) between them, all on 127.0.0.1. Everything a
// world starts is closed by close(). No vitest here: the latency bench runs it too.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configSecrets, loadConfig } from '../../src/config.js';
import { startBot, type BotHandle } from '../../src/app.js';
import type { PoolOptions } from '../../src/fics/pool.js';
import { createLogger } from '../../src/log.js';
import { BOARD_IMAGE } from '../../src/relay/message.js';
import type { ScheduleClock } from '../../src/relay/schedule.js';
import { startFake, type Harness } from '../discord/harness.js';
import { sharedRenderPools } from '../support/render-pools.js';
import type { FakeDiscordOptions, FakeMessage, InteractionHandle, Invoker } from '../fake-discord/index.js';
import type { GameScript } from '../fake-fics/game.js';
import { IDENTIFY_WINDOW_MS } from '../fake-discord/gateway.js';
import { FakeFics, type FakeFicsOptions } from '../fake-fics/server.js';
import { bughouseFixture, scriptOf as fixtureScript, type FixtureGame } from '../fake-fics/fixture-games.js';

/** FICS timings that keep a test's waits short (the fake answers at once). */
export const FAST_FICS: Partial<PoolOptions> = {
  loginTimeoutMs: 3_000,
  commandTimeoutMs: 2_000,
  backoff: { initialMs: 20, maxMs: 200, factor: 2, jitter: 0.5 },
};

export interface WorldOptions {
  discord?: FakeDiscordOptions;
  fics?: FakeFicsOptions;
  /** Keep the database in a file (so a second bot can reopen it); in memory otherwise. */
  dbFile?: boolean;
}

export interface BotOptions {
  /** Point the bot at this FICS port instead of the fake's (a closed port: FICS unreachable). */
  ficsPort?: number;
  /** Wait for the FICS login before returning (default true). */
  waitForFics?: boolean;
  /** `debug` by default; the bench logs less so that logging does not count in its figures. */
  logLevel?: 'debug' | 'warn';
  /** More environment on top of the world's (e.g. KIBITZ_* settings). */
  env?: Record<string, string>;
  /** FICS pool settings on top of FAST_FICS (e.g. the real 30 s command timeout). */
  fics?: Partial<PoolOptions>;
  /** The bot's clock for its live posts (a test moves it with the fake Discord's). */
  now?: () => number;
  /** The clock the bot paces and pauses its edits by (a test moves it). */
  editClock?: ScheduleClock;
  /** Told when the bot stops itself for good (main.ts exits then). */
  onFatal?: (reason: string) => void;
}

export class World {
  bot: BotHandle | null = null;
  /** Every log line of every bot of this world (JSON). */
  readonly logLines: string[] = [];
  private readonly dir: string;

  private constructor(
    readonly discord: Harness,
    readonly fics: FakeFics,
    readonly dbPath: string,
    dir: string,
  ) {
    this.dir = dir;
  }

  static async start(options: WorldOptions = {}): Promise<World> {
    const discord = await startFake(options.discord);
    const fics = await FakeFics.start(options.fics);
    const dir = mkdtempSync(join(tmpdir(), 'kibitz-e2e-'));
    return new World(discord, fics, options.dbFile ? join(dir, 'kibitz.db') : ':memory:', dir);
  }

  get fake() {
    return this.discord.fake;
  }

  get guildId(): string {
    return this.discord.guild.id;
  }

  get channelId(): string {
    return this.discord.channel.id;
  }

  /** Starts the real bot against both fakes, as main.ts does. */
  async startBot(options: BotOptions = {}): Promise<BotHandle> {
    const loaded = loadConfig({
      DISCORD_TOKEN: this.fake.token,
      DISCORD_API_BASE: this.fake.apiBase,
      DISCORD_GUILD_ID: this.guildId,
      KIBITZ_DB: this.dbPath,
      LOG_LEVEL: options.logLevel ?? 'debug',
      FICS_HOST: '127.0.0.1',
      FICS_PORT: String(options.ficsPort ?? this.fics.port),
      // The live web page only where a test asks for it (KIBITZ_WEB_PORT=0: any free port).
      KIBITZ_WEB_PORT: 'off',
      ...options.env,
    });
    if (!loaded.ok) throw new Error(loaded.error.join('\n'));
    // A restart here takes milliseconds. Discord refuses an IDENTIFY of the same rate-limit key
    // within 5 s of the last (the fake does too) and discord.js tries again 5 s later; no restart
    // test is about that wait (test/fake-discord and test/faults/fatal are), so the fake's clock
    // passes it.
    if (this.fake.gatewayLog.some((e) => e.direction === 'in' && e.op === 2))
      this.fake.advanceClock(IDENTIFY_WINDOW_MS);
    const logger = createLogger({
      level: loaded.value.logLevel,
      secrets: configSecrets(loaded.value),
      destination: { write: (line: string) => void this.logLines.push(line) },
    });
    const started = await startBot(loaded.value, {
      logger,
      fics: { ...FAST_FICS, ...options.fics },
      renderPools: sharedRenderPools(),
      ...(options.now === undefined ? {} : { now: options.now }),
      ...(options.editClock === undefined ? {} : { editClock: options.editClock }),
      ...(options.onFatal === undefined ? {} : { onFatal: options.onFatal }),
    });
    if (!started.ok) throw new Error(started.error.message);
    this.bot = started.value;
    if (options.waitForFics ?? true) {
      const pool = started.value.context.fics;
      await this.fake.waitFor(
        () => (pool.status().some((c) => c.state === 'online') ? true : undefined),
        'the bot to log in to FICS',
      );
    }
    return started.value;
  }

  async stopBot(): Promise<void> {
    const bot = this.bot;
    this.bot = null;
    await bot?.stop();
  }

  /** The running bot (a test error when there is none). */
  get running(): BotHandle {
    if (this.bot === null) throw new Error('no bot running');
    return this.bot;
  }

  /** Runs a slash command in the world's channel (or `channelId`). */
  command(
    name: string,
    options: Record<string, string | number | boolean> = {},
    invoker: Invoker = {},
    channelId = this.channelId,
  ): InteractionHandle {
    return this.fake.command(this.guildId, channelId, name, options, invoker);
  }

  /** The bot's messages in a channel (not interaction replies). */
  livePosts(channelId = this.channelId): FakeMessage[] {
    return this.fake
      .messagesIn(channelId)
      .filter((m) => m.author.id === this.fake.bot.id && m.interaction === null && m.webhookId === null);
  }

  /** Waits until a message satisfies `check` (re-checked on every change of the fake). */
  async waitForMessage(
    id: string,
    check: (m: FakeMessage) => boolean,
    what: string,
    timeoutMs = 15_000,
  ): Promise<FakeMessage> {
    return this.fake.waitFor(
      () => {
        const m = this.fake.message(id);
        return m !== undefined && check(m) ? m : undefined;
      },
      what,
      timeoutMs,
    );
  }

  /** Waits for the bot's relay to have nothing queued (every edit answered). */
  async relayIdle(): Promise<void> {
    await this.running.context.relay.idle();
  }

  async close(): Promise<void> {
    try {
      await this.stopBot();
    } finally {
      await this.fics.close();
      rmSync(this.dir, { recursive: true, force: true });
      // Throws when a request was sent again without a wait after a 5xx or a cut connection.
      await this.discord.close();
    }
    // A bug in the fake would otherwise pass as a bot problem (or not at all).
    if (this.fake.internalErrors.length > 0) throw this.fake.internalErrors[0]!;
    expectPicturesDescribed([...this.fake.state.messages.values()]);
    // Discord would show such a picture outside its embed, or none at all.
    const unresolved = this.fake.state.unresolvedPictures;
    if (unresolved.length > 0)
      throw new Error(`embed pictures naming no attachment: ${unresolved.join('; ')}`);
    const loose = this.fake.state.loosePictures;
    if (loose.length > 0) throw new Error(`pictures left outside their embed: ${loose.join('; ')}`);
  }
}

// ---- games ----------------------------------------------------------------------------------------

export { fixture, type FixtureGame } from '../fake-fics/fixture-games.js';

/** A bughouse pair on the fake server, A's White partnering B's Black; its two game numbers. */
export function addBughousePair(world: World): [number, number] {
  const [a, b] = bughouseFixture.boards;
  const tc = { initialMinutes: bughouseFixture.initialMinutes, incrementSec: bughouseFixture.incrementSec };
  return world.fics.addBughouse(
    { white: a!.white, black: a!.black, san: a!.san, ...tc },
    { white: b!.white, black: b!.black, san: b!.san, ...tc },
  );
}

/** A fixture game with ratings, so posts show them. */
export function scriptOf(game: FixtureGame, extra: Partial<GameScript> = {}): GameScript {
  return fixtureScript(game, { whiteRating: '1500', blackRating: '1450', ...extra });
}

/** Knights out and back, `plies` long: a game as long as a test needs, every position legal. */
export function shuffleScript(plies: number, extra: Partial<GameScript> = {}): GameScript {
  const cycle = ['Nf3', 'Nf6', 'Ng1', 'Ng8'];
  return {
    white: 'Shuffler',
    black: 'Mirror',
    san: Array.from({ length: plies }, (_, i) => cycle[i % 4]!),
    initialMinutes: 60,
    incrementSec: 0,
    ...extra,
  };
}

// ---- messages ------------------------------------------------------------------------------------

/** The file names of pictures: every one Kibitz posts carries its description in words. */
const PICTURE = /\.(png|gif)$/;

/**
 * Every picture of every state of every message has alt text naming what a screen reader needs
 * (a board's FEN, a chart's clocks), within Discord's 1,024 characters. Checked when a world
 * closes, so every end-to-end test checks every picture it made.
 */
export function expectPicturesDescribed(messages: readonly FakeMessage[]): void {
  for (const message of messages)
    for (const revision of message.revisions)
      for (const file of revision.attachments) {
        if (!PICTURE.test(file.filename)) continue;
        const text = file.description ?? '';
        const says = file.filename.endsWith('-clocks.png') ? /Final clocks: / : /FEN: \S+/;
        if (text.length > 1_024 || !says.test(text))
          throw new Error(`picture ${file.filename} of message ${message.id} lacks alt text: "${text}"`);
      }
}

/** The live post's board image. */
export function boardPng(message: { attachments: { filename: string; bytes: Buffer }[] }): Buffer {
  const file = message.attachments.find((a) => a.filename === BOARD_IMAGE);
  if (file === undefined) throw new Error(`the message has no ${BOARD_IMAGE}`);
  return file.bytes;
}

/** Custom ids of a message's buttons. */
export function buttonIds(message: { components: unknown[] }): string[] {
  const ids: string[] = [];
  for (const row of message.components as { components?: { custom_id?: string }[] }[])
    for (const c of row.components ?? []) if (c.custom_id !== undefined) ids.push(c.custom_id);
  return ids;
}

/** Label and URL of each of a message's link buttons. */
export function linkButtons(message: { components: unknown[] }): { label: string; url: string }[] {
  const links: { label: string; url: string }[] = [];
  for (const row of message.components as { components?: { label?: string; url?: string }[] }[])
    for (const c of row.components ?? [])
      if (c.url !== undefined) links.push({ label: c.label ?? '', url: c.url });
  return links;
}

/** The description and footer of a message's first embed. */
export function embedOf(message: { embeds: unknown[] }): {
  title: string;
  description: string;
  footer: string | null;
} {
  const embed = message.embeds[0] as
    { title?: string; description?: string; footer?: { text?: string } } | undefined;
  return {
    title: embed?.title ?? '',
    description: embed?.description ?? '',
    footer: embed?.footer?.text ?? null,
  };
}
