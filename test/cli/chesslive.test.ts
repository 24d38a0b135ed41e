// The chesslive CLI: real files in, text out, one-line errors. In-process through `main`, and once as a
// separate process.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseChessLive } from '../../src/chesslive/index.js';
import { main } from '../../src/cli/chesslive.js';
import { parsePgn } from '../../src/game/pgn.js';
import { truthGames } from '../chesslive/fics-games.js';
import { ROOT, runMain, runProcess, type CliRun } from '../support/cli.js';

const fixture = (name: string): string => `test/fixtures/chesslive/${name}`;

const cli = (...args: string[]): CliRun => runMain(main, args);

describe('chesslive CLI', () => {
  it('--from-pgn prints the move file with clocks, SAN tags and the result', () => {
    const run = cli('--from-pgn', fixture('m06.pgn'));
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(
      'GuestVHOR;GuestCBHD;e2:e4/0/0/180/;c7:c5/0/0/180/;c2:c4/0/0/178/;b8:c6/0/0/177/N;g1:e2/0/0/175/N;' +
        'g8:f6/0/0/174/N;b1:c3/0/0/170/Nb;c6:b4/0/0/169/N;g2:g3/0/0/161/;b4:d3/0/0/160/N;-;GuestVHOR checkmated\n',
    );
    const read = parseChessLive(run.stdout);
    const m06 = truthGames.find((g) => g.id === 'fatics_master_seq/M06')!;
    expect(read.ok && read.value.game.san).toEqual(m06.san);
  });

  it('--to-pgn prints PGN that reads back to the same crazyhouse game', () => {
    const run = cli('--to-pgn', fixture('z03.clv'), '--variant', 'crazyhouse');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('[Variant "Crazyhouse"]');
    const games = parsePgn(run.stdout);
    const z03 = truthGames.find((g) => g.id === 'lasker_crazyhouse/Z03')!;
    expect(games.ok && games.value[0]!.uci).toEqual(z03.uci);
    const file = parseChessLive(readFileSync(`${ROOT}${fixture('z03.clv')}`, 'utf8'), {
      variant: 'crazyhouse',
    });
    expect(games.ok && file.ok && games.value[0]).toEqual(file.ok && file.value.game);
  });

  it.each([
    [
      [fixture('bad.clv')],
      'to-pgn',
      1,
      /^chesslive: test\/fixtures\/chesslive\/bad\.clv: line 1, column 14: move 2 \(field 4\): square "e9" is not on the board\n$/,
    ],
    [
      [fixture('z03.clv')],
      'to-pgn',
      1,
      /^chesslive: .*z03\.clv: line 1, column \d+: move 16 \(field 18\): no legal move for Black gives the board after "p:e3"/,
    ],
    [
      [fixture('missing.pgn')],
      'from-pgn',
      1,
      /^chesslive: test\/fixtures\/chesslive\/missing\.pgn: cannot read \(ENOENT\)\n$/,
    ],
    [
      [fixture('z03.clv')],
      'from-pgn',
      1,
      /^chesslive: .*z03\.clv: line 1: "GuestIBJV" is not a move, comment or result\n$/,
    ],
  ])('fails in one line for %j --%s', (args, mode, status, message) => {
    const run = cli(`--${mode}`, ...args);
    expect(run.status).toBe(status);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(message);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('refuses a bad command line with status 2: what was wrong, then the usage', () => {
    for (const args of [
      [],
      ['--to-pgn', 'x', '--from-pgn', 'y'],
      ['--bogus'],
      ['--to-pgn', 'x', '--variant', 'atomic'],
    ]) {
      const run = cli(...args);
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(/^chesslive: .+\nusage: npm run chesslive -- /);
    }
  });

  it('runs as a program: prints a move file and exits 0, or says what was wrong and exits 2', () => {
    const run = runProcess('chesslive', ['--from-pgn', fixture('m06.pgn')]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^GuestVHOR;GuestCBHD;e2:e4\/0\/0\/180\/;.*;-;GuestVHOR checkmated\n$/);
    const bad = runProcess('chesslive', ['--bogus']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^chesslive: .+\nusage: npm run chesslive -- /);
  });
});
