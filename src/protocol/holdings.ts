// `<b1>` holdings lines of crazyhouse and bughouse games (FICS `help style12`; lasker capitalises colours).
import type { HoldingsLine, Undecoded } from './events.js';
import { GAME_NUMBER, matchedGameNumber } from './game-number.js';
import { undecoded } from './undecoded.js';

const HOLDINGS = new RegExp(
  String.raw`^<b1> game ${GAME_NUMBER} white \[([PNBRQK]*)\] black \[([PNBRQK]*)\](?: <- ([WB])([PNBRQK]))?\s*$`,
  'i',
);

export function decodeHoldings(line: string): HoldingsLine | Undecoded {
  const m = HOLDINGS.exec(line);
  if (m === null) return undecoded('holdings', 'not of the form <b1> game N white [..] black [..]', line);
  return {
    kind: 'holdings',
    game: matchedGameNumber(m[1]!),
    holdings: { white: m[2]!.toUpperCase(), black: m[3]!.toUpperCase() },
    passed:
      m[4] === undefined
        ? null
        : { to: m[4].toUpperCase() === 'W' ? 'white' : 'black', piece: m[5]!.toUpperCase() },
  };
}
