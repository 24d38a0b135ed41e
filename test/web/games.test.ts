// The live page's registry of games and the events it derives, on snapshots of real move files:
// ids (random, stable per game, forgotten after the game stops being relayed), the front page's
// choice and order, and which change becomes a move event and which a full state.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { parseChessLive } from '../../src/chesslive/read.js';
import { snapshotOfRead } from '../../src/chesslive/source.js';
import type { GameSnapshot } from '../../src/game/snapshot.js';
import type { TrackerUpdate } from '../../src/game/tracker.js';
import { gameKeyOf } from '../../src/relay/game-key.js';
import { LiveGames } from '../../src/web/games.js';
import { changeEvent } from '../../src/web/view.js';

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
    ...snapshotOfRead(read.value, { key: `${number}:1`, game: number, source: 'x' }),
    source: null,
    ...extra,
  };
}

function world(relayed: GameSnapshot[] = []) {
  const feed = new EventEmitter<{ update: [TrackerUpdate] }>();
  const shown = new Map(relayed.map((s) => [gameKeyOf(s), s]));
  let now = 0;
  const games = new LiveGames({
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
    const moved = changeEvent('id', two, three, undefined);
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
      },
    });
    // A takeback, two moves at once, the end: the whole state.
    expect(changeEvent('id', three, two, undefined)?.type).toBe('state');
    expect(changeEvent('id', two, game(1, 4), undefined)?.type).toBe('state');
    const ended = changeEvent(
      'id',
      three,
      { ...three, ended: true, result: '1-0', reason: 'Bob resigns' },
      undefined,
    );
    expect(ended).toMatchObject({
      type: 'state',
      data: { board: { ended: true, result: '1-0', reason: 'Bob resigns' } },
    });
    expect(changeEvent('id', two, game(1, 2), undefined)).toBeNull();
  });
});
