// Main-thread CPU per move, from the bytes of a FICS connection to the posts' queued edits: the
// framer and decoder, the connection's filter, the pool's routing, the tracker and game state, and
// the relay's and the clubs' listeners (in-memory storage, a port that records). Every game has a
// live post; the edit scheduler never gives a turn, so no picture is drawn (edits are another
// bench's). Games are the fixture games, played round-robin as the load test's are, in the bytes
// FatICS sends: `<d1>` lines (`iset compressmove 1`), or a `<12>` board per move as servers
// without compressmove send. CPU time, so the figure stays the code's when other work shares the
// cores.
import { pino } from 'pino';
import { ClubPoster } from '../../src/club/poster.js';
import type { ObserverConnection } from '../../src/fics/connection.js';
import { FicsPool } from '../../src/fics/pool.js';
import { gameKeyOf } from '../../src/game/game-key.js';
import { ObserverDecoder } from '../../src/protocol/decode.js';
import type { ServerEvent } from '../../src/protocol/events.js';
import type { LiveMessage } from '../../src/relay/message.js';
import type { PostPort } from '../../src/relay/ports.js';
import { Relay } from '../../src/relay/relay.js';
import { EditScheduler } from '../../src/relay/schedule.js';
import { openStorage, type Storage } from '../../src/storage/index.js';
import { fixtureGames, scriptOf } from '../fake-fics/fixture-games.js';
import { ScriptedGame } from '../fake-fics/game.js';
import { gameId } from '../support/fics-values.js';
import { ManualClock } from '../support/manual-clock.js';

/** As the load test: 30 games per connection. */
const GAMES_PER_CONNECTION = 30;
const EOL = '\r\n';
const PROMPT = 'fics% ';
/** A pace that gives no turn: edits wait, as most of them do at 1,000 games. */
const NO_TURNS = { perSecond: 0, burst: 1, perBucket: { limit: 5, windowMs: 5250 }, inFlight: 40 };

/** Records what reaches it (nothing does: no turn is given). */
class RecordingPort implements PostPort {
  readonly sent: LiveMessage[] = [];
  async post(_postId: number, channelId: string, message: LiveMessage) {
    this.sent.push(message);
    return { messageChannelId: channelId, messageId: String(this.sent.length), threadId: null };
  }
  async say(): Promise<void> {}
  async edit(_postId: number, _channelId: string, _messageId: string, message: LiveMessage) {
    this.sent.push(message);
  }
}

/** One connection's bytes for one move, as FatICS pushes them. */
function pushed(lines: string[]): Buffer {
  return Buffer.from(`${EOL}${lines.join(EOL)}${EOL}${PROMPT}`, 'utf8');
}

interface World {
  storage: Storage;
  relay: Relay;
  clubs: ClubPoster;
  /** Per move, in play order: which connection's decoder gets which bytes. */
  moves: { connection: number; bytes: Buffer }[];
  feed(connection: number, bytes: Buffer): void;
}

/** How a server writes each move. */
type MoveLines = 'delta' | 'style12';

/** `games` games observed with a live post each, their moves made ready (not fed yet). */
async function world(games: number, lines: MoveLines): Promise<World> {
  const chess = fixtureGames.filter((g) => g.variant === 'chess');
  const scripted = Array.from(
    { length: games },
    (_, i) =>
      new ScriptedGame(
        i + 1,
        scriptOf(chess[i % chess.length]!, { white: `White${i}`, black: `Black${i}`, whiteRating: '1500' }),
      ),
  );
  const pool = new FicsPool({ host: '127.0.0.1' });
  const connections: { decoder: ObserverDecoder; connection: ObserverConnection }[] = [];
  for (let i = 0; i < Math.ceil(games / GAMES_PER_CONNECTION); i++) {
    // The pool's own wiring (its `open`), without a socket: the bench is the session's reader.
    const connection = pool['open']();
    connections.push({ decoder: new ObserverDecoder(), connection });
  }
  const feed = (at: number, bytes: Buffer): void => {
    const { decoder, connection } = connections[at]!;
    for (const item of decoder.push(bytes))
      if (item.kind !== 'reply') connection['receive'](item as ServerEvent);
  };
  const opened = await openStorage(':memory:');
  if (!opened.ok) throw new Error(opened.error);
  const storage = opened.value;
  const logger = pino({ level: 'silent' });
  const port = new RecordingPort();
  const relay = new Relay({
    feed: pool,
    port,
    storage,
    logger,
    maxLivePerGuild: games,
    scheduler: new EditScheduler(NO_TURNS, new ManualClock()),
  });
  const clubs = new ClubPoster({ feed: pool, relay, storage, logger });
  const view = { ms: true, lag: true, lasker: false, relation: 0 };
  for (const game of scripted) {
    const at = Math.floor((game.number - 1) / GAMES_PER_CONNECTION);
    feed(
      at,
      pushed([
        `You are now observing game ${game.number}.`,
        game.header(),
        game.gameInfo(),
        '',
        game.style12(view),
      ]),
    );
    const snapshot = pool.snapshot(gameId(game.number))!;
    const created = await storage.livePosts.create({
      guildId: `guild${Math.floor(game.number / 10)}`,
      channelId: `channel${game.number}`,
      game: snapshot.game,
      gameKey: gameKeyOf(snapshot),
      white: snapshot.white,
      black: snapshot.black,
      options: { flip: false, thread: false },
      requestedBy: 'bench',
    });
    if (!created.ok) throw new Error('post not created');
    await storage.livePosts.setMessage(created.value.id, {
      messageChannelId: `channel${game.number}`,
      messageId: `message${game.number}`,
    });
  }
  const moves: World['moves'] = [];
  for (let left = true; left;) {
    left = false;
    for (const game of scripted) {
      if (game.remaining === 0) continue;
      left = true;
      game.play();
      moves.push({
        connection: Math.floor((game.number - 1) / GAMES_PER_CONNECTION),
        bytes: pushed([lines === 'delta' ? game.delta() : game.style12(view)]),
      });
    }
  }
  return { storage, relay, clubs, moves, feed };
}

/** Lets the relay's per-game queues run what the moves queued. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** CPU µs per move over one round: every move of `games` games. */
async function round(games: number, lines: MoveLines): Promise<number> {
  const w = await world(games, lines);
  const start = process.cpuUsage();
  for (let i = 0; i < w.moves.length; i++) {
    const move = w.moves[i]!;
    w.feed(move.connection, move.bytes);
    // A read's worth of moves, then the event loop turns, as between socket reads.
    if (i % 16 === 15) await settle();
  }
  // Every post has its latest board waiting for a turn once the moves went all the way.
  for (let turns = 0; turns < 100 && w.relay.scheduleFigures().waiting < games; turns++) await settle();
  const used = process.cpuUsage(start);
  const waiting = w.relay.scheduleFigures().waiting;
  if (waiting !== games) throw new Error(`${waiting} posts wait for a turn, ${games} expected`);
  w.clubs.close();
  w.relay.close();
  await w.storage.close();
  return (used.user + used.system) / w.moves.length;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Median and least CPU µs per move over `rounds` rounds, after one to warm up. */
async function usPerMove(games: number, lines: MoveLines, rounds: number): Promise<[number, number]> {
  await round(games, lines);
  const figures: number[] = [];
  for (let i = 0; i < rounds; i++) figures.push(await round(games, lines));
  return [Math.round(median(figures) * 10) / 10, Math.round(Math.min(...figures) * 10) / 10];
}

export async function benchMoves(games = 300, rounds = 5): Promise<Record<string, number>> {
  const [delta, deltaMin] = await usPerMove(games, 'delta', rounds);
  const [style12, style12Min] = await usPerMove(games, 'style12', rounds);
  return {
    move_main_thread_us: delta,
    move_main_thread_us_min: deltaMin,
    move_style12_main_thread_us: style12,
    move_style12_main_thread_us_min: style12Min,
  };
}

if (process.argv[1]?.endsWith('moves.ts')) process.stdout.write(`${JSON.stringify(await benchMoves())}\n`);
