// `npm run render`: files written, and one-line errors with a non-zero status. In-process through
// `main`, and once as a separate process.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GifReader } from 'omggif';
import { afterAll, describe, expect, it } from 'vitest';
import { computeLayout } from '../../render/layout.js';
import { main } from '../../src/cli/render.js';
import { content, decodePng, expectBoard, squareRect } from '../render/pixels.js';
import { runMain, runProcess, type CliRun } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'kibitz-render-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = (...args: string[]): CliRun => runMain(main, args);

describe('render CLI', () => {
  it('draws a FEN with the given move, names, clocks, orientation and size', async () => {
    const out = join(dir, 'fen.png');
    const fen = 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1';
    const run = cli(
      '--fen',
      fen,
      '--out',
      out,
      '--last',
      'e2e4',
      '--white',
      'Alice',
      '--black',
      'Bob',
      '--white-clock',
      '60000',
      '--flip',
      '--size',
      '320',
      '--theme',
      'blue',
    );
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const img = await decodePng(readFileSync(out));
    const layout = computeLayout(320, { footer: false, holdings: false });
    expect([img.width, img.height]).toEqual([layout.width, layout.height]);
    expectBoard(img, layout.panel.board, fen, 'black');
  });

  // In-process, and as a separate process (the one real run of the tool).
  for (const [how, runner] of [
    ['', cli],
    ['runs as a program: ', (...args: string[]) => runProcess('render', args)],
  ] as const) {
    it(`${how}draws a Style 12 line, oriented by its flip field`, async () => {
      const out = join(dir, `s12${how === '' ? '' : '-process'}.png`);
      const line =
        '<12> rnbqkb-r pppppppp -----n-- -------- ----P--- -------- PPPPKPPP RNBQ-BNR B -1 0 0 1 1 0 7 Newton Einstein 1 2 12 39 39 119 122 2 K/e1-e2 (0:06) Ke2 0';
      const run = runner('--style12', line, '--out', out, '--text');
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(run.stdout).toContain('Newton vs. Einstein');
      expect(run.stdout).toContain('Last move : e1e2');
      expect(run.stdout).toContain('White Clock : 1:59');
      const img = await decodePng(readFileSync(out));
      const board = computeLayout(480, { footer: false, holdings: false }).panel.board;
      expect(content(img, squareRect(board, 'e2', 'white'))).toBe('white');
      expect(content(img, squareRect(board, 'f6', 'white'))).toBe('black');
    });
  }

  it('animates a PGN game', () => {
    const out = join(dir, 'game.gif');
    const run = cli('--pgn', 'test/fixtures/render/crazyhouse-random-105.pgn', '--gif', out);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(new GifReader(readFileSync(out)).numFrames()).toBe(106);
  });

  it.each([
    [
      ['--fen', 'rnbqkbnr/pppppppp/9/8 w - - 0 1', '--out', 'x.png'],
      1,
      /^render: invalid FEN "rnbqkbnr\/pppppppp\/9\/8 w - - 0 1": the pieces are wrong: [^\n]*\n$/,
    ],
    [
      ['--fen', '8/8/8/8/8/8/8/8 w - - 0 1', '--out', 'x.png', '--last', 'e9e4'],
      2,
      /^render: invalid last move "e9e4"/,
    ],
    [
      [
        '--fen',
        'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
        '--out',
        'x.png',
        '--last',
        'c8g4',
      ],
      2,
      /^render: last move c8g4 cannot have led to this position: no black piece on g4\n$/,
    ],
    [
      ['--fen', '8/8/8/8/8/8/8/8 w - - 0 1', '--out', 'x.png', '--theme', 'pink'],
      2,
      /^render: unknown theme "pink" \(themes: brown, blue, green, grey, purple\)\n$/,
    ],
    [
      ['--fen', '8/8/8/8/8/8/8/8 w - - 0 1', '--out', 'x.png', '--size', '100'],
      2,
      /^render: --size must be a whole number from 240 to 1024, got "100"\n$/,
    ],
    [['--fen', '8/8/8/8/8/8/8/8 w - - 0 1'], 2, /^render: nothing to write/],
    [['--out', 'x.png'], 2, /^render: give exactly one of --fen, --style12 or --pgn\n$/],
    [['--pgn', 'no-such-file.pgn', '--gif', 'x.gif'], 1, /^render: cannot read no-such-file\.pgn: ENOENT\n$/],
    [['--style12', '<12> not a board', '--out', 'x.png'], 1, /^render: not a Style 12 line/],
  ])('%j fails with status %i and one line', (args, status, message) => {
    const run = cli(...args.map((a) => (a.endsWith('.png') || a.endsWith('.gif') ? join(dir, a) : a)));
    expect(run.status).toBe(status);
    expect(run.stderr).toMatch(message);
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stdout).toBe('');
  });

  it('an unknown option: what was wrong, then the usage', () => {
    const run = cli('--colour', 'red');
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^render: Unknown option '--colour'.*\nusage: npm run render -- /);
    expect(run.stdout).toBe('');
  });
});
