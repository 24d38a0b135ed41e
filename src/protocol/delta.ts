// Delta boards (`iset compressmove 1`), seeds/001 "iv_compressmove".
import type { DeltaBoard, Undecoded } from './events.js';
import { parseInteger } from './numbers.js';
import { undecoded } from './undecoded.js';

/** Smith notation: from, to, captured piece, promotion piece, castling / en passant flag. */
const SMITH = /^([a-h][1-8])([a-h][1-8])([pnbrqk])?([NBRQK])?([cCE])?$/;
/** Numeric fields by token index (3 is the SAN, 4 the smith move). */
const NUMERIC: Record<number, string> = { 1: 'game', 2: 'ply', 5: 'time taken', 6: 'time left', 7: 'lag' };

export function decodeDelta(line: string): DeltaBoard | Undecoded {
  let t = line.split(' ');
  if (t.includes('')) t = t.filter((token) => token !== '');
  if (t[0] !== '<d1>') return undecoded('delta', 'does not start with <d1>', line);
  if (t.length < 7) return undecoded('delta', `${t.length} fields, at least 7 expected`, line);
  const n: number[] = [];
  for (let i = 1; i < Math.min(t.length, 8); i++) {
    const name = NUMERIC[i];
    if (name === undefined) continue;
    n[i] = parseInteger(t[i]);
    if (Number.isNaN(n[i])) return undecoded('delta', `${name} "${t[i]}" is not a number`, line);
  }
  const m = SMITH.exec(t[4]!);
  if (m === null) return undecoded('delta', `bad smith move "${t[4]}"`, line);
  const flag = m[5];
  return {
    kind: 'delta',
    game: n[1]!,
    ply: n[2]!,
    san: t[3]!,
    from: m[1]!,
    to: m[2]!,
    captured: m[3] ?? null,
    promotion: m[4] ?? null,
    castle: flag === 'c' ? 'short' : flag === 'C' ? 'long' : null,
    enPassant: flag === 'E',
    moveTimeMs: n[5]!,
    clockMs: n[6]!,
    lagMs: t.length > 7 ? n[7]! : null,
    extra: t.slice(8),
  };
}
