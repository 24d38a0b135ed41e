// A snapshot says what the whole history says, however the state came by it: the state keeps each
// move's check and opening as the moves are played instead of working them out again per snapshot,
// and names a delta's move by its squares before it parses the server's SAN. Snapshots stay what
// they were when later moves, takebacks or move lists change the game.
import { Chess } from 'chessops/chess';
import { parseFen } from 'chessops/fen';
import { setupPosition } from 'chessops/variant';
import { describe, expect, it } from 'vitest';
import { openingOf } from '../../src/game/openings.js';
import type { GameSnapshot } from '../../src/game/snapshot.js';
import { GameTracker } from '../../src/game/tracker.js';
import { rulesFor } from '../../src/game/variants.js';
import { decodeLine, ObserverDecoder } from '../../src/protocol/decode.js';
import type { ServerEvent } from '../../src/protocol/events.js';
import { style12Line } from '../support/boards.js';
import { allTranscripts, transcript } from '../support/fixtures.js';
import { gameId } from '../support/fics-values.js';

function events(bytes: Buffer): ServerEvent[] {
  const decoder = new ObserverDecoder();
  return [...decoder.push(bytes), ...decoder.end()].filter((e): e is ServerEvent => e.kind !== 'reply');
}

function snapshots(bytes: Buffer): GameSnapshot[] {
  const tracker = new GameTracker();
  return events(bytes)
    .flatMap((event) => tracker.apply(event))
    .flatMap((update) => ('snapshot' in update ? [update.snapshot] : []));
}

/** Whether the side to move is in check in the snapshot's FEN; undefined for a board chessops cannot read. */
function inCheck(snapshot: GameSnapshot): boolean | undefined {
  const setup = parseFen(snapshot.fen);
  if (setup.isErr) return undefined;
  const pos = setupPosition(rulesFor(snapshot.variant), setup.value);
  return pos.isOk ? pos.value.isCheck() : undefined;
}

describe('the snapshots of every transcript', () => {
  it('name the opening their whole history reaches, and say check exactly when their position is in check', () => {
    let openings = 0;
    let checks = 0;
    for (const { name, bytes } of allTranscripts()) {
      for (const snapshot of snapshots(bytes)) {
        const opening = openingOf(snapshot.variant, snapshot.startFen, snapshot.uci);
        expect(snapshot.opening, `${name}: ${snapshot.key} after ${snapshot.uci.join(' ')}`).toEqual(opening);
        if (opening !== null) openings++;
        const check = inCheck(snapshot);
        if (check === undefined) continue;
        expect(snapshot.check, `${name}: ${snapshot.fen}`).toBe(check);
        if (check) checks++;
      }
    }
    // Enough of both to mean something.
    expect(openings).toBeGreaterThan(100);
    expect(checks).toBeGreaterThan(20);
  });

  it('stay what they were when later moves, takebacks and move lists change the game', () => {
    for (const file of ['obs_start.raw', 'obs_late.raw']) {
      const taken = snapshots(transcript('fatics_takeback', file)).map((snapshot) => ({
        snapshot,
        json: JSON.stringify(snapshot),
      }));
      const lengths = taken.map((t) => t.snapshot.san.length);
      expect(lengths.some((n, i) => i > 0 && n < lengths[i - 1]!)).toBe(true);
      for (const { snapshot, json } of taken) expect(JSON.stringify(snapshot)).toBe(json);
    }
  });
});

describe('a delta board', () => {
  /** A tracker that saw game 7's header and start position: it needs nothing more. */
  function started(): GameTracker {
    const tracker = new GameTracker();
    tracker.apply(decodeLine('Game 7: Alpha (1500) Beta (1500) rated blitz 5 0'));
    tracker.apply(
      decodeLine(style12Line(Chess.default(), { game: 7, white: 'Alpha', black: 'Beta', ply: 0 })),
    );
    expect(tracker.snapshot(gameId(7))!.needs).toBeNull();
    return tracker;
  }

  it('whose SAN is written otherwise than chessops writes it still plays its move, kept in chessops form', () => {
    const tracker = started();
    const updates = tracker.apply(decodeLine('<d1> 7 1 Ng1f3 g1f3 0 300000 0'));
    expect(updates.map((u) => u.type)).toEqual(['moved']);
    expect(tracker.snapshot(gameId(7))!.san).toEqual(['Nf3']);
    // A SAN that names no move at all: the squares say which.
    expect(tracker.apply(decodeLine('<d1> 7 2 P-K4 e7e5 0 300000 0')).map((u) => u.type)).toEqual(['moved']);
    expect(tracker.snapshot(gameId(7))!.san).toEqual(['Nf3', 'e5']);
    expect(tracker.snapshot(gameId(7))!.needs).toBeNull();
  });

  it('whose SAN names another legal move than its squares is not guessed: the move list is asked for', () => {
    const tracker = started();
    const updates = tracker.apply(decodeLine('<d1> 7 1 Nc3 g1f3 0 300000 0'));
    expect(updates).toEqual([{ type: 'needs', game: 7, need: 'moves' }]);
    expect(tracker.snapshot(gameId(7))!.san).toEqual([]);
  });
});
