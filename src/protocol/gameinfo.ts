// `<g1>` game-info lines (`iset gameinfo 1`): key=value pairs; servers add keys the help lacks.
import type { GameInfo, Undecoded } from './events.js';
import { GAME_NUMBER, isGameNumber, matchedGameNumber } from './game-number.js';
import { undecoded } from './undecoded.js';

const WHOLE_GAME_NUMBER = new RegExp(`^${GAME_NUMBER}$`);

export function decodeGameInfo(line: string): GameInfo | Undecoded {
  const t = line.split(' ').filter((token) => token !== '');
  if (t[0] !== '<g1>') return undecoded('gameinfo', 'does not start with <g1>', line);
  if (t[1] === undefined || !WHOLE_GAME_NUMBER.test(t[1]))
    return undecoded('gameinfo', 'no game number', line);
  const fields: Record<string, string> = {};
  for (const pair of t.slice(2)) {
    const eq = pair.indexOf('=');
    if (eq <= 0) return undecoded('gameinfo', `"${pair}" is not key=value`, line);
    fields[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  const partner = fields.pt === undefined ? null : Number(fields.pt);
  return {
    kind: 'gameinfo',
    game: matchedGameNumber(t[1]),
    fields,
    partnerGame: partner !== null && isGameNumber(partner) ? partner : null,
    rated: fields.r === undefined ? null : fields.r === '1',
    type: fields.t ?? null,
  };
}
