// One-line game life-cycle messages an observer receives: `You are now observing game N.`, the
// game header, `{Game N (White vs. Black) reason} result`, `Removing game N from observation list.`
import type { GameCreated, GameEnd, GameHeader, GameResult, Observing, StoppedObserving } from './events.js';
import { GAME_NUMBER, matchedGameNumber } from './game-number.js';
import { HANDLE } from './handle.js';

const RESULT = String.raw`(1-0|0-1|1\/2-1\/2|\*)`;
const HEADER = new RegExp(
  String.raw`^Game ${GAME_NUMBER}: ${HANDLE} \(([^)]*)\) ${HANDLE} \(([^)]*)\) (rated|unrated) (.+?) (\d+) (\d+)\s*$`,
);
const CREATED = new RegExp(
  String.raw`^\{Game ${GAME_NUMBER} \(${HANDLE} vs\. ${HANDLE}\) ((?:Creating|Continuing) (rated|unrated) (.+?) match\.)\}\s*$`,
);
const END = new RegExp(
  String.raw`^\{Game ${GAME_NUMBER} \(${HANDLE} vs\. ${HANDLE}\) ([^}]*)\}\s*${RESULT}\s*$`,
);
/** Examined games end without braces: `Game 127: Black checkmated 1-0`. */
const EXAMINE_END = new RegExp(String.raw`^Game ${GAME_NUMBER}: ([^{}]*?) ${RESULT}\s*$`);
const OBSERVING = new RegExp(String.raw`^You are now observing game ${GAME_NUMBER}\.\s*$`);
const REMOVING = new RegExp(
  String.raw`^(?:Removing game ${GAME_NUMBER} from observation list|You are no longer observing game ${GAME_NUMBER})\.\s*$`,
);

export function decodeGameHeader(line: string): GameHeader | null {
  const m = HEADER.exec(line);
  if (m === null) return null;
  return {
    kind: 'gameHeader',
    game: matchedGameNumber(m[1]!),
    white: m[2]!,
    whiteRating: m[3]!,
    black: m[4]!,
    blackRating: m[5]!,
    rated: m[6] === 'rated',
    type: m[7]!,
    initialMinutes: Number(m[8]),
    incrementSec: Number(m[9]),
  };
}

export function decodeGameCreated(line: string): GameCreated | null {
  const m = CREATED.exec(line);
  if (m === null) return null;
  return {
    kind: 'gameCreated',
    game: matchedGameNumber(m[1]!),
    white: m[2]!,
    black: m[3]!,
    rated: m[5] === 'rated',
    type: m[6]!,
    text: m[4]!,
  };
}

/**
 * Reasons a server leaves half-written: the FICS 1.6.2 lineage overwrites "X lost connection; game "
 * with the rest and sends only "adjourned" or "aborted".
 */
const TERSE_REASONS: Readonly<Record<string, string>> = {
  adjourned: 'Game adjourned when a player lost connection',
  aborted: 'Game aborted when a player lost connection',
};

function spelledOut(reason: string): string {
  return TERSE_REASONS[reason.toLowerCase()] ?? reason;
}

export function decodeGameEnd(line: string): GameEnd | null {
  const m = END.exec(line);
  if (m !== null) {
    return {
      kind: 'gameEnd',
      game: matchedGameNumber(m[1]!),
      white: m[2]!,
      black: m[3]!,
      reason: spelledOut(m[4]!.trim()),
      result: m[5] as GameResult,
    };
  }
  const e = EXAMINE_END.exec(line);
  if (e === null) return null;
  return {
    kind: 'gameEnd',
    game: matchedGameNumber(e[1]!),
    white: null,
    black: null,
    reason: e[2]!,
    result: e[3] as GameResult,
  };
}

export function decodeObserving(line: string): Observing | null {
  const m = OBSERVING.exec(line);
  return m === null ? null : { kind: 'observing', game: matchedGameNumber(m[1]!) };
}

export function decodeStoppedObserving(line: string): StoppedObserving | null {
  const m = REMOVING.exec(line);
  return m === null
    ? null
    : { kind: 'stoppedObserving', game: matchedGameNumber((m[1] ?? m[2])!), text: line };
}
