// The live page's registry of games and the events it derives, on snapshots of real move files:
// ids (random, stable per game, forgotten after the game stops being relayed), the front page's
// choice and order, and which change becomes a move event and which a full state.
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parseChessLive } from '../../src/chesslive/read.js';
import { snapshotOfRead } from '../../src/chesslive/source.js';
import type { GameSnapshot } from '../../src/game/snapshot.js';
import type { SaidInGame, TrackerUpdate } from '../../src/game/tracker.js';
import { gameKeyOf } from '../../src/game/game-key.js';
import { FRONT_BOARDS, LiveGames } from '../../src/web/games.js';
import { livePage } from '../../src/web/pages.js';
import { EventStream } from '../../src/web/stream.js';
import {
  changeEvent,
  evaluationView,
  type EngineOpinion,
  type FrontEvent,
  type MiniView,
  type WebEvent,
} from '../../src/web/view.js';
import { gameId } from '../support/fics-values.js';

const MOVES = ['e2:e4/0/0/299', 'e7:e5/0/0/298', 'g1:f3/0/0/295/N', 'b8:c6/0/0/290/N'];

/** A game as the feed gives it: a move file read as far as `plies`, as a FICS game unless `source`. */
function game(
  number: number,
  plies: number,
  extra: Partial<GameSnapshot> = {},
  white = 'Alice',
  black = 'Bob',
): GameSnapshot {
  const read = parseChessLive(`${white};${black};${MOVES.slice(0, plies).join(';')}`);
  if (!read.ok) throw new Error(read.error.message);
  return {
    ...snapshotOfRead(read.value, { key: `${number}:1`, game: gameId(number), source: 'x' }),
    source: null,
    ...extra,
  };
}

function world(relayed: GameSnapshot[] = [], evaluation?: (s: GameSnapshot) => EngineOpinion | null) {
  const feed = new EventEmitter<{ update: [TrackerUpdate] }>();
  const shown = new Map(relayed.map((s) => [gameKeyOf(s), s]));
  let now = 0;
  const games = new LiveGames({
    ...(evaluation === undefined ? {} : { evaluation }),
    feed: { on: feed.on.bind(feed), off: feed.off.bind(feed), snapshot: () => undefined },
    isRelayed: (s) => shown.has(gameKeyOf(s)),
    relayed: () => Promise.resolve([...shown.values()]),
    publicSources: ['open'],
    maxViewers: 10,
    maxViewersPerGame: 5,
    lingerMs: 1_000,
    now: () => now,
  });
  return {
    games,
    shown,
    update: (snapshot: GameSnapshot) => feed.emit('update', { type: 'moved', snapshot }),
    advance: (ms: number) => (now += ms),
  };
}

describe('LiveGames', () => {
  it('gives each relayed game one random id, the same at every update', () => {
    const a = game(1, 1);
    const b = game(2, 1, {}, 'Carol', 'Dave');
    const w = world([a, b]);
    const id = w.games.idFor(a);
    expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(w.games.idFor(game(1, 3))).toBe(id);
    expect(w.games.idFor(b)).not.toBe(id);
    w.update(game(1, 2));
    expect(w.games.view(id)?.board.san).toEqual(['e4', 'e5']);
    // A game no post shows is not followed.
    w.update(game(3, 1, {}, 'Eve', 'Frank'));
    expect(w.games.games).toBe(2);
  });

  it('forgets a game once it has not been relayed for the linger time', () => {
    const a = game(1, 2);
    const w = world([a]);
    const id = w.games.idFor(a);
    w.advance(5_000);
    w.games.sweep();
    expect(w.games.view(id)).toBeDefined();
    w.shown.clear();
    w.advance(999);
    w.games.sweep();
    expect(w.games.view(id)).toBeDefined();
    w.advance(1);
    w.games.sweep();
    expect(w.games.view(id)).toBeUndefined();
    expect(w.games.admits(id)).toBe('unknown');
    // Relayed again: a new id, the old one stays unknown.
    w.shown.set(gameKeyOf(a), a);
    expect(w.games.idFor(a)).not.toBe(id);
  });

  it('lists running FICS games and public ChessLive! sources, strongest first', async () => {
    const weak = game(1, 1, { whiteRating: '1200', blackRating: '1300' });
    const strong = game(2, 1, { whiteRating: '2400', blackRating: '++++' }, 'Carol', 'Dave');
    const open = game(3, 1, { source: 'open' }, 'Eve', 'Frank');
    const hidden = game(4, 1, { source: 'private' }, 'Gina', 'Hal');
    const over = game(5, 1, { ended: true, result: '1-0' }, 'Ivy', 'Jon');
    const w = world([weak, strong, open, hidden, over]);
    expect((await w.games.list()).map((g) => g.snapshot.game)).toEqual([2, 1, 3]);
  });
});

describe('changeEvent', () => {
  it('sends one more move as a move, anything else as the full state, nothing for no change', () => {
    const two = game(1, 2);
    const three = game(1, 3);
    const moved = changeEvent('id', two, three, undefined, null);
    expect(moved).toEqual({
      type: 'move',
      data: {
        ply: 3,
        san: 'Nf3',
        uci: 'g1f3',
        fen: three.fen,
        sideToMove: 'black',
        whiteClockMs: 295_000,
        blackClockMs: 298_000,
        clockTicking: false,
        check: false,
        holdings: null,
        opening: { eco: 'C40', name: "King's Knight Opening" },
        analysisUrl: `https://lichess.org/analysis/standard/${three.fen.replaceAll(' ', '_')}`,
        evaluation: null,
      },
    });
    // A takeback, two moves at once, the end: the whole state.
    expect(changeEvent('id', three, two, undefined, null)?.type).toBe('state');
    expect(changeEvent('id', two, game(1, 4), undefined, null)?.type).toBe('state');
    const ended = changeEvent(
      'id',
      three,
      { ...three, ended: true, result: '1-0', reason: 'Bob resigns' },
      undefined,
      null,
    );
    expect(ended).toMatchObject({
      type: 'state',
      data: { board: { ended: true, result: '1-0', reason: 'Bob resigns' } },
    });
    expect(changeEvent('id', two, game(1, 2), undefined, null)).toBeNull();
  });
});

/** A viewer whose stream writes into memory: `events()` parses what it was sent so far. */
function viewer(): { stream: EventStream; events: () => WebEvent[] } {
  const sink = new PassThrough();
  let text = '';
  sink.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  // A PassThrough has what the stream uses of a response: write, end, destroy, close, writableLength.
  const stream = new EventStream(sink as unknown as ServerResponse, 1 << 20, () => undefined);
  const events = (): WebEvent[] =>
    text
      .split('\n\n')
      .filter((block) => block.startsWith('event: '))
      .map((block) => {
        const [type, data] = block.split('\n') as [string, string];
        return {
          type: type.slice('event: '.length),
          data: JSON.parse(data.slice('data: '.length)),
        } as WebEvent;
      });
  return { stream, events };
}

/** Lets the PassThrough hand over what was written. */
const flushed = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('engine evaluations on the page', () => {
  it('shows the evaluation of the position on the board, or an earlier one while the engine thinks', () => {
    const three = game(1, 3);
    const two = game(1, 2);
    expect(evaluationView(three, { fen: three.fen, ply: 3, score: { cp: 80 } })).toEqual({
      ply: 3,
      text: '+0.8',
      white: expect.closeTo(0.573, 3),
    });
    expect(evaluationView(three, { fen: two.fen, ply: 2, score: { mate: -3 } })).toEqual({
      ply: 2,
      text: '#-3',
      white: 0,
    });
    expect(evaluationView(three, { fen: three.fen, ply: 3, score: { mate: 2 } })?.white).toBe(1);
    expect(evaluationView(three, { fen: three.fen, ply: 3, score: { cp: -150 } })?.white).toBeLessThan(0.5);
    // A position the game left (a takeback), the same ply on another line, none asked: no bar.
    expect(evaluationView(two, { fen: three.fen, ply: 3, score: { cp: 80 } })).toBeNull();
    // 1. e4 e5 2. Nc3 rather than 2. Nf3: three plies too, another position.
    const otherLine = 'rnbqkbnr/pppp1ppp/8/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 1 2';
    expect(evaluationView(three, { fen: otherLine, ply: 3, score: { cp: 1 } })).toBeNull();
    expect(evaluationView(three, null)).toBeNull();
  });

  it('a new viewer starts with the evaluation; evaluations of the current position follow, others do not', async () => {
    const two = game(1, 2);
    let opinion: EngineOpinion | null = { fen: two.fen, ply: 2, score: { cp: 30 } };
    const w = world([two], () => opinion);
    const id = w.games.idFor(two);
    w.update(two);
    const { stream, events } = viewer();
    w.games.watch(id, stream);
    await flushed();
    expect(events()).toMatchObject([{ type: 'state', data: { evaluation: { ply: 2, text: '+0.3' } } }]);

    // A move: the page keeps the last evaluation while the engine thinks about the new position.
    const three = game(1, 3);
    w.update(three);
    // The engine finishes the old position after the move: the page has left it, nothing is sent.
    w.games.evaluated(gameId(1), two.fen);
    // Told of the new position before the engine's word on it is there: nothing yet.
    w.games.evaluated(gameId(1), three.fen);
    opinion = { fen: three.fen, ply: 3, score: { cp: -120 } };
    w.games.evaluated(gameId(1), three.fen);
    // Another game's evaluation is not this page's.
    w.games.evaluated(gameId(2), three.fen);
    await flushed();
    expect(events().slice(1)).toMatchObject([
      { type: 'move', data: { ply: 3, evaluation: { ply: 2, text: '+0.3' } } },
      { type: 'evaluation', data: { ply: 3, text: '-1.2' } },
    ]);
    expect(events()).toHaveLength(3);
    const white = (events()[2]!.data as { white: number }).white;
    expect(white).toBeGreaterThan(0);
    expect(white).toBeLessThan(0.5);
    expect(w.games.view(id)?.evaluation).toMatchObject({ ply: 3, text: '-1.2' });

    // No post asks any more: the next move has no bar.
    opinion = null;
    w.update(game(1, 4));
    await flushed();
    expect(events().at(-1)).toMatchObject({ type: 'move', data: { ply: 4, evaluation: null } });
  });

  it('without an engine a game has no evaluation', () => {
    const two = game(1, 2);
    const w = world([two]);
    expect(w.games.view(w.games.idFor(two))?.evaluation).toBeNull();
  });
});

describe('kibitzes on the page', () => {
  it("sends a line said in a game to that game's viewers only, and a new viewer's state has those kept", async () => {
    const said = { ply: 2, handle: 'LectureBot', text: '<b>not markup</b>', whisper: false };
    const a = game(1, 2, { said: [said] });
    const b = game(2, 1, {}, 'Carol', 'Dave');
    const feed = new EventEmitter<{ update: [TrackerUpdate] }>();
    const talk = new EventEmitter<{ said: [SaidInGame] }>();
    const snapshots = new Map([a, b].map((s) => [s.game, s]));
    const games = new LiveGames({
      feed: { on: feed.on.bind(feed), off: feed.off.bind(feed), snapshot: (n) => snapshots.get(n) },
      said: talk,
      isRelayed: () => true,
      relayed: () => Promise.resolve([a, b]),
      publicSources: [],
      maxViewers: 10,
      maxViewersPerGame: 5,
    });
    const [ofA, ofB] = [viewer(), viewer()];
    const idA = games.idFor(a);
    games.watch(idA, ofA.stream);
    games.watch(games.idFor(b), ofB.stream);
    expect(games.view(idA)?.said).toEqual([said]);
    const next = { ...said, ply: 3, text: 'next' };
    talk.emit('said', { game: gameId(1), key: a.key, said: next });
    // Of a game once under the same number: not this one's.
    talk.emit('said', { game: gameId(1), key: 'old', said: { ...said, text: 'stale' } });
    await flushed();
    expect(ofA.events().filter((e) => e.type === 'said')).toEqual([{ type: 'said', data: next }]);
    expect(ofB.events().filter((e) => e.type === 'said')).toEqual([]);
    games.close();
  });
});

describe('the link preview of a game page', () => {
  it('says the result once ended, and names no picture without a public address', () => {
    const ended = game(1, 3, { ended: true, result: '1-0', reason: 'Bob resigns' });
    const page = livePage('AAAAAAAAAAAAAAAAAAAAAA', ended, null);
    expect(page).toContain('<meta property="og:title" content="Alice vs Bob · 1-0 Bob resigns">');
    expect(page).toContain('<meta property="og:description" content="chess, after 2. Nf3">');
    expect(page).not.toContain('og:image');
    expect(page).toContain('<meta name="twitter:card" content="summary">');
  });
});

describe("the front page's stream", () => {
  /** `count` running games, game n rated 1000 + 10n (so the last is the strongest). */
  function rated(count: number): GameSnapshot[] {
    return Array.from({ length: count }, (_, i) => {
      const rating = String(1000 + 10 * (i + 1));
      return game(i + 1, 1, { whiteRating: rating, blackRating: rating }, `W${i + 1}`, `B${i + 1}`);
    });
  }

  it('shows the strongest FRONT_BOARDS games, then sends each change of a shown board only', async () => {
    const all = rated(FRONT_BOARDS + 6);
    const w = world(all);
    expect((await w.games.front()).length).toBe(FRONT_BOARDS + 6);
    const v = viewer();
    w.games.watchFront(v.stream);
    await flushed();
    const [front] = v.events() as unknown as FrontEvent[];
    expect(front!.type).toBe('front');
    const boards = front!.data as MiniView[];
    expect(boards.map((b) => b.white)).toEqual(
      all
        .slice(-FRONT_BOARDS)
        .reverse()
        .map((s) => s.white),
    );
    expect(boards[0]).toMatchObject({ white: `W${FRONT_BOARDS + 6}`, lastMove: 'e2e4', ended: false });

    // The weakest game (not shown) moves, then the strongest: only the strongest's board is sent.
    w.update(game(1, 2, { whiteRating: '1010', blackRating: '1010' }, 'W1', 'B1'));
    const strongest = all.at(-1)!;
    w.update({ ...game(strongest.game, 2, {}, strongest.white, strongest.black), whiteRating: '1300' });
    await flushed();
    const after = v.events().slice(1) as unknown as FrontEvent[];
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({
      type: 'mini',
      data: { id: boards[0]!.id, lastMove: 'e7e5', fen: game(1, 2).fen, sideToMove: 'white' },
    });
  });

  it('adds a game that starts while there is room, and sends the end of a shown one', async () => {
    const [a, b] = rated(2);
    const w = world([a!]);
    await w.games.front();
    const v = viewer();
    w.games.watchFront(v.stream);
    w.shown.set(gameKeyOf(b!), b!);
    w.update(b!);
    w.update({ ...a!, ended: true, result: '1-0' });
    await flushed();
    expect(
      (v.events() as unknown as FrontEvent[]).map((e) =>
        e.type === 'front' ? e.data.map((m) => m.white) : [e.data.white, e.data.ended],
      ),
    ).toEqual([['W1'], ['W2', false], ['W1', true]]);
  });

  it('counts its streams as viewers, within the per-page bound', async () => {
    const w = world(rated(1));
    await w.games.front();
    for (let i = 0; i < 5; i++) {
      expect(w.games.admitsFront()).toBe('ok');
      w.games.watchFront(viewer().stream);
    }
    expect(w.games.admitsFront()).toBe('game full');
    expect(w.games.viewers).toBe(5);
  });
});
