import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { games } from '../../src/fics/requests.js';
import {
  bughousePartner,
  filterGames,
  parseGamesList,
  parseGamesRow,
  type GamesList,
} from '../../src/fics/games-list.js';
import { ObserverDecoder } from '../../src/protocol/decode.js';
import { Framer } from '../../src/protocol/framer.js';
import { ScriptedGame } from '../fake-fics/game.js';
import { gameNumber, handle } from '../support/fics-values.js';

/** The text of a reply as the connection gets it: the framer's lines. */
function replyText(file: string): string {
  const framer = new Framer();
  const bytes = readFileSync(new URL(`../fixtures/fics-games/${file}`, import.meta.url));
  return [...framer.push(bytes), ...framer.flush()]
    .filter((frame) => frame.type === 'line')
    .map((frame) => frame.text)
    .join('\n');
}

/** What a capture client received after it sent `games` (up to its next command), as framed lines. */
function gamesReply(capture: string): string[] {
  const dir = new URL('../fixtures/fics/extra-captures/lasker_misc/', import.meta.url);
  const bytes = readFileSync(new URL(`${capture}.raw`, dir));
  const sent = readFileSync(new URL(`${capture}.sent.jsonl`, dir), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { raw_offset: number; sent: string });
  const at = sent.findIndex((s) => s.sent === 'games');
  const framer = new Framer();
  const part = bytes.subarray(sent[at]!.raw_offset, sent[at + 1]!.raw_offset);
  return [...framer.push(part), ...framer.flush()].flatMap((f) => (f.type === 'line' ? [f.text] : []));
}

/** The games command's answer as the session recognises it without block mode (lasker). */
function unframed(lines: string[]): GamesList | 'unanswered' {
  const match = games().matcher()!;
  for (const event of new ObserverDecoder().lines(lines)) {
    if (event.kind === 'reply') continue;
    const outcome = match(event);
    if (outcome !== undefined && outcome !== 'claimed') return outcome.ok ? outcome.value : 'unanswered';
  }
  return 'unanswered';
}

describe('the games replies both servers really send', () => {
  for (const server of ['lasker', 'fatics']) {
    it(`${server}: no game in progress is a whole answer, not a silence`, () => {
      const lines = gamesReply(`${server}_games_empty`);
      expect(lines.some((l) => l.includes('There are no games in progress.'))).toBe(true);
      expect(unframed(lines)).toEqual({ rows: [], displayed: 0, skipped: [] });
      expect(parseGamesList(lines.join('\n'))).toEqual({ rows: [], displayed: 0, skipped: [] });
    });

    it(`${server}: a running bughouse game shows both boards, which pair as partners`, () => {
      const list = unframed(gamesReply(`${server}_pobserve_bughouse`));
      if (list === 'unanswered') throw new Error('the games list was not recognised');
      expect(list.skipped).toEqual([]);
      expect(list.rows.map((r) => [r.game, r.type, r.initialMinutes])).toEqual([
        [1, 'bughouse', 5],
        [2, 'bughouse', 5],
      ]);
      expect(bughousePartner(list.rows, gameNumber(1))).toBe(2);
      expect(bughousePartner(list.rows, gameNumber(2))).toBe(1);
      // A board the list does not show, or a game that is not bughouse, has no partner from it.
      expect(bughousePartner(list.rows, gameNumber(3))).toBeNull();
      expect(
        bughousePartner([list.rows[0]!, { ...list.rows[1]!, incrementSec: 2 }], gameNumber(1)),
      ).toBeNull();
    });
  }
});

describe('parseGamesList', () => {
  it('reads a real lasker games reply', () => {
    const list = parseGamesList(replyText('games-lasker.raw'));
    expect(list.skipped).toEqual([]);
    expect(list.displayed).toBe(2);
    expect(list.rows).toHaveLength(2);
    expect(list.rows[0]).toEqual({
      game: 1,
      kind: 'played',
      white: 'GuestKVEF',
      black: 'GuestROQF',
      whiteMaybeCut: false,
      blackMaybeCut: false,
      whiteRating: '++++',
      blackRating: '++++',
      private: false,
      type: 'bughouse',
      typeCode: 'B',
      rated: false,
      initialMinutes: 2,
      incrementSec: 0,
      whiteClockMs: 120_000,
      blackClockMs: 120_000,
      whiteStrength: 39,
      blackStrength: 39,
      sideToMove: 'white',
      moveNumber: 1,
    });
    expect(list.rows[1]).toMatchObject({ game: 2, white: 'GuestZLDS', black: 'GuestHNKL' });
  });

  it('reads a real FatICS games reply (blank lines between rows, "of N in progress")', () => {
    const list = parseGamesList(replyText('games-fatics.raw'));
    expect(list.skipped).toEqual([]);
    expect(list.displayed).toBe(2);
    expect(list.rows.map((r) => [r.game, r.white, r.black, r.sideToMove, r.whiteStrength])).toEqual([
      [1, 'GuestQDLI', 'GuestTEEH', 'black', 24],
      [2, 'GuestVDVF', 'GuestCSYN', 'black', 24],
    ]);
  });

  it('reads private, rated, examined and set-up rows in the server layout, and flags cut names', () => {
    const text = [
      ' 44  913 Veeber      1013 LorenzoDVe [pbr 12   0]   5:13 -  3:01 (17-25) W: 31',
      '  8 1830 Myopicabcde 1890 BULLA      [ sr 15   0]  14:49 - 14:54 (38-38) W:  5',
      '123 2201 Alpha       2199 Beta       [ lr  1   0]  -0:05 -  0:15 (16-11) B: 39',
      '  2 (Exam.    0 LectureBot     0 LectureBot) [ uu  0   0] W:  1',
      ' 17 (Setup    0 Sam            0 Max       ) [ uu  0   0] B:  1',
      '',
      '  5 games displayed.',
    ].join('\n');
    const list = parseGamesList(text);
    expect(list.skipped).toEqual([]);
    expect(list.rows.map((r) => [r.game, r.kind, r.private, r.type, r.rated])).toEqual([
      [44, 'played', true, 'blitz', true],
      [8, 'played', false, 'standard', true],
      [123, 'played', false, 'lightning', true],
      [2, 'examined', false, 'untimed', false],
      [17, 'setup', false, 'untimed', false],
    ]);
    expect(list.rows[0]).toMatchObject({ blackMaybeCut: true, whiteMaybeCut: false, whiteClockMs: 313_000 });
    expect(list.rows[1]).toMatchObject({ whiteMaybeCut: true, whiteRating: '1830' });
    expect(list.rows[2]).toMatchObject({ whiteClockMs: -5_000, blackClockMs: 15_000 });
  });

  it('keeps what it cannot read as skipped lines', () => {
    const list = parseGamesList('  1 ++++ Foo ++++ Bar [ bu  5 ] garbage\n  0 games displayed.');
    expect(list.rows).toEqual([]);
    expect(list.skipped).toHaveLength(1);
  });

  it('reads back the rows the fake server writes', () => {
    const game = new ScriptedGame(7, {
      white: 'VeryLongHandleXY',
      black: 'Shortname',
      san: ['e4', 'e5'],
      type: 'blitz',
    });
    game.play();
    game.play();
    expect(parseGamesRow(game.gamesRow())).toMatchObject({
      game: 7,
      white: 'VeryLongHan',
      whiteMaybeCut: true,
      black: 'Shortname',
      type: 'blitz',
      sideToMove: 'white',
      moveNumber: 2,
      whiteClockMs: 180_000,
    });
  });
});

describe('filterGames', () => {
  const rows = parseGamesList(
    [
      '  1 1500 Alice       1600 Bob        [ br  5   0]   4:00 -  4:00 (39-39) W:  3',
      '  2 ++++ GuestAAAA   ++++ GuestBBBB  [ lu  1   0]   0:50 -  0:40 (39-39) B:  7',
      '  3 2000 LongHandleA 2100 Carol      [ zr  3   0]   2:00 -  2:00 (39-39) W:  9',
      '  4 (Exam.    0 Alice          0 Bob       ) [ uu  0   0] W:  1',
    ].join('\n'),
  ).rows;

  it('filters by rated, type and player; leaves out examined games unless asked', () => {
    expect(filterGames(rows, {}).map((r) => r.game)).toEqual([1, 2, 3]);
    expect(filterGames(rows, { playedOnly: false }).map((r) => r.game)).toEqual([1, 2, 3, 4]);
    expect(filterGames(rows, { rated: false }).map((r) => r.game)).toEqual([2]);
    expect(filterGames(rows, { types: ['blitz', 'crazyhouse'] }).map((r) => r.game)).toEqual([1, 3]);
    expect(filterGames(rows, { player: handle('bob') }).map((r) => r.game)).toEqual([1]);
    // A cut name matches the start of the full handle.
    expect(filterGames(rows, { player: handle('LongHandleAbc') }).map((r) => r.game)).toEqual([3]);
    expect(filterGames(rows, { player: handle('LongHandle') }).map((r) => r.game)).toEqual([]);
  });
});
