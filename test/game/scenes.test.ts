// The GIF's scenes of a game (src/game/scenes.ts) against the straightforward replay they replaced:
// every move named again by chessops, every scene built whole (the last one ended alike). Every game of the real transcripts
// (as the tracker made their snapshots, bughouse and crazyhouse included) and of the FICS fixture
// games must give the same scenes, in every look.
import type { Color } from 'chessops/types';
import { describe, expect, it } from 'vitest';
import type { BoardScene } from '../../render/scene.js';
import { chessLiveGameScenes } from '../../src/chesslive/scenes.js';
import { parseSanMove, parseUciMove, play, replayFen, startReplay } from '../../src/game/moves.js';
import type { GameRecord } from '../../src/game/record.js';
import {
  finalScene,
  gameScenes,
  snapshotSceneExtras,
  type SceneExtras,
  type GameLook,
} from '../../src/game/scenes.js';
import { decodeTranscript } from '../../src/game/transcript.js';
import { rulesFor } from '../../src/game/variants.js';
import type { GameResult, Holdings } from '../../src/protocol/events.js';
import { fixtureGames } from '../fake-fics/fixture-games.js';
import { allTranscripts } from '../support/fixtures.js';

/** The scenes as they were made before: a full replay naming each move, each scene spread whole. */
function replayedScenes(game: GameRecord, extras: SceneExtras, look: GameLook): BoardScene[] {
  const replay = startReplay(game.variant, game.startFen);
  if (!replay.ok) throw new Error(replay.error);
  const bughouse = game.variant === 'bughouse';
  const clocks: Record<Color, number | null> = { white: extras.initialClockMs, black: extras.initialClockMs };
  const noHoldings = { white: '', black: '' };
  const sceneOf = (
    lastMove: string | null,
    lastSan: string | null,
    moveTimeMs: number | null,
    hands: Holdings | null,
  ): BoardScene => ({
    fen: replayFen(replay.value),
    rules: rulesFor(game.variant),
    orientation: look.orientation ?? 'white',
    lastMove,
    lastSan,
    moveTimeMs,
    white: { ...extras.white, clockMs: clocks.white },
    black: { ...extras.black, clockMs: clocks.black },
    ...(bughouse ? { holdings: hands ?? noHoldings } : {}),
    ...(look.theme ? { theme: look.theme } : {}),
    ...(look.size ? { size: look.size } : {}),
  });
  const scenes: BoardScene[] = [sceneOf(null, null, null, null)];
  for (const [ply, uci] of game.uci.entries()) {
    const move = parseUciMove(replay.value, uci)!;
    const mover = replay.value.pos.turn;
    const { san } = play(replay.value, move);
    const before = clocks[mover];
    const after = game.clocksMs[ply] ?? null;
    const fell = before !== null && after !== null && after <= before ? before - after : null;
    clocks[mover] = after ?? clocks[mover];
    scenes.push(sceneOf(uci, san, extras.moveTimesMs?.[ply] ?? fell, extras.handsAfter[ply] ?? null));
  }
  scenes[scenes.length - 1] = finalScene(scenes.at(-1)!, game, extras);
  return scenes;
}

const snapshots = allTranscripts().flatMap(({ name, bytes }) =>
  decodeTranscript(bytes).games.map((game) => ({ name: `${name} game ${game.game}`, game })),
);

/** A FICS fixture game (SAN only) as a record, its UCI from a replay. */
function fixtureRecord(game: (typeof fixtureGames)[number]): GameRecord {
  const variant = game.variant === 'crazyhouse' ? 'crazyhouse' : 'chess';
  const replay = startReplay(variant);
  if (!replay.ok) throw new Error(replay.error);
  const uci = game.san.map((san) => play(replay.value, parseSanMove(replay.value, san)!).uci);
  return { ...game, variant, uci, clocksMs: [], result: game.result as GameResult };
}

describe('game scenes', () => {
  it('reads games of every variant from the transcripts', () => {
    const variants = new Set(snapshots.map(({ game }) => game.variant));
    expect([...variants].sort()).toEqual(['bughouse', 'chess', 'crazyhouse']);
    expect(snapshots.filter(({ game }) => game.uci.length > 0).length).toBeGreaterThan(100);
  });

  it('are the replayed scenes for every snapshot of the real transcripts, in every look', () => {
    const looks: GameLook[] = [{}, { orientation: 'black', theme: 'blue', size: 480 }];
    for (const { name, game } of snapshots) {
      for (const look of looks) {
        const scenes = gameScenes(game, look);
        const oriented = { ...look, orientation: look.orientation ?? (game.flip ? 'black' : 'white') };
        expect(scenes, name).toStrictEqual({
          ok: true,
          value: replayedScenes(game, snapshotSceneExtras(game), oriented),
        });
      }
    }
  });

  it('are the replayed scenes for every FICS fixture game read as a record', () => {
    for (const fixture of fixtureGames) {
      const record = fixtureRecord(fixture);
      const extras: SceneExtras = {
        initialClockMs: null,
        white: { name: record.white },
        black: { name: record.black },
        handsAfter: [],
        finalHoldings: null,
        ended: record.result !== '*',
      };
      expect(chessLiveGameScenes(record), fixture.id).toStrictEqual({
        ok: true,
        value: replayedScenes(record, extras, {}),
      });
    }
  });

  it('names an illegal move and its ply', () => {
    const snap = snapshots.find(({ game }) => game.variant === 'chess' && game.uci.length > 3)!.game;
    const broken = { ...snap, uci: [...snap.uci.slice(0, 2), 'e2e5', ...snap.uci.slice(3)] };
    expect(gameScenes(broken)).toEqual({ ok: false, error: 'invalid move "e2e5" at ply 3' });
  });
});
