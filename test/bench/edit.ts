// One live-post edit's CPU in the bot, from the scheduler's turn to the request written and its
// answer read: PostSenders.send -> BoardImages.message (the alt text) -> DiscordPostPort.edit ->
// @discordjs/rest -> undici -> the fake Discord, which runs in a process of its own
// (discord-process.ts) so that only the bot's side is measured. The board's render is left out: the
// renderer hands back one board PNG drawn beforehand (render.ts and render-pool.ts measure
// renders). Posts in channels of their own take turns as at 1,000 games: each edit's position is
// new, and each post's next edit waits for its turn again. The touch batch goes out every second,
// so that, as at 1,000 games (posts outnumber a batch window's edits), about one row is written
// per edit. CPU of the whole process (its GC threads included), µs per edit, median of rounds.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Events } from 'discord.js';
import { pino } from 'pino';
import { inlineRenderer, type Renderer } from '../../render/index.js';
import { createClient } from '../../src/discord/client.js';
import { DiscordPostPort } from '../../src/discord/live-port.js';
import { ObserverDecoder } from '../../src/protocol/decode.js';
import { GameTracker } from '../../src/game/tracker.js';
import type { GameSnapshot } from '../../src/game/snapshot.js';
import { sceneFromSnapshot } from '../../src/game/scenes.js';
import { BoardImages } from '../../src/relay/images.js';
import { PostSenders } from '../../src/relay/post-sender.js';
import { recorder } from '../../src/relay/recorded.js';
import { EditScheduler } from '../../src/relay/schedule.js';
import { openStorage } from '../../src/storage/index.js';
import { transcript } from '../support/fixtures.js';

const POSTS = 300;
const WARM_UP = 1_500;
const ROUNDS = 7;
const EDITS_PER_ROUND = 600;
/** Faster than Discord's 40 a second, so that the bench takes seconds, not minutes; no burst. */
const PACE = { perSecond: 300, burst: 1, perBucket: { limit: 5, windowMs: 5_250 }, inFlight: 8 };

/** Every position of some real games as the tracker made them, the ended ones left out. */
function positions(): GameSnapshot[] {
  const decoder = new ObserverDecoder();
  const tracker = new GameTracker();
  const found: GameSnapshot[] = [];
  for (const [scenario, file] of [
    ['fatics_master_seq', 'obs_start.raw'],
    ['lasker_master_seq', 'obs_start.raw'],
    ['fatics_takeback', 'obs_start.raw'],
  ] as const) {
    for (const event of [...decoder.push(transcript(scenario, file)), ...decoder.end()]) {
      if (event.kind === 'reply') continue;
      for (const update of tracker.apply(event))
        if (update.type === 'moved' && !update.snapshot.ended && update.snapshot.variant === 'chess')
          found.push(update.snapshot);
    }
  }
  if (found.length < 20) throw new Error(`only ${found.length} positions`);
  return found;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export async function benchEdit(): Promise<Record<string, number>> {
  const child = fork(new URL('./discord-process.ts', import.meta.url), [String(POSTS)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
  const discord = JSON.parse(line) as { apiBase: string; token: string; guild: string; channels: string[] };
  const folder = mkdtempSync(join(tmpdir(), 'kibitz-edit-bench-'));
  const logger = pino({ level: 'silent' });
  const opened = await openStorage(join(folder, 'bench.db'), { logger, writes: { batchMs: 1_000 } });
  if (!opened.ok) throw new Error(opened.error);
  const storage = opened.value;
  const client = createClient({ token: discord.token, guildId: null, apiBase: discord.apiBase });
  // discord.js keeps to Discord's 50 requests a second: the bench's pace is above it, the fake's limits out of reach.
  Object.assign(client.rest.options, { globalRequestsPerSecond: 1_000_000 });
  try {
    const ready = once(client, Events.ClientReady);
    await client.login(discord.token);
    await ready;
    const snapshots = positions();
    const board = await inlineRenderer.png(sceneFromSnapshot(snapshots[0]!, { orientation: 'white' }));
    if (!board.ok) throw new Error(board.error);
    const renderer: Renderer = { ...inlineRenderer, png: () => Promise.resolve(board) };
    const images = new BoardImages({ renderer, snapshot: () => undefined, logger });
    const port = new DiscordPostPort(client);
    const scheduler = new EditScheduler(PACE);
    let edits = 0;
    let counter = 0;
    let reached: { at: number; done: () => void } | null = null;
    const next = (postId: number): void => {
      const base = snapshots[counter++ % snapshots.length]!;
      // A clock of its own: every edit a new picture, as when every post shows another game.
      senders.push(postId, { snapshot: { ...base, whiteClockMs: base.whiteClockMs + counter }, files: null });
    };
    const senders: PostSenders = new PostSenders({
      livePosts: storage.livePosts,
      port,
      images,
      scheduler,
      logger,
      engineView: () => undefined,
      shown: (message) => message,
      // The edit is out: the post's next position waits for its turn.
      edited: (postId) => {
        edits++;
        if (reached !== null && edits >= reached.at) reached.done();
        next(postId);
      },
      refused: (postId, refusal) => {
        throw new Error(`post ${postId} refused: ${refusal.reason}`);
      },
      recorded: recorder(logger),
      closed: () => false,
    });
    const ids: number[] = [];
    for (const [i, channelId] of discord.channels.entries()) {
      const snapshot = snapshots[i % snapshots.length]!;
      const created = await storage.livePosts.create({
        guildId: discord.guild,
        channelId,
        game: snapshot.game,
        gameKey: `bench:${i}`,
        white: snapshot.white,
        black: snapshot.black,
        options: { flip: false, thread: false },
        requestedBy: 'bench',
      });
      if (!created.ok) throw new Error('post not created');
      const id = created.value.id;
      const where = await port.post(id, channelId, await images.message(snapshot, { flip: false }), null);
      await storage.livePosts.setMessage(id, where);
      ids.push(id);
    }
    const edited = (count: number): Promise<void> =>
      new Promise((resolve) => {
        reached = { at: edits + count, done: resolve };
      });
    const warm = edited(WARM_UP);
    for (const id of ids) next(id);
    await warm;
    const perEdit: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const from = edits;
      const done = edited(EDITS_PER_ROUND);
      const start = process.cpuUsage();
      await done;
      const used = process.cpuUsage(start);
      perEdit.push((used.user + used.system) / (edits - from));
    }
    senders.close();
    return { edit_main_us: Math.round(median(perEdit)) };
  } finally {
    await client.destroy();
    await storage.close();
    rmSync(folder, { recursive: true, force: true });
    child.disconnect();
  }
}

if (process.argv[1]?.endsWith('edit.ts')) process.stdout.write(`${JSON.stringify(await benchEdit())}\n`);
