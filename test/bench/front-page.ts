// The front page's stream: what one move of a game costs the bot with 1,000 front pages open (their
// streams write into memory, so the figure is the bot's work, not the network's): a move of a board
// the front page shows (its event made once, then one write per page), and a move of a game it does
// not show. CPU time, so the figures stay the code's when other work shares the cores.
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import { parseChessLive } from '../../src/chesslive/read.js';
import { snapshotOfRead } from '../../src/chesslive/source.js';
import type { GameSnapshot } from '../../src/game/snapshot.js';
import type { TrackerUpdate } from '../../src/game/tracker.js';
import { FRONT_BOARDS, LiveGames } from '../../src/web/games.js';
import { EventStream } from '../../src/web/stream.js';
import { gameId } from '../support/fics-values.js';

const GAMES = 300;
const PAGES = 1_000;
const ROUNDS = 100;
const MOVES = ['e2:e4/0/0/299', 'e7:e5/0/0/298', 'g1:f3/0/0/295/N', 'b8:c6/0/0/290/N'];

function game(number: number, plies: number): GameSnapshot {
  const read = parseChessLive(`W${number};B${number};${MOVES.slice(0, plies).join(';')}`);
  if (!read.ok) throw new Error(read.error.message);
  // Game n rated 1000 + n: the strongest FRONT_BOARDS are the last ones.
  const rating = String(1000 + number);
  return {
    ...snapshotOfRead(read.value, { key: `${number}:1`, game: gameId(number), source: 'x' }),
    source: null,
    whiteRating: rating,
    blackRating: rating,
  };
}

export async function benchFrontPage(): Promise<Record<string, number>> {
  const games = Array.from({ length: GAMES }, (_, i) => game(i + 1, 1));
  const feed = new EventEmitter<{ update: [TrackerUpdate] }>();
  const live = new LiveGames({
    feed: { on: feed.on.bind(feed), off: feed.off.bind(feed), snapshot: () => undefined },
    isRelayed: () => true,
    relayed: () => Promise.resolve(games),
    publicSources: [],
    maxViewers: 100_000,
    maxViewersPerGame: 100_000,
  });
  await live.front();
  let written = 0;
  for (let i = 0; i < PAGES; i++) {
    const sink = new Writable({
      write: (chunk: Buffer, _encoding, done) => {
        written += chunk.length;
        done();
      },
    });
    live.watchFront(new EventStream(sink as unknown as ServerResponse, 1 << 20, () => undefined));
  }
  // Two moves back and forth: every update changes the position.
  const positions = [2, 3].map((plies) => games.map((g) => game(g.game, plies)));
  const cpuUsPerMove = (shown: boolean): number => {
    const numbers = shown ? [GAMES - FRONT_BOARDS, GAMES] : [0, GAMES - FRONT_BOARDS];
    const start = process.cpuUsage();
    for (let round = 0; round < ROUNDS; round++)
      for (let i = numbers[0]!; i < numbers[1]!; i++)
        feed.emit('update', { type: 'moved', snapshot: positions[round % 2]![i]! });
    const used = process.cpuUsage(start);
    return (used.user + used.system) / (ROUNDS * (numbers[1]! - numbers[0]!));
  };
  written = 0;
  const shownUs = cpuUsPerMove(true);
  const bytesPerPageMove = written / (PAGES * ROUNDS * FRONT_BOARDS);
  const unshownUs = cpuUsPerMove(false);
  live.close();
  return {
    front_shown_move_1000_pages_us: Math.round(shownUs),
    front_unshown_move_us: Number(unshownUs.toFixed(2)),
    front_bytes_per_page_per_move: Math.round(bytesPerPageMove),
  };
}
