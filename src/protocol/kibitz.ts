// What observers hear said in a game: `Handle(titles)(rating)[game] kibitzes: text` and the same
// with `whispers:` (freechess.org; `help kibitz`, `help whisper`). A kibitz reaches players and
// observers, a whisper observers only; for a relay both are the game's talk.
import type { Kibitz, Undecoded } from './events.js';
import { GAME_NUMBER, matchedGameNumber } from './game-number.js';
import { handleProblem } from './handle.js';
import { undecoded } from './undecoded.js';

/** Longest text kept of one line; FICS lines are shorter, a longer one is cut, not dropped. */
export const KIBITZ_TEXT_MAX = 400;

// The name up to the first parenthesis or bracket: bounded so a garbled line cannot make the
// expression backtrack (handle length itself is checked after, to report it).
const KIBITZ = new RegExp(
  String.raw`^([^\s()\[\]]{1,40})((?:\([^()\s]{1,8}\)){0,6})\[${GAME_NUMBER}\] (kibitzes|whispers): (.*)$`,
);

/** Null when the line is not a kibitz or whisper at all; an Undecoded when it is, but malformed. */
export function parseKibitz(line: string): Kibitz | Undecoded | null {
  const m = KIBITZ.exec(line);
  if (m === null) return null;
  const handle = m[1]!;
  const problem = handleProblem(handle);
  if (problem !== null) return undecoded('kibitz', problem, line);
  // `(GM)(2500)`: the titles, then the rating (`----` unrated, `++++` guest), always last.
  const groups = [...m[2]!.matchAll(/\(([^()]*)\)/g)].map((g) => g[1]!);
  const rating = groups.pop() ?? '';
  const text = m[5]!.trimEnd();
  return {
    kind: 'kibitz',
    game: matchedGameNumber(m[3]!),
    handle,
    titles: groups,
    rating,
    whisper: m[4] === 'whispers',
    text: text.length > KIBITZ_TEXT_MAX ? `${text.slice(0, KIBITZ_TEXT_MAX - 1)}…` : text,
  };
}
