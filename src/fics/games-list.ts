// The reply to `games`: one row per game in the server's fixed layout (lasker's
// "%2d %4s %-11.11s %4s %-10.10s [%c%c%c%3d %3d] %s - %s (%2d-%2d) %c: %2d"), then
// "N games displayed." Handles are cut to 11 (White) and 10 (Black) characters.
import type { FicsGameType } from '../game/variants.js';
import { GAME_NUMBER, matchedGameNumber, type GameNumber } from '../protocol/game-number.js';
import type { Handle } from '../protocol/handle.js';

/** The types a games list row shows: FICS's game types, and two of its own. */
export type GamesListType = FicsGameType | 'nonstandard' | 'examined';

/** The type letter inside the brackets (FICS `help games`). */
const TYPE_CODES: Readonly<Record<string, GamesListType>> = {
  b: 'blitz',
  l: 'lightning',
  s: 'standard',
  u: 'untimed',
  w: 'wild',
  x: 'atomic',
  z: 'crazyhouse',
  B: 'bughouse',
  L: 'losers',
  S: 'suicide',
  n: 'nonstandard',
  e: 'examined',
};

/** Every type a games list can show, for filters (`/games type:`). */
export const GAMES_LIST_TYPES: readonly GamesListType[] = Object.values(TYPE_CODES);

export interface GamesListRow {
  game: GameNumber;
  /** `examined` and `setup` rows carry no clocks. */
  kind: 'played' | 'examined' | 'setup';
  white: string;
  black: string;
  /** The server cuts White's handle to 11 and Black's to 10 characters: a name this long may be cut. */
  whiteMaybeCut: boolean;
  blackMaybeCut: boolean;
  /** As shown: digits, `++++` (unregistered) or `----` (no rating). */
  whiteRating: string;
  blackRating: string;
  private: boolean;
  type: GamesListType | null;
  /** The type letter as sent, for types this code does not know. */
  typeCode: string;
  rated: boolean;
  initialMinutes: number;
  incrementSec: number;
  whiteClockMs: number | null;
  blackClockMs: number | null;
  whiteStrength: number | null;
  blackStrength: number | null;
  sideToMove: 'white' | 'black';
  moveNumber: number;
}

export interface GamesList {
  rows: GamesListRow[];
  /** From "N games displayed" (null when the footer was missing). */
  displayed: number | null;
  /** Lines that looked like neither a row nor the footer, for the log. */
  skipped: string[];
}

const RATING = String.raw`(\+{4}|-{4}|\d{1,4}[A-Z]?)`;
const SPEC = String.raw`\[([ p])(\S)([ru])\s*(\d+)\s+(\d+)\]`;
const CLOCK = String.raw`(-?(?:\d+:)?\d+:\d\d)`;
const PLAYED = new RegExp(
  String.raw`^\s*${GAME_NUMBER}\s+${RATING}\s+([A-Za-z]+)\s+${RATING}\s+([A-Za-z]+)\s+${SPEC}\s+${CLOCK}\s*-\s*${CLOCK}\s+\(\s*(-?\d+)\s*-\s*(-?\d+)\)\s+([WB]):\s*(\d+)\s*$`,
);
const EXAMINED = new RegExp(
  String.raw`^\s*${GAME_NUMBER}\s+\((Exam\.|Setup)\s+${RATING}\s+([A-Za-z]+)\s+${RATING}\s+([A-Za-z]+)\s*\)\s+${SPEC}\s+([WB]):\s*(\d+)\s*$`,
);
const FOOTER = /^\s*(\d+) games? displayed\b/;
/** The whole reply when nothing is being played (lasker and FatICS alike). */
const NO_GAMES = /^\s*There are no games in progress\.?\s*$/;
const WHITE_WIDTH = 11;
const BLACK_WIDTH = 10;

/** True for the line that ends a `games` reply (the only line when no game is played). */
export function isGamesFooter(line: string): boolean {
  return FOOTER.test(line) || NO_GAMES.test(line);
}

/** True for a line that is a row of a `games` reply. */
export function isGamesRow(line: string): boolean {
  return PLAYED.test(line) || EXAMINED.test(line);
}

export function parseGamesList(text: string): GamesList {
  const rows: GamesListRow[] = [];
  const skipped: string[] = [];
  let displayed: number | null = null;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const row = parseGamesRow(line);
    if (row !== null) {
      rows.push(row);
      continue;
    }
    const footer = FOOTER.exec(line);
    if (footer !== null) displayed = Number(footer[1]);
    else if (NO_GAMES.test(line)) displayed = 0;
    else skipped.push(line);
  }
  return { rows, displayed, skipped };
}

export function parseGamesRow(line: string): GamesListRow | null {
  const p = PLAYED.exec(line);
  if (p !== null) {
    return {
      game: matchedGameNumber(p[1]!),
      kind: 'played',
      ...players(p[2]!, p[3]!, p[4]!, p[5]!),
      ...spec(p[6]!, p[7]!, p[8]!, p[9]!, p[10]!),
      whiteClockMs: clockMs(p[11]!),
      blackClockMs: clockMs(p[12]!),
      whiteStrength: Number(p[13]),
      blackStrength: Number(p[14]),
      sideToMove: p[15] === 'W' ? 'white' : 'black',
      moveNumber: Number(p[16]),
    };
  }
  const e = EXAMINED.exec(line);
  if (e !== null) {
    return {
      game: matchedGameNumber(e[1]!),
      kind: e[2] === 'Setup' ? 'setup' : 'examined',
      ...players(e[3]!, e[4]!, e[5]!, e[6]!),
      ...spec(e[7]!, e[8]!, e[9]!, e[10]!, e[11]!),
      whiteClockMs: null,
      blackClockMs: null,
      whiteStrength: null,
      blackStrength: null,
      sideToMove: e[12] === 'W' ? 'white' : 'black',
      moveNumber: Number(e[13]),
    };
  }
  return null;
}

function players(
  whiteRating: string,
  white: string,
  blackRating: string,
  black: string,
): Pick<GamesListRow, 'white' | 'black' | 'whiteRating' | 'blackRating' | 'whiteMaybeCut' | 'blackMaybeCut'> {
  return {
    white,
    black,
    whiteRating,
    blackRating,
    whiteMaybeCut: white.length >= WHITE_WIDTH,
    blackMaybeCut: black.length >= BLACK_WIDTH,
  };
}

function spec(
  privacy: string,
  code: string,
  rated: string,
  minutes: string,
  increment: string,
): Pick<GamesListRow, 'private' | 'type' | 'typeCode' | 'rated' | 'initialMinutes' | 'incrementSec'> {
  return {
    private: privacy === 'p',
    type: TYPE_CODES[code] ?? null,
    typeCode: code,
    rated: rated === 'r',
    initialMinutes: Number(minutes),
    incrementSec: Number(increment),
  };
}

/** `1:09`, `13:33`, `1:02:03`, `-0:05` to milliseconds. */
function clockMs(text: string): number {
  const negative = text.startsWith('-');
  const parts = text.replace('-', '').split(':').map(Number);
  const seconds = parts.reduce((total, part) => total * 60 + part, 0);
  return (negative ? -seconds : seconds) * 1000;
}

export interface GamesFilter {
  rated?: boolean;
  types?: readonly GamesListType[];
  /** Games with this player (case-insensitive; a cut name matches the start of the handle). */
  player?: Handle;
  /** Leave out examined and set-up positions (default true). */
  playedOnly?: boolean;
}

export function filterGames(rows: readonly GamesListRow[], filter: GamesFilter): GamesListRow[] {
  const player = filter.player?.toLowerCase();
  const named = (name: string, cut: boolean): boolean =>
    player !== undefined && (name.toLowerCase() === player || (cut && player.startsWith(name.toLowerCase())));
  return rows.filter(
    (row) =>
      (filter.playedOnly === false || row.kind === 'played') &&
      (filter.rated === undefined || row.rated === filter.rated) &&
      (filter.types === undefined || (row.type !== null && filter.types.includes(row.type))) &&
      (player === undefined || named(row.white, row.whiteMaybeCut) || named(row.black, row.blackMaybeCut)),
  );
}

/**
 * The other board of a bughouse game, from the `games` list where the server has no `pobserve`
 * (lasker, FatICS): the one other bughouse game with the same time control and rating. Null when
 * the list does not show the board, or shows no such game or several (the moves pair them then).
 */
export function bughousePartner(rows: readonly GamesListRow[], game: GameNumber): GameNumber | null {
  const board = rows.find((row) => row.game === game);
  if (board === undefined || board.type !== 'bughouse') return null;
  const others = rows.filter(
    (row) =>
      row.game !== game &&
      row.type === 'bughouse' &&
      row.kind === 'played' &&
      row.rated === board.rated &&
      row.initialMinutes === board.initialMinutes &&
      row.incrementSec === board.incrementSec,
  );
  return others.length === 1 ? others[0]!.game : null;
}
