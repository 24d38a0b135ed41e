import { Chess } from 'chessops/chess';
import { INITIAL_FEN } from 'chessops/fen';
import { parseSan } from 'chessops/san';
import { describe, expect, it } from 'vitest';
import { GameTracker, type TrackerUpdate } from '../../src/game/tracker.js';
import { decodeLine, ObserverDecoder } from '../../src/protocol/decode.js';
import type { ServerEvent } from '../../src/protocol/events.js';
import { makeSnapshotPgn } from '../../src/game/pgn.js';
import { style12Line } from '../support/boards.js';
import { scenarios, transcript } from '../support/fixtures.js';
import { gameId, gameNumber } from '../support/fics-values.js';

function events(bytes: Buffer): ServerEvent[] {
  const decoder = new ObserverDecoder();
  return [...decoder.push(bytes), ...decoder.end()].filter((e): e is ServerEvent => e.kind !== 'reply');
}

function run(tracker: GameTracker, list: ServerEvent[]): TrackerUpdate[] {
  return list.flatMap((e) => tracker.apply(e));
}

const truthOf = (scenario: string, id: string) =>
  scenarios()
    .find((s) => s.name === scenario)!
    .truths.find((t) => t.id === id)!;

describe('where a server field is wrong, the state follows the moves', () => {
  it('lasker keeps castling flags after a rook is captured at home: the FEN does not', () => {
    const all = events(transcript('lasker_flag', 'obs_multi.raw'));
    const lastBoard = all
      .filter((e) => e.kind === 'style12' && e.game === 13 && e.white === 'GuestSZJW')
      .at(-1);
    // The server still says Black may castle short after Qxh8 took the rook...
    expect(lastBoard).toMatchObject({ castling: { blackShort: true } });
    const tracker = new GameTracker();
    run(tracker, all);
    // ...the state follows the moves.
    const fen = truthOf('lasker_flag', 'F01').fen_final;
    expect(fen.split(' ')[2]).toBe('KQq');
    expect(tracker.games().find((g) => g.white === 'GuestSZJW')!.fen).toBe(fen);
  });

  it('lasker credits a phantom piece to crazyhouse holdings after castling: pockets follow the moves', () => {
    const all = events(transcript('lasker_crazyhouse', 'obs_multi.raw'));
    const tracker = new GameTracker();
    const finals = new Map<string, string>();
    for (const e of all)
      for (const u of tracker.apply(e))
        if (u.type !== 'needs' && u.type !== 'undecoded') finals.set(u.snapshot.key, u.snapshot.fen);
    let wrongOnServer = 0;
    for (const t of scenarios().find((s) => s.name === 'lasker_crazyhouse')!.truths) {
      const last = all.filter((e) => e.kind === 'holdings' && e.game === t.server_game_number).at(-1);
      const pockets = /\[(.*)\]/.exec(t.fen_final)![1]!;
      const server = last?.kind === 'holdings' ? last.holdings.white + last.holdings.black.toLowerCase() : '';
      if ([...server].sort().join('') !== [...pockets].sort().join('')) wrongOnServer++;
      expect([...finals.values()]).toContain(t.fen_final);
    }
    expect(wrongOnServer).toBeGreaterThan(0);
  });
});

describe('takebacks and gaps', () => {
  it('a takeback shortens the history (FatICS sends it as a delta at a lower ply)', () => {
    const tracker = new GameTracker();
    const lengths = run(tracker, events(transcript('fatics_takeback', 'obs_start.raw')))
      .filter((u) => u.type === 'moved' && u.snapshot.game === 16)
      .map((u) => (u.type === 'moved' ? u.snapshot.san.length : 0));
    const drops = lengths.filter((n, i) => i > 0 && n < lengths[i - 1]!);
    expect(drops.length).toBeGreaterThanOrEqual(2);
  });

  it('a missed delta makes the state ask for the move list instead of guessing, and the list repairs it', () => {
    const all = events(transcript('fatics_takeback', 'obs_start.raw'));
    const first = all.find((e) => e.kind === 'style12')!;
    if (first.kind !== 'style12') throw new Error('no board');
    const game = scenarios()
      .find((s) => s.name === 'fatics_takeback')!
      .truths.find((t) => t.white === first.white)!;
    const missing = all.findIndex((e) => e.kind === 'delta' && e.ply === 10);
    const end = all.findIndex((e) => e.kind === 'gameEnd');
    const tracker = new GameTracker();
    const before = run(tracker, all.slice(0, missing));
    expect(before.some((u) => u.type === 'needs')).toBe(false);
    const gap = run(tracker, all.slice(missing + 1, end));
    expect(gap).toContainEqual({ type: 'needs', game: 16, need: 'moves' });
    // Nothing guessed: the shown history stops before the gap.
    expect(tracker.snapshot(gameId(16))!.san).toEqual(game.san.slice(0, 9));
    expect(tracker.snapshot(gameId(16))!.needs).toBe('moves');
    // The `moves 16` reply another observer received later in the same game fills the gap; the
    // deltas that waited, and those after, follow.
    const list = events(transcript('fatics_takeback', 'obs_late.raw')).find(
      (e) => e.kind === 'moveList' && e.white === first.white,
    )!;
    // The same list under another pair's names is some other game's history: it is not taken.
    run(tracker, [{ ...list, white: 'Someone', black: 'Else' } as ServerEvent]);
    expect(tracker.snapshot(gameId(16))!.needs).toBe('moves');
    expect(tracker.snapshot(gameId(16))!.san).toEqual(game.san.slice(0, 9));
    run(tracker, [list]);
    const ended = run(tracker, all.slice(end)).find((u) => u.type === 'ended')!;
    if (ended.type !== 'ended') throw new Error('the game did not end');
    const repaired = ended.snapshot;
    expect(repaired.san).toEqual(game.san);
    expect(repaired.fen).toBe(game.fen_final);
    expect(repaired.needs).toBeNull();
  });

  it('starts its history at the first board seen mid-game, then at the first move once the list came', () => {
    const all = events(transcript('fatics_takeback', 'obs_late.raw'));
    const first = all.find((e) => e.kind === 'style12')!;
    if (first.kind !== 'style12') throw new Error('no board');
    const listAt = all.findIndex((e) => e.kind === 'moveList' && e.white === first.white);
    const tracker = new GameTracker();
    const firstAt = all.indexOf(first);
    // The move list comes after the first board: the game is joined mid-game first.
    expect(listAt).toBeGreaterThan(firstAt);
    run(tracker, all.slice(0, firstAt + 1));
    const joinedAt = tracker.snapshot(gameId(first.game))!;
    expect(joinedAt.fen).not.toBe(INITIAL_FEN);
    expect(joinedAt.startFen).toBe(joinedAt.fen);
    expect(joinedAt.complete).toBe(false);
    const listed = run(tracker, all.slice(firstAt + 1))
      .flatMap((u) => (u.type === 'moved' || u.type === 'ended' ? [u.snapshot] : []))
      .filter((g) => g.key === joinedAt.key)
      .at(-1)!;
    expect(listed.complete).toBe(true);
    expect(listed.san.length).toBeGreaterThan(0);
    expect(listed.startFen).toBe(INITIAL_FEN);
  });
});

describe('a line that fits nothing', () => {
  it('is dropped once the move list shows it wrong, and a refresh is asked for instead of freezing', () => {
    const all = events(transcript('fatics_takeback', 'obs_start.raw'));
    const first = all.find((e) => e.kind === 'style12')!;
    if (first.kind !== 'style12') throw new Error('no board');
    const at = all.findIndex((e) => e.kind === 'delta' && e.ply === 5);
    const tracker = new GameTracker();
    run(tracker, all.slice(0, at));
    // A delta no legal move explains (the king cannot go e1-e3).
    const bogus = decodeLine(`<d1> 16 5 Ke3 e1e3 100 300000 0`);
    expect(run(tracker, [bogus])).toContainEqual({ type: 'needs', game: 16, need: 'moves' });
    const later = all.slice(at, at + 6);
    run(tracker, later);
    // The list the connection asks for (made from the real game), then the line is gone.
    const game = scenarios()
      .find((s) => s.name === 'fatics_takeback')!
      .truths.find((t) => t.white === first.white)!;
    const list = new ObserverDecoder()
      .lines([
        `Movelist for game 16:`,
        '',
        `${game.white} (++++) vs. ${game.black} (++++) --- 2026-11-21 05:02 UTC`,
        'Unrated blitz match, initial time: 5 minutes, increment: 2 seconds.',
        '',
        `Move  ${game.white}               ${game.black}`,
        '----  ---------------------   ---------------------',
        ...[0, 2, 4].map((i) => `  ${i / 2 + 1}.  ${game.san[i]} (0:00.000)  ${game.san[i + 1]} (0:00.000)`),
        '      {Still in progress} *',
      ])
      .filter((e): e is ServerEvent => e.kind === 'moveList');
    expect(run(tracker, list)).toContainEqual({ type: 'needs', game: 16, need: 'refresh' });
    expect(tracker.snapshot(gameId(16))!.san).toEqual(
      game.san.slice(0, 4 + later.filter((e) => e.kind === 'delta').length),
    );
  });
});

describe('game identity', () => {
  const players = { game: 124, white: 'FlixxG', black: 'Schoon' };
  const moves = ['e4', 'e5', 'Nf3', 'Nc6', 'Bb5', 'a6', 'Ba4', 'Nf6'];

  function boardsOf(sans: string[], from = 0): string[] {
    const pos = Chess.default();
    const lines: string[] = [];
    sans.forEach((san, i) => {
      const move = parseSan(pos, san)!;
      pos.play(move);
      if (i + 1 > from) lines.push(style12Line(pos, { ...players, ply: i + 1, san, verbose: 'x/none' }));
    });
    return lines;
  }

  it('an adjourned game resumed later is a new entry, complete from move 1 via its move list', () => {
    const tracker = new GameTracker();
    const decoder = new ObserverDecoder();
    const first = decoder.lines([
      'Game 124: FlixxG (1800) Schoon (1750) rated blitz 3 0',
      style12Line(Chess.default(), { ...players, ply: 0 }),
      ...boardsOf(moves.slice(0, 4), 0),
      '{Game 124 (FlixxG vs. Schoon) Game adjourned by mutual agreement} *',
    ]);
    run(tracker, first as ServerEvent[]);
    const adjourned = tracker.snapshot(gameId(124))!;
    expect(adjourned).toMatchObject({ san: moves.slice(0, 4), result: '*', ended: true });
    const resumed = run(
      tracker,
      decoder.lines([
        '{Game 124 (FlixxG vs. Schoon) Continuing rated blitz match.}',
        boardsOf(moves.slice(0, 6)).at(-1)!,
      ]) as ServerEvent[],
    );
    expect(resumed).toContainEqual({ type: 'needs', game: 124, need: 'moves' });
    expect(tracker.snapshot(gameId(124))!.key).not.toBe(adjourned.key);
    run(tracker, [
      ...(decoder.lines([
        'Movelist for game 124:',
        '',
        'FlixxG (1800) vs. Schoon (1750) --- Sat Aug 11, 09:21 PDT 2012',
        'Rated blitz match, initial time: 3 minutes, increment: 0 seconds.',
        '',
        'Move  FlixxG             Schoon',
        '----  ----------------   ----------------',
        '  1.  e4      (0:00)     e5      (0:00)',
        '  2.  Nf3     (0:01)     Nc6     (0:02)',
        '  3.  Bb5     (0:01)     a6      (0:02)',
        '      {Still in progress} *',
      ]) as ServerEvent[]),
      ...(decoder.lines(boardsOf(moves, 6)) as ServerEvent[]),
    ]);
    const game = tracker.snapshot(gameId(124))!;
    expect(game).toMatchObject({ san: moves, complete: true, needs: null, ended: false });
    expect(makeSnapshotPgn(game)).toMatch(/^\[Event "FICS rated blitz game"\]/);
    const movetext = makeSnapshotPgn(game).replace(/ \{[^}]*\}/g, '');
    expect(movetext).toContain('1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 *');
  });

  it('a reused game number after an end is a separate entry', () => {
    const all = events(transcript('fatics_takeback', 'obs_plain.raw'));
    const tracker = new GameTracker();
    const keys = new Set(run(tracker, all).flatMap((u) => (u.type === 'started' ? [u.snapshot.key] : [])));
    expect(keys.size).toBe(2);
  });
});

describe('bughouse', () => {
  it('pairs the two boards of a match from captures and piece passes (FatICS sends pt=0)', () => {
    for (const file of ['obs_both.raw', 'obs_block.raw']) {
      const tracker = new GameTracker();
      const pairs = new Map<string, number | null>();
      for (const u of run(tracker, events(transcript('fatics_bughouse', file)))) {
        if (u.type === 'ended') pairs.set(`${u.snapshot.game} ${u.snapshot.white}`, u.snapshot.partnerGame);
      }
      const truths = scenarios().find((s) => s.name === 'fatics_bughouse')!.truths;
      for (const t of truths) {
        const partner = truths.find((o) => o.id.split('/')[0] === t.id.split('/')[0] && o.id !== t.id)!;
        expect(pairs.get(`${t.server_game_number} ${t.white}`), `${file} ${t.id}`).toBe(
          partner.server_game_number,
        );
      }
    }
  });

  it('pairs lasker boards observed from move 1, which no line names bughouse', () => {
    const tracker = new GameTracker();
    const pairs = new Map<string, number | null>();
    for (const u of run(tracker, events(transcript('lasker_bughouse_b', 'obs_both.raw')))) {
      if (u.type === 'ended') pairs.set(`${u.snapshot.key}`, u.snapshot.partnerGame);
    }
    expect([...pairs.values()].sort()).toEqual([1, 1, 2, 2]);
  });

  it('recognises a lasker bughouse board observed alone, and takes every drop the server accepted', () => {
    const truths = scenarios().find((s) => s.name === 'lasker_bughouse_b')!.truths;
    const tracker = new GameTracker();
    const ended = run(tracker, events(transcript('lasker_bughouse_b', 'obs_plain.raw'))).flatMap((u) =>
      u.type === 'ended' ? [u.snapshot] : [],
    );
    expect(ended.map((g) => g.variant)).toEqual(['bughouse', 'bughouse']);
    expect(ended.map((g) => g.san)).toEqual(truths.filter((t) => t.id.endsWith('/0')).map((t) => t.san));
  });

  it('takes off the piece lasker passes to a board when its partner board castles', () => {
    const all = events(transcript('lasker_bughouse_b', 'obs_both.raw'));
    const truth = truthOf('lasker_bughouse_b', 'B05/0');
    const lastHands = all.filter((e) => e.kind === 'holdings' && e.game === 1).at(-1);
    // The server's last word on board 0 has a second black pawn; the true hands have one.
    expect(lastHands).toMatchObject({ holdings: { white: 'PPBB', black: 'PP' } });
    const tracker = new GameTracker();
    run(tracker, all);
    const board0 = tracker.games().find((g) => g.game === 1)!;
    expect(board0.fen).toBe(truth.fen_final);
    expect(board0.holdings).toEqual({ white: 'PPBB', black: 'P' });
  });

  it('writes a bughouse board as a game from the standard position, the variant tagged', () => {
    for (const file of ['obs_both.raw', 'obs_late.raw']) {
      const tracker = new GameTracker();
      run(tracker, events(transcript('lasker_bughouse_b', file)));
      for (const game of tracker.games()) {
        const pgn = makeSnapshotPgn(game);
        expect(pgn).toContain('[Variant "Bughouse"]');
        expect(pgn).not.toContain('[SetUp');
        expect(pgn).not.toContain('[FEN');
        expect(pgn.replace(/ \{[^}]*\}/g, '')).toMatch(/^1\. [a-h]/m);
      }
    }
  });

  it('does not pair two crazyhouse games that run side by side', () => {
    const tracker = new GameTracker();
    run(tracker, events(transcript('lasker_crazyhouse', 'obs_multi.raw')));
    expect(tracker.games().every((g) => g.partnerGame === null && g.variant === 'crazyhouse')).toBe(true);
  });
});

describe('an adjourned game', () => {
  for (const scenario of ['lasker_adjourn_b', 'fatics_adjourn_b']) {
    it(`resumed, holds every move from move 1 without asking the server (${scenario})`, () => {
      const whole = scenarios()
        .find((s) => s.name === scenario)!
        .truths.at(-1)!;
      const tracker = new GameTracker();
      const all = events(transcript(scenario, 'obs_start.raw'));
      const adjourned = all.findIndex((e) => e.kind === 'gameEnd');
      const first = run(tracker, all.slice(0, adjourned + 1));
      const second = run(tracker, all.slice(adjourned + 1));
      const updates = [...first, ...second];
      const ended = updates.flatMap((u) => (u.type === 'ended' ? [u.snapshot] : []));
      expect(ended.map((g) => [g.result, g.san.length])).toEqual([
        ['*', 26],
        ['1/2-1/2', 70],
      ]);
      const resumed = ended[1]!;
      expect(resumed.key).not.toBe(ended[0]!.key);
      expect(resumed).toMatchObject({ complete: true, needs: null, san: whole.san, fen: whole.fen_final });
      // The resumed game asked for nothing: its first part came from the adjourned one.
      expect(second.filter((u) => u.type === 'needs')).toEqual([]);
      const pgn = makeSnapshotPgn(resumed);
      expect(pgn).not.toContain('[SetUp');
      expect(pgn.replace(/ \{[^}]*\}/g, '')).toContain(`1. ${whole.san[0]} ${whole.san[1]}`);
    });
  }

  it('resumed under a new game number, still holds every move from move 1', () => {
    const whole = scenarios()
      .find((s) => s.name === 'fatics_adjourn_b')!
      .truths.at(-1)!;
    const all = events(transcript('fatics_adjourn_b', 'obs_start.raw'));
    const adjourned = all.findIndex((e) => e.kind === 'gameEnd');
    const renumbered = all
      .slice(adjourned + 1)
      .map((e) => ('game' in e && e.game === 1 ? ({ ...e, game: 57 } as ServerEvent) : e));
    const tracker = new GameTracker();
    run(tracker, all.slice(0, adjourned + 1));
    const ended = run(tracker, renumbered).find((u) => u.type === 'ended');
    expect(ended?.type === 'ended' && ended.snapshot).toMatchObject({
      game: 57,
      complete: true,
      san: whole.san,
    });
  });

  it('is not continued by another pair, or from another position', () => {
    const all = events(transcript('lasker_adjourn_b', 'obs_start.raw'));
    const end = all.findIndex((e) => e.kind === 'gameEnd');
    const resumedBoard = all.slice(end).find((e) => e.kind === 'style12')!;
    if (resumedBoard.kind !== 'style12') throw new Error('no board');
    for (const other of [
      { ...resumedBoard, white: 'Someone' },
      { ...resumedBoard, ranks: [...resumedBoard.ranks.slice(0, 7), 'RNB-K---'] },
    ]) {
      const tracker = new GameTracker();
      run(tracker, all.slice(0, end + 1));
      run(tracker, [{ kind: 'observing', game: gameNumber(1) }, other]);
      expect(tracker.snapshot(gameId(1))).toMatchObject({ complete: false, needs: 'moves' });
    }
  });
});

describe('PGN', () => {
  it('has standard tags, clock comments and the result', () => {
    const tracker = new GameTracker();
    run(tracker, events(transcript('fatics_takeback', 'obs_start.raw')));
    const pgn = makeSnapshotPgn(tracker.games()[0]!, { date: new Date('2026-11-21T00:00:00Z') });
    expect(pgn).toContain('[White "GuestCDCR"]');
    // Read from a file, the server is not known: PGN's "?" rather than a guess.
    expect(pgn).toContain('[Site "?"]');
    expect(
      makeSnapshotPgn(
        new GameTracker({ server: 'lasker.example' })
          .apply(events(transcript('fatics_takeback', 'obs_start.raw')).find((e) => e.kind === 'style12')!)
          .flatMap((u) => (u.type === 'started' ? [u.snapshot] : []))[0]!,
      ),
    ).toContain('[Site "lasker.example"]');
    expect(pgn).toContain('[Date "2026.11.21"]');
    expect(pgn).toContain('[TimeControl "120+12"]');
    expect(pgn).toMatch(/1\. d4 \{ \[%clk 0:02:00\] \}/);
    expect(pgn.trim().endsWith(tracker.games()[0]!.result)).toBe(true);
  });
});
