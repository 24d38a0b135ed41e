// The text board: FICS style 1 layout, orientation, facts beside the ranks, bughouse pairs.
import { describe, expect, it } from 'vitest';
import { renderText, type BoardScene } from '../../render/index.js';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

function text(scene: BoardScene): string {
  const out = renderText(scene);
  if (!out.ok) throw new Error(out.error);
  return out.value;
}

const scene: BoardScene = {
  fen: START,
  orientation: 'white',
  white: { name: 'GuestWHITE', rating: '1500', clockMs: 120_000 },
  black: { name: 'GuestBLACK', clockMs: 9_950 },
};

describe('text board', () => {
  it('draws the start position as FICS style 1 does, White at the bottom', () => {
    expect(text(scene)).toBe(
      [
        'GuestWHITE (1500) vs. GuestBLACK',
        '',
        '       ---------------------------------',
        '    8  | *R| *N| *B| *Q| *K| *B| *N| *R|     Move # : 1 (White)',
        '       |---+---+---+---+---+---+---+---|',
        '    7  | *P| *P| *P| *P| *P| *P| *P| *P|     Black Clock : 0:09.9',
        '       |---+---+---+---+---+---+---+---|',
        '    6  |   |   |   |   |   |   |   |   |     White Clock : 2:00',
        '       |---+---+---+---+---+---+---+---|',
        '    5  |   |   |   |   |   |   |   |   |',
        '       |---+---+---+---+---+---+---+---|',
        '    4  |   |   |   |   |   |   |   |   |',
        '       |---+---+---+---+---+---+---+---|',
        '    3  |   |   |   |   |   |   |   |   |',
        '       |---+---+---+---+---+---+---+---|',
        '    2  | P | P | P | P | P | P | P | P |',
        '       |---+---+---+---+---+---+---+---|',
        '    1  | R | N | B | Q | K | B | N | R |',
        '       ---------------------------------',
        '         a   b   c   d   e   f   g   h',
      ].join('\n'),
    );
  });

  it('turns the board for Black, ranks 1 to 8 and files h to a', () => {
    const lines = text({ ...scene, orientation: 'black' }).split('\n');
    expect(lines[3]).toMatch(/^ {4}1 {2}\| R \| N \| B \| K \| Q \| B \| N \| R \|/);
    expect(lines[17]).toMatch(/^ {4}8 {2}\| \*R\| \*N\| \*B\| \*K\| \*Q\| \*B\| \*N\| \*R\|$/);
    expect(lines[19]).toBe('         h   g   f   e   d   c   b   a');
  });

  it('lists last move, check, holdings and result', () => {
    const out = text({
      fen: 'r1b5/p3n1Qk/2p1N1p1/r7/2P3p1/4rNr1/4n~1BN/n~4K2[pppppppppbbq] b - - 3 53',
      rules: 'crazyhouse',
      orientation: 'white',
      lastMove: 'Q@g7',
      white: { name: 'GuestYCRJ' },
      black: { name: 'GuestIBJV' },
      result: { result: '1-0', reason: 'GuestIBJV checkmated' },
    });
    expect(out).toContain('Move # : 53 (Black)');
    expect(out).toContain('Last move : Q@g7');
    expect(out).toContain('Black is in check');
    expect(out).toContain('Black Holdings : QBBPPPPPPPPP');
    expect(out).toContain('White Holdings : -');
    expect(out).toContain('Result : 1-0 · GuestIBJV checkmated');
    expect(out).not.toContain('Clock');
  });

  it('reports a bad FEN as an error value', () => {
    expect(renderText({ ...scene, fen: 'rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1' }).ok).toBe(
      false,
    );
  });
});
