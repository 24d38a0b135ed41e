// FICS TV's choice of game and its next step, on `games` rows as the server sends them: the real
// replies of lasker and FatICS (the shared captures, copied in test/fixtures/fics-games) and rows
// in the same layout (lasker's format string, `help games`) for rated games.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseGamesList, type GamesListRow } from '../../src/fics/games-list.js';
import {
  nowShowing,
  pickTvGame,
  ratingOf,
  timeClassOf,
  tvDue,
  tvScore,
  tvStep,
  type TvFilter,
} from '../../src/game/tv-score.js';

const CHESS: TvFilter = { variant: 'chess', minRating: 0 };
const ANY: TvFilter = { variant: 'any', minRating: 0 };
const NONE = new Set<number>();

function rows(...lines: string[]): GamesListRow[] {
  const list = parseGamesList(`${lines.join('\n')}\n  ${lines.length} games displayed.`);
  expect(list.skipped).toEqual([]);
  return list.rows;
}

/** A real reply (telnet line ends and all) as rows. */
function realReply(file: string): GamesListRow[] {
  const text = readFileSync(new URL(`../fixtures/fics-games/${file}`, import.meta.url), 'latin1');
  return parseGamesList(text.replace(/\r/g, '')).rows;
}

describe('tvScore and pickTvGame', () => {
  it('real replies (two guest bughouse games): no chess TV game; any variant takes the lower number', () => {
    for (const file of ['games-lasker.raw', 'games-fatics.raw']) {
      const games = realReply(file);
      expect(games.map((g) => g.game)).toEqual([1, 2]);
      expect(pickTvGame(games, CHESS, NONE)).toBeNull();
      expect(pickTvGame(games, ANY, NONE)?.game).toBe(1);
      expect(pickTvGame(games, { variant: 'bughouse', minRating: 0 }, new Set([1]))?.game).toBe(2);
      // Guests have no rating: any minimum keeps them out.
      expect(pickTvGame(games, { variant: 'any', minRating: 1 }, NONE)).toBeNull();
    }
  });

  it('the weaker player counts more: an even 1900 game beats 2400 against 1200', () => {
    const games = rows(
      ' 11 2400 Strong      1200 Weak       [ br  3   0]   2:50 -  2:55 (39-39) W:  5',
      ' 12 1900 EvenA       1900 EvenB      [ br  3   0]   2:50 -  2:55 (39-39) W:  5',
    );
    expect(pickTvGame(games, CHESS, NONE)?.game).toBe(12);
    // (2 × 1200 + 2400) / 3 = 1600 against 1900.
    expect(tvScore(games[1]!, CHESS)! - tvScore(games[0]!, CHESS)!).toBeCloseTo(300);
  });

  it('blitz and standard above lightning, untimed last; rated above unrated', () => {
    const [blitz, standard, lightning, untimed, unrated] = rows(
      '  1 2000 Alpha       2000 Beta       [ br  5   0]   4:00 -  4:00 (39-39) W:  3',
      '  2 2000 Gamma       2000 Delta      [ sr 15   5]  14:00 - 14:00 (39-39) W:  3',
      '  3 2000 Eps         2000 Zeta       [ lr  1   0]   0:50 -  0:50 (39-39) W:  3',
      '  4 2000 Eta         2000 Theta      [ uu  0   0]   0:00 -  0:00 (39-39) W:  3',
      '  5 2000 Iota        2000 Kappa      [ bu  5   0]   4:00 -  4:00 (39-39) W:  3',
    ).map((row) => tvScore(row, CHESS)!);
    expect(blitz).toBe(standard);
    expect(blitz).toBeGreaterThan(unrated!);
    expect(unrated).toBeGreaterThan(lightning!);
    expect(lightning).toBeGreaterThan(untimed!);
  });

  it('never a private, examined or set-up game, nor one already posted', () => {
    const games = rows(
      '  7 2600 Private     2600 Secret     [pbr  3   0]   2:50 -  2:55 (39-39) W:  5',
      '  2 (Exam. 2700 LectureBot  2700 Student   ) [ br  3   0] W:  1',
      ' 17 (Setup    0 Sam            0 Max       ) [ uu  0   0] B:  1',
      '  9 1500 Club        1500 Member     [ br  3   0]   2:50 -  2:55 (39-39) W:  5',
      ' 30 1400 Last        1400 Choice     [ br  3   0]   2:50 -  2:55 (39-39) W:  5',
    );
    expect(games.map((g) => tvScore(g, CHESS) === null)).toEqual([true, true, true, false, false]);
    expect(pickTvGame(games, CHESS, NONE)?.game).toBe(9);
    expect(pickTvGame(games, CHESS, new Set([9]))?.game).toBe(30);
    expect(pickTvGame(games, CHESS, new Set([9, 30]))).toBeNull();
  });

  it('filters by variant and by both players’ rating', () => {
    const games = rows(
      '  1 2200 ZhA         2150 ZhB        [ zr  3   0]   2:50 -  2:55 (39-39) W:  5',
      '  2 1800 ChessA      1750 ChessB     [ br  3   0]   2:50 -  2:55 (39-39) W:  5',
      '  3 2500 Master      1600 Club       [ sr 20   0]  19:50 - 19:55 (39-39) W:  5',
    );
    expect(pickTvGame(games, CHESS, NONE)?.game).toBe(3);
    expect(pickTvGame(games, { variant: 'chess', minRating: 1700 }, NONE)?.game).toBe(2);
    expect(pickTvGame(games, { variant: 'crazyhouse', minRating: 0 }, NONE)?.game).toBe(1);
    expect(pickTvGame(games, ANY, NONE)?.game).toBe(1);
    expect(pickTvGame(games, { variant: 'atomic', minRating: 0 }, NONE)).toBeNull();
  });

  it('reads ratings and time classes as FICS does', () => {
    expect([ratingOf('2201'), ratingOf('1834P'), ratingOf('++++'), ratingOf('----')]).toEqual([
      2201, 1834, 0, 0,
    ]);
    expect(timeClassOf(1, 0)).toBe('lightning');
    expect(timeClassOf(2, 1)).toBe('lightning'); // 2 + 2/3 minutes
    expect(timeClassOf(3, 0)).toBe('blitz');
    expect(timeClassOf(2, 12)).toBe('blitz'); // 2 + 8
    expect(timeClassOf(14, 0)).toBe('blitz');
    expect(timeClassOf(15, 0)).toBe('standard');
    expect(timeClassOf(10, 8)).toBe('standard'); // 10 + 5.3
    expect(timeClassOf(0, 0)).toBe('untimed');
  });

  it('says what it shows in one line', () => {
    const [blitz, zh, untimed] = rows(
      ' 44 2100 Alice       2050 Bob        [ br  3   0]   2:50 -  2:55 (39-39) W:  5',
      ' 45 1900 Carol       ++++ GuestABCD  [ zu  2  12]   2:50 -  2:55 (39-39) W:  5',
      ' 46 1500 Dan         1500 Eve        [ uu  0   0]   0:00 -  0:00 (39-39) W:  5',
    );
    expect(nowShowing(blitz!)).toBe('Now showing: Alice (2100) vs Bob (2050), blitz 3+0');
    expect(nowShowing(zh!)).toBe(
      'Now showing: Carol (1900) vs GuestABCD (++++), unrated crazyhouse blitz 2+12',
    );
    expect(nowShowing(untimed!)).toBe('Now showing: Dan (1500) vs Eve (1500), unrated untimed');
  });
});

describe('the switch decision', () => {
  const RETRY = 60_000;
  const games = rows(
    '  1 2000 Alpha       2000 Beta       [ br  5   0]   4:00 -  4:00 (39-39) W:  3',
    '  2 1800 Gamma       1800 Delta      [ br  5   0]   4:00 -  4:00 (39-39) W:  3',
  );
  const look = (now: number, excluded: Set<number>, saidNothing = false) =>
    tvStep({ saidNothing, now, retryMs: RETRY, candidates: games, filter: CHESS, excluded });

  it('keeps a live post; looks at once when it has none and never found nothing', () => {
    expect(tvDue(true, null, 0)).toBe(false);
    expect(tvDue(false, null, 0)).toBe(true);
  });

  it('after the shown game ends, switches to the next best (the ended one excluded)', () => {
    expect(look(0, new Set())).toEqual({ kind: 'show', game: games[0] });
    expect(look(5_000, new Set([1]))).toEqual({ kind: 'show', game: games[1] });
  });

  it('nothing qualifies: says so once, looks again only after the retry time', () => {
    let now = 1_000_000;
    const first = look(now, new Set([1, 2]));
    expect(first).toEqual({ kind: 'none', say: true, retryAt: now + RETRY });
    const retryAt = now + RETRY;
    now += RETRY - 1;
    expect(tvDue(false, retryAt, now)).toBe(false);
    now += 1;
    expect(tvDue(false, retryAt, now)).toBe(true);
    // Said already: the second empty look is silent, and waits again.
    expect(look(now, new Set([1, 2]), true)).toEqual({ kind: 'none', say: false, retryAt: now + RETRY });
  });
});
