// The world a load, soak or fault run drives the bot in: a fake FICS server playing many games at
// a human pace, and a fake Discord with guilds of channels, each channel observing one game at a
// time through /observe. It keeps the books the run is judged by: which games ended with which
// final position and moves, what reached Discord (the final edit with its PGN, once per channel),
// every 429, and the time from a move leaving the server to its edit arriving. Finished games are
// audited and then dropped from the fakes, so a day-long run keeps its memory.
import { FakeDiscord, type FakeDiscordOptions, type FakeMessage } from '../fake-discord/index.js';
import type { RecordedRequest } from '../fake-discord/index.js';
import type { GameScript } from '../fake-fics/game.js';
import { FakeFics, type FakeFicsOptions } from '../fake-fics/server.js';
import fixtures from '../fixtures/fics-games/games.json' with { type: 'json' };
import { MAX_FICS_CONNECTIONS } from '../../src/config.js';
import { seeded } from './random.js';

export interface LoadWorldOptions {
  /** Channels, each observing one game at a time: as many simultaneous games. */
  channels: number;
  /** Channels per guild (the bot's per-guild cap must allow as many). */
  channelsPerGuild?: number;
  /** Spread the guilds evenly over this many Discord shards (guild i on shard i mod shards). */
  shards?: number;
  /** Mean time between two plies of one game, ms; each wait is drawn from 0.25x to 1.75x of it. */
  plyMs: number;
  /** Replace a finished game by a new one in the same channel (a new /observe) after this, ms. */
  nextGameAfterMs?: number | null;
  /** Start the first games some plies in, at random (the bot joins games in progress). */
  joinMidGame?: boolean;
  /** Cut every game to at most this many plies (short games for quick tests). */
  maxPlies?: number;
  /**
   * Let no game end while nobody observes it (the bot is down or reconnecting) or before its
   * observer has asked for the move list it rejoins with: FICS keeps no record an observer could
   * fetch afterwards, so such an ending is lost whatever the bot does.
   * Fault tests hold those endings to judge what the bot itself loses; load runs count them.
   */
  holdEndsWhileUnobserved?: boolean;
  /** Kept by the fake server as given: a test may turn `full` or `guests` on and off while it runs. */
  fics?: FakeFicsOptions;
  discord?: FakeDiscordOptions;
  /** Seed of the run's choices (scripts, paces). */
  seed?: number;
  /** More /observe options for every game (`eval: true` with the engine on). */
  observeOptions?: Record<string, boolean>;
}

/** One channel and the game it shows now. */
export interface Slot {
  index: number;
  guildId: string;
  channelId: string;
  game: PlayedGame | null;
  /** The next ply (or the next game) is due at this time, ms since epoch. */
  dueAt: number;
}

/** A game the fake server plays, and what Discord must end up showing for it. */
export interface PlayedGame {
  number: number;
  white: string;
  black: string;
  script: GameScript;
  slot: number;
  /** The /observe reply said it is live. */
  posted: boolean;
  /** Its observer left (/unobserve) before the end: no final edit is due. */
  stopped: boolean;
  ended: boolean;
  /** It ended while no connection of the bot observed it: nothing can bring its end back. */
  endedUnobserved: boolean;
  /** SAN of every ply played, in order. */
  played: string[];
  result: string | null;
  /** When the latest ply left the server (performance clock of this process). */
  lastPlyAt: number;
  /** When each ply left the server, by ply index (performance clock); before the post: 0. */
  plyAt: number[];
  /** Plies Discord shows already (by the moves line of the newest post or edit). */
  shownPlies: number;
  /** When the server ended it (performance clock); null while it runs. */
  endedAt: number | null;
  /** When its final edit (the result in the footer) reached Discord; null until then. */
  finalAt: number | null;
  /** Since when the bot observes the game again after a gap (see holdEndsWhileUnobserved). */
  observedAgainAt?: number | null;
  /** Final checks: undefined until audited. */
  audit?: GameAudit;
}

export interface GameAudit {
  /** Bot messages with this game's title in its channel (1 expected). */
  messages: number;
  /** The last edit carries the result footer. */
  finalShown: boolean;
  /** The PGN attached to the last edit has every ply and the result. */
  pgnComplete: boolean;
}

export interface AuditTotals {
  finished: number;
  audited: number;
  finalMissing: number;
  pgnMissing: number;
  duplicates: number;
  unposted: number;
  stopped: number;
  lostUnobserved: number;
}

export interface DiscordCounts {
  requests: number;
  status429: number;
  status5xx: number;
  edits: number;
  posts: number;
  /** Move sent by the fake FICS -> its edit received by the fake Discord, ms. */
  editLatencyMs: number[];
  /**
   * Staleness per ply: the ply sent by the fake FICS -> the first post or edit showing it or a
   * later ply received by the fake Discord, ms. A stale image sent just after a move does not
   * count as showing it.
   */
  stalenessMs: number[];
  /** Game ended by the fake FICS -> its final edit received, ms. */
  finalDelayMs: number[];
  /** 429s for the bot's global limit (all its connections together). */
  globalLimited: number;
}

const CHESS_GAMES = fixtures.games.filter((g) => !g.id.includes('crazyhouse'));
/** Discord ids count milliseconds from here. */
const DISCORD_EPOCH = 1_420_070_400_000;

/** Letters only, as FICS handles are: 0 -> A, 25 -> Z, 26 -> BA. */
function letters(n: number): string {
  let text = '';
  do {
    text = String.fromCharCode(65 + (n % 26)) + text;
    n = Math.floor(n / 26);
  } while (n > 0);
  return text;
}

export class LoadWorld {
  readonly slots: Slot[] = [];
  /** Every game the run played, finished ones included until dropped by `forgetAudited`. */
  readonly games = new Map<number, PlayedGame>();
  readonly finished: PlayedGame[] = [];
  readonly counts: DiscordCounts = {
    requests: 0,
    status429: 0,
    status5xx: 0,
    edits: 0,
    posts: 0,
    editLatencyMs: [],
    stalenessMs: [],
    finalDelayMs: [],
    globalLimited: 0,
  };
  /** Games by number until audited and forgotten (a final edit may come after the next game began). */
  private readonly recent = new Map<number, PlayedGame>();
  /** Sessions of a killed bot (retireSessions): they count as observing nothing. */
  private readonly retired = new Set<number>();
  /** Replies to /observe that did not say the game is live, with the text shown. */
  readonly observeFailures: string[] = [];
  /** Games that ended while no connection of the bot observed them. */
  endedUnobserved = 0;
  /** Plies the pacer played (a test's measure of games going on, instead of time passing). */
  pacedPlies = 0;
  /** Told right before the server announces a game's end (a test may arm a fault for its final edit). */
  onEnd: ((game: PlayedGame, slot: Slot) => void) | null = null;
  /** Games started over the run (for names). */
  private serial = 0;
  private readonly random: () => number;
  private pacer: NodeJS.Timeout | null = null;
  /** /observe commands not answered yet: the end of a run waits for them. */
  private readonly observing = new Set<Promise<void>>();
  private readonly channelGame = new Map<string, PlayedGame>();

  private constructor(
    readonly fics: FakeFics,
    readonly discord: FakeDiscord,
    private readonly options: LoadWorldOptions,
  ) {
    this.random = seeded(options.seed ?? 1);
    discord.on('request', (request: RecordedRequest) => this.onRequest(request));
  }

  static async start(options: LoadWorldOptions): Promise<LoadWorld> {
    const ficsOptions = options.fics ?? {};
    ficsOptions.dialect ??= 'fatics';
    const fics = await FakeFics.start(ficsOptions);
    // Shards and fleet machines start together, as a large bot's may (max_concurrency 16).
    const discord = await FakeDiscord.start({
      defaultTimeoutMs: 30_000,
      maxConcurrency: 16,
      ...options.discord,
    });
    const world = new LoadWorld(fics, discord, options);
    const perGuild = options.channelsPerGuild ?? 10;
    let guildId = '';
    for (let i = 0; i < options.channels; i++) {
      if (i % perGuild === 0) {
        // A guild's shard is its id's millisecond modulo the shard count: wait for the right one.
        const shards = options.shards ?? 1;
        while ((Date.now() - DISCORD_EPOCH) % shards !== (i / perGuild) % shards) await sleep(0);
        guildId = discord.createGuild({ name: `Club ${i / perGuild + 1}` }).id;
      }
      const channel = discord.createChannel(guildId, { name: `board-${i + 1}` });
      world.slots.push({ index: i, guildId, channelId: channel.id, game: null, dueAt: 0 });
    }
    return world;
  }

  /** Environment for the bot (main.ts reads the same variables). */
  botEnv(dbPath: string, extra: Record<string, string> = {}): Record<string, string> {
    const perGuild = this.options.channelsPerGuild ?? 10;
    return {
      DISCORD_TOKEN: this.discord.token,
      DISCORD_API_BASE: this.discord.apiBase,
      KIBITZ_DB: dbPath,
      KIBITZ_MAX_LIVE_PER_GUILD: String(perGuild),
      FICS_HOST: '127.0.0.1',
      FICS_PORT: String(this.fics.port),
      // Each connection observes 30 games; one more for the gaps while games change hands.
      FICS_MAX_CONNECTIONS: String(Math.min(MAX_FICS_CONNECTIONS, Math.ceil(this.options.channels / 30) + 1)),
      LOG_LEVEL: 'warn',
      KIBITZ_WEB_PORT: 'off',
      ...extra,
    };
  }

  /** Waits until the bot has registered its commands (it does so once connected). */
  async commandsRegistered(timeoutMs = 30_000): Promise<void> {
    await this.discord.waitFor(
      () => (this.discord.state.findCommand(null, 'observe') !== undefined ? true : undefined),
      'the bot to register /observe',
      timeoutMs,
    );
  }

  /** Starts a game in every channel and asks for it with /observe, `perSecond` at a time. */
  async observeAll(perSecond = 20): Promise<void> {
    const pending: Promise<void>[] = [];
    for (const slot of this.slots) {
      const game = this.newGame(slot, this.options.joinMidGame ?? true);
      pending.push(this.observe(game));
      await sleep(1000 / perSecond);
    }
    await Promise.all(pending);
  }

  /** Plays every game at its pace until `stopPacing`. */
  startPacing(): void {
    if (this.pacer !== null) return;
    const now = Date.now();
    for (const slot of this.slots) slot.dueAt = now + this.nextPlyDelay();
    this.pacer = setInterval(() => this.tick(), 10);
  }

  stopPacing(): void {
    if (this.pacer !== null) clearInterval(this.pacer);
    this.pacer = null;
  }

  /** True when the bot observes every running game it posted (after a cut, once it is back). */
  allObserved(): boolean {
    return this.slots.every(
      (s) => s.game === null || !s.game.posted || this.fics.observers(s.game.number).length > 0,
    );
  }

  /** Ends every running game now (with its script's result): the end of a run. */
  endAll(): void {
    for (const slot of this.slots) {
      const game = slot.game;
      if (game !== null && !game.ended) this.end(game);
      slot.game = null;
    }
  }

  /**
   * The channel's observer leaves: /unobserve, then the game is over for this run (the server ends
   * it) and the channel takes a new one after the usual gap. Resolves with the reply's text.
   */
  async leave(slot: Slot): Promise<string> {
    const game = slot.game;
    if (game === null || !game.posted || game.ended) return '';
    slot.game = null;
    slot.dueAt = Number.POSITIVE_INFINITY;
    let text: string;
    try {
      text = (
        await this.discord
          .command(slot.guildId, slot.channelId, 'unobserve', { game: game.number })
          .reply(30_000)
      ).content;
    } catch (error) {
      text = (error as Error).message;
    }
    game.stopped = text.startsWith('Stopped');
    this.end(game);
    const gap = this.options.nextGameAfterMs;
    slot.dueAt = gap === null || gap === undefined ? Number.POSITIVE_INFINITY : Date.now() + gap;
    return text;
  }

  /** Games that ended and were not audited yet. */
  unaudited(): PlayedGame[] {
    return this.finished.filter((g) => g.audit === undefined);
  }

  /**
   * Checks finished games against Discord: one message per game in its channel, the last edit with
   * the result and a complete PGN. Games still waiting for their final edit are left for later
   * unless `final` is set.
   */
  audit(final = false): void {
    for (const game of this.unaudited()) {
      const shown = this.shownIn(this.slots[game.slot]!.channelId, game);
      // A stopped post is done once it says so; any other once its final edit with the PGN came.
      if (!final && (!shown.finalShown || (!game.stopped && shown.pgn === null))) continue;
      game.audit = auditOf(shown, game);
    }
  }

  /** The audit of a game's post in any channel: a test may post a game in more than its slot's. */
  auditIn(channelId: string, game: PlayedGame): GameAudit {
    return auditOf(this.shownIn(channelId, game), game);
  }

  private shownIn(channelId: string, game: PlayedGame): Shown {
    const messages = this.messagesOf(channelId, game);
    const last = messages.at(-1);
    const pgn = last?.attachments.find((a) => a.filename.endsWith('.pgn'));
    return {
      messages: messages.length,
      finalShown: last !== undefined && footerOf(last) !== null,
      pgn: pgn === undefined ? null : pgn.bytes.toString('utf8'),
    };
  }

  /** Audits, forgets audited games and trims revisions every 5 s (long runs); returns the stop. */
  startHousekeeping(): () => void {
    const timer = setInterval(() => {
      this.audit();
      this.forgetAudited();
      this.trimRevisions();
    }, 5_000);
    return () => clearInterval(timer);
  }

  /** Drops audited games and their messages from the fakes (a long run keeps its memory). */
  forgetAudited(): void {
    // A game that failed its audit keeps its messages for lostReport.
    const audited = new Set(
      this.finished.filter((g) => g.audit !== undefined && g.audit.finalShown && g.audit.pgnComplete),
    );
    for (const game of audited) {
      this.recent.delete(game.number);
      const slot = this.slots[game.slot]!;
      for (const message of this.messagesOf(slot.channelId, game))
        this.discord.state.messages.delete(message.id);
    }
    // Interaction replies pile up as well: the ones older than a minute are done with.
    const old = Date.now() - 60_000;
    for (const [id, message] of this.discord.state.messages) {
      if (message.interaction !== null && message.createdAt < old) this.discord.state.messages.delete(id);
    }
    this.discord.requests.splice(0);
  }

  /** Keeps only the latest revision of every message (the history holds every image). */
  trimRevisions(): void {
    for (const message of this.discord.state.messages.values()) {
      if (message.revisions.length > 1 && message.interaction === null)
        message.revisions.splice(0, message.revisions.length - 1);
    }
  }

  /**
   * What Discord shows of up to `max` games whose final edit or whole PGN is missing (games
   * observed at their end, not stopped), to tell why; `when` adds when each ended.
   */
  lostReport(when: (game: PlayedGame) => string = () => '', max = 5): string[] {
    const lost = this.finished.filter(
      (g) => g.audit !== undefined && g.posted && !g.stopped && !g.endedUnobserved && !g.audit.pgnComplete,
    );
    return lost.slice(0, max).flatMap((g) => {
      const shown = this.messagesOf(this.slots[g.slot]!.channelId, g).at(-1);
      const pgn = shown?.attachments.find((a) => a.filename.endsWith('.pgn'))?.bytes.toString();
      return [
        `lost: game ${g.number}, ${g.played.length} plies, ended ${when(g)}, ${JSON.stringify(g.audit)}`,
        `  footer ${JSON.stringify(shown === undefined ? null : footerOf(shown))}; PGN ${pgn}`,
        `  played: ${g.played.join(' ')}`,
      ];
    });
  }

  /**
   * The end of a run: no new moves or games; once every game is observed again (a cut may still
   * be healing, up to `healMs`) and `settleMs` more have passed, every game still running ends,
   * and every finished game is audited (auditAll).
   */
  async endAllAndAudit(o: { healMs: number; settleMs?: number; auditMs: number }): Promise<AuditTotals> {
    this.stopPacing();
    // A game whose /observe is on its way would end before FICS hears the observe: the bot would
    // be refused ("no such game") for the run's own ending, not for anything it did.
    await Promise.all([...this.observing]);
    const healed = Date.now() + o.healMs;
    while (!this.allObserved() && Date.now() < healed) await sleep(100);
    await sleep(o.settleMs ?? 0);
    this.endAll();
    return this.auditAll(o.auditMs);
  }

  /** Audits each finished game once its final edit came (up to `timeoutMs`), the rest as they are. */
  async auditAll(timeoutMs: number, pollMs = 500): Promise<AuditTotals> {
    const deadline = Date.now() + timeoutMs;
    this.audit();
    while (this.unaudited().length > 0 && Date.now() < deadline) {
      await sleep(pollMs);
      this.audit();
    }
    this.audit(true);
    return this.auditTotals();
  }

  /** Totals over the audited games. */
  auditTotals(): AuditTotals {
    const audited = this.finished.filter((g) => g.audit !== undefined);
    // Games that ended unobserved are counted apart (lostUnobserved): no bot could show their end.
    const due = audited.filter((g) => g.posted && !g.stopped && !g.endedUnobserved);
    const gone = audited.filter((g) => g.endedUnobserved && !(g.audit!.finalShown && g.audit!.pgnComplete));
    return {
      finished: this.finished.length,
      audited: audited.length,
      finalMissing: due.filter((g) => !g.audit!.finalShown).length,
      pgnMissing: due.filter((g) => !g.audit!.pgnComplete).length,
      duplicates: audited.filter((g) => g.audit!.messages > 1).length,
      unposted: this.finished.filter((g) => !g.posted).length,
      stopped: this.finished.filter((g) => g.stopped).length,
      lostUnobserved: gone.length,
    };
  }

  async close(): Promise<void> {
    this.stopPacing();
    await this.fics.close();
    await this.discord.stop();
    // No request sent again without a wait after a 5xx or a cut (FakeDiscord's minRetryWaitMs).
    this.discord.assertRetriesWaited();
  }

  // ---- games ---------------------------------------------------------------------------------------

  private newGame(slot: Slot, midGame: boolean): PlayedGame {
    const source = CHESS_GAMES[Math.floor(this.random() * CHESS_GAMES.length)]!;
    const name = letters(this.serial++);
    const script: GameScript = {
      white: `W${name}`,
      black: `B${name}`,
      whiteRating: String(1200 + Math.floor(this.random() * 1000)),
      blackRating: String(1200 + Math.floor(this.random() * 1000)),
      san: source.san.slice(0, this.options.maxPlies ?? source.san.length),
      initialMinutes: source.initialMinutes,
      incrementSec: source.incrementSec,
      rated: true,
      result: source.result as GameScript['result'],
      reason: source.reason.replace(source.white, `W${name}`).replace(source.black, `B${name}`),
    };
    const number = this.fics.addGame(script);
    const game: PlayedGame = {
      number,
      white: script.white,
      black: script.black,
      script,
      slot: slot.index,
      posted: false,
      stopped: false,
      ended: false,
      endedUnobserved: false,
      played: [],
      result: null,
      lastPlyAt: performance.now(),
      plyAt: [],
      shownPlies: 0,
      endedAt: null,
      finalAt: null,
    };
    // Joining a game in progress: some plies were played before the bot looks.
    const before = midGame ? Math.floor(this.random() * Math.max(0, script.san.length - 4)) : 0;
    for (let i = 0; i < before; i++) {
      game.played.push(this.fics.playMove(number));
      game.plyAt.push(0);
    }
    this.games.set(number, game);
    this.recent.set(number, game);
    this.channelGame.set(slot.channelId, game);
    slot.game = game;
    return game;
  }

  private async observe(game: PlayedGame): Promise<void> {
    const slot = this.slots[game.slot]!;
    try {
      const reply = await this.discord
        .command(slot.guildId, slot.channelId, 'observe', {
          game: game.number,
          ...this.options.observeOptions,
        })
        .reply(30_000);
      if (reply.content.includes('is live')) game.posted = true;
      else this.observeFailures.push(reply.content);
    } catch (error) {
      this.observeFailures.push((error as Error).message);
    }
  }

  private tick(): void {
    const now = Date.now();
    for (const slot of this.slots) {
      if (slot.dueAt > now) continue;
      const game = slot.game;
      if (game === null) {
        // The channel's next game: a new one starts and somebody observes it.
        const next = this.newGame(slot, false);
        slot.dueAt = now + this.nextPlyDelay();
        const asked = this.observe(next).finally(() => this.observing.delete(asked));
        this.observing.add(asked);
        continue;
      }
      if (!game.posted) {
        slot.dueAt = now + 100;
        continue;
      }
      if (game.played.length < game.script.san.length) {
        game.played.push(this.fics.playMove(game.number));
        game.lastPlyAt = performance.now();
        game.plyAt.push(game.lastPlyAt);
        slot.dueAt = now + this.nextPlyDelay();
        this.pacedPlies++;
        continue;
      }
      if (this.options.holdEndsWhileUnobserved === true && this.holdEnd(game, now)) {
        slot.dueAt = now + 20;
        continue;
      }
      this.end(game);
      const gap = this.options.nextGameAfterMs;
      slot.game = null;
      slot.dueAt = gap === null || gap === undefined ? Number.POSITIVE_INFINITY : now + gap;
    }
  }

  /**
   * True while a game may not end yet: nobody observes it, or the bot observed it again so lately
   * that its move list (asked for on every re-observe) may not be back: FICS answers no move list
   * for a game that is over, so that history would be lost with the ending.
   */
  private holdEnd(game: PlayedGame, now: number): boolean {
    const live = this.fics.observers(game.number).filter((session) => !this.retired.has(session));
    if (!live.some((session) => this.rejoined(session, game.number))) {
      game.observedAgainAt = null;
      return true;
    }
    game.observedAgainAt ??= now;
    return now - game.observedAgainAt < 500;
  }

  /**
   * Counts the sessions logged in now as gone before a bot process is killed: the fake server
   * hears of their close only some time after the kill, and an end line written to a dead session
   * meanwhile would be lost whatever the bot does (holdEndsWhileUnobserved).
   */
  retireSessions(): void {
    for (const session of this.fics.loggedIn()) this.retired.add(session.id);
  }

  /**
   * Whether a session asked for the game's move list after it last asked to observe it: an
   * observer that rejoins a game has its moves only once that answer is in, and FICS answers no
   * move list of a game that is over.
   */
  private rejoined(session: number, game: number): boolean {
    const lines = this.fics.commands(session);
    const asked = (command: string, line: string): boolean =>
      new RegExp(`^\\$*(\\d+ )?${command} ${game}$`).test(line.trim());
    for (let i = lines.length - 1; i >= 0; i--) {
      if (asked('moves', lines[i]!)) return true;
      if (asked('observe', lines[i]!)) return false;
    }
    return false;
  }

  private end(game: PlayedGame): void {
    if (game.posted && !game.stopped && this.fics.observers(game.number).length === 0) {
      game.endedUnobserved = true;
      this.endedUnobserved++;
    }
    this.onEnd?.(game, this.slots[game.slot]!);
    this.fics.endGame(game.number);
    game.ended = true;
    game.result = game.script.result ?? '*';
    game.lastPlyAt = performance.now();
    game.endedAt = game.lastPlyAt;
    this.games.delete(game.number);
    this.finished.push(game);
  }

  private nextPlyDelay(): number {
    return this.options.plyMs * (0.25 + 1.5 * this.random());
  }

  // ---- Discord side --------------------------------------------------------------------------------

  private onRequest(request: RecordedRequest): void {
    this.counts.requests++;
    if (request.status === 429) this.counts.status429++;
    if (
      request.status === 429 &&
      request.response !== null &&
      (request.response as { global?: unknown }).global === true
    )
      this.counts.globalLimited++;
    if (request.status >= 500) this.counts.status5xx++;
    const post = request.route === '/channels/:channel_id/messages' && request.method === 'POST';
    if (post) this.counts.posts++;
    const edit = request.route === '/channels/:channel_id/messages/:message_id' && request.method === 'PATCH';
    if (edit) this.counts.edits++;
    if ((!post && !edit) || request.status !== 200) return;
    const arrived = performance.now() - (Date.now() - request.at);
    const shown = shownOf(request.body);
    const game = shown === null ? undefined : this.recent.get(shown.game);
    if (shown === null || game === undefined) return;
    // Edits that show the latest ply: the time since that ply left the fake server.
    if (edit && this.channelGame.get(request.params.channel_id ?? '') === game && game.played.length > 0)
      this.counts.editLatencyMs.push(arrived - game.lastPlyAt);
    // Each ply shown for the first time: how long it waited (plies played before the post: not timed).
    const plies = Math.min(shown.plies ?? game.shownPlies, game.plyAt.length);
    for (let ply = game.shownPlies; ply < plies; ply++)
      if (game.plyAt[ply]! > 0) this.counts.stalenessMs.push(arrived - game.plyAt[ply]!);
    game.shownPlies = Math.max(game.shownPlies, plies);
    if (shown.final && game.endedAt !== null && game.finalAt === null) {
      game.finalAt = arrived;
      this.counts.finalDelayMs.push(arrived - game.endedAt);
    }
  }

  private messagesOf(channelId: string, game: PlayedGame): FakeMessage[] {
    const title = `Game ${game.number}: ${game.white} `;
    return this.discord
      .messagesIn(channelId)
      .filter(
        (m) =>
          m.author.id === this.discord.bot.id &&
          m.interaction === null &&
          titleOf(m)?.startsWith(title) === true,
      );
  }
}

/** What a channel shows of a game: its messages, the last one's footer and PGN. */
interface Shown {
  messages: number;
  finalShown: boolean;
  pgn: string | null;
}

function auditOf(shown: Shown, game: PlayedGame): GameAudit {
  return {
    messages: shown.messages,
    finalShown: shown.finalShown,
    pgnComplete: shown.pgn !== null && pgnHas(shown.pgn, game),
  };
}

/**
 * What a post or edit shows: its game (by the title), its plies (by the last moves line,
 * `23. Nf3 Nc6 24. Bb5`; null without one) and whether it is the final one (a footer with a result).
 */
function shownOf(body: unknown): { game: number; plies: number | null; final: boolean } | null {
  const embed = (
    body as { embeds?: { title?: string; description?: string; footer?: { text?: string } }[] } | null
  )?.embeds?.[0];
  const game = /^Game (\d+):/.exec(embed?.title ?? '');
  if (embed === undefined || game === null) return null;
  let plies: number | null = null;
  for (const line of (embed.description ?? '').split('\n')) {
    const marks = [...line.matchAll(/(\d+)\.(\.\.)? /g)];
    const last = marks.at(-1);
    if (last === undefined || !/^\d+\./.test(line)) continue;
    const after = line
      .slice(last.index + last[0].length)
      .trim()
      .split(/\s+/).length;
    plies = (Number(last[1]) - 1) * 2 + (last[2] === undefined ? 0 : 1) + after;
    // The first such line: an engine line may follow it.
    break;
  }
  const footer = embed.footer?.text ?? '';
  return { game: Number(game[1]), plies, final: /^(1-0|0-1|½-½)/.test(footer) };
}

function titleOf(message: FakeMessage): string | null {
  const embed = message.embeds[0] as { title?: string } | undefined;
  return embed?.title ?? null;
}

function footerOf(message: FakeMessage): string | null {
  const embed = message.embeds[0] as { footer?: { text?: string } } | undefined;
  return embed?.footer?.text ?? null;
}

/** The PGN names both players, ends with the result and has every move in order. */
function pgnHas(pgn: string, game: PlayedGame): boolean {
  if (!pgn.includes(`[White "${game.white}"]`) || !pgn.includes(`[Result "${game.result}"]`)) return false;
  const movetext = pgn
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\d+\.(\.\.)?/g, ' ')
    .split(/\s+/)
    .filter((t) => t !== '');
  const result = movetext.pop();
  return result === game.result && movetext.join(' ') === game.played.join(' ');
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
