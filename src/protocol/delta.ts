// Delta boards (`<d1>`): sent instead of some `<12>` boards once `iset compressmove 1` is set
// (FICS `help iv_compressmove`).
import type { DeltaBoard, Undecoded } from './events.js';
import { isGameNumber } from './game-number.js';
import { Fields } from './tokens.js';
import { undecoded } from './undecoded.js';

/** Smith notation: from, to, captured piece, promotion piece, castling / en passant flag. */
const SMITH = /^([a-h][1-8])([a-h][1-8])([pnbrqk])?([NBRQK])?([cCE])?$/;
/** Numeric fields by index after `<d1>` (2 is the SAN, 3 the smith move). */
const NUMERIC: Record<number, string> = { 0: 'game', 1: 'ply', 4: 'time taken', 5: 'time left', 6: 'lag' };
const fields = new Fields(32);
const numbers: number[] = [];

export function decodeDelta(line: string): DeltaBoard | Undecoded {
  if (!line.startsWith('<d1> ')) return undecoded('delta', 'does not start with <d1>', line);
  const t = fields.scan(line, 5);
  if (t.count < 6) return undecoded('delta', `${t.count + 1} fields, at least 7 expected`, line);
  for (let i = 0; i < Math.min(t.count, 7); i++) {
    const name = NUMERIC[i];
    if (name === undefined) continue;
    numbers[i] = t.int(i);
    if (Number.isNaN(numbers[i])) return undecoded('delta', `${name} "${t.text(i)}" is not a number`, line);
  }
  if (!isGameNumber(numbers[0]!)) return undecoded('delta', `bad game number ${numbers[0]}`, line);
  const smith = t.text(3);
  const m = SMITH.exec(smith);
  if (m === null) return undecoded('delta', `bad smith move "${smith}"`, line);
  const flag = m[5];
  return {
    kind: 'delta',
    game: numbers[0]!,
    ply: numbers[1]!,
    san: t.text(2),
    from: m[1]!,
    to: m[2]!,
    captured: m[3] ?? null,
    promotion: m[4] ?? null,
    castle: flag === 'c' ? 'short' : flag === 'C' ? 'long' : null,
    enPassant: flag === 'E',
    moveTimeMs: numbers[4]!,
    clockMs: numbers[5]!,
    lagMs: t.count > 6 ? numbers[6]! : null,
    extra: t.rest(7),
  };
}
