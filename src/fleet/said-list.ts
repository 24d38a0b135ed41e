// A game's kibitzes and whispers across the fleet: one list per game, carried from holder to
// holder. A new holder's FICS connection hears only what is said from its takeover on, so it
// starts its list with the lines of the game's last stored state and names that list: its states
// (and its post's PGN) keep every line, and a reader tells a continued list from a new one.
import { gameKeyOf } from '../game/game-key.js';
import { firstPlyOf, MAX_SAID_PER_GAME, type GameSnapshot, type Said } from '../game/snapshot.js';
import { HANDLE_MAX_LENGTH } from '../protocol/handle.js';
import { KIBITZ_TEXT_MAX } from '../protocol/kibitz.js';
import type { StoredSnapshot } from './store.js';

/** The lines a holder carries over from the game's last stored state. */
export interface CarriedSaid {
  /** The game they were said in (number and players): another game under the number gets none. */
  gameKey: string;
  /** The list they belong to, named by the stored key of the holder that started it. */
  list: string;
  /** Each at the absolute ply it was said (a snapshot's plies count from its history's start). */
  said: Said[];
  saidDropped: number;
}

/** The list a stored state's lines belong to: its own, unless its holder continued another's. */
export function saidListOf(snapshot: StoredSnapshot): string {
  return snapshot.saidList ?? snapshot.key;
}

/** What a new holder carries from the game's last stored state; null from an ended game. */
export function carriedFrom(last: StoredSnapshot): CarriedSaid | null {
  if (last.ended) return null;
  const first = firstPlyOf(last);
  return {
    gameKey: gameKeyOf(last),
    list: saidListOf(last),
    said: (last.said ?? []).slice(0, MAX_SAID_PER_GAME).map((s) => ({ ...s, ply: s.ply + first })),
    saidDropped: last.saidDropped ?? 0,
  };
}

/**
 * A held game's snapshot with the carried lines first, within the game's bound (as in its state:
 * past MAX_SAID_PER_GAME, lines are only counted), under the carried list's name. Unchanged when
 * it is another game under the number.
 */
export function continueSaid<S extends GameSnapshot>(
  carried: CarriedSaid,
  snapshot: S,
): S & { saidList?: string } {
  if (gameKeyOf(snapshot) !== carried.gameKey) return snapshot;
  const first = firstPlyOf(snapshot);
  const heard = snapshot.said ?? [];
  const room = Math.max(0, MAX_SAID_PER_GAME - carried.said.length);
  const said = [
    ...carried.said.map((s) => ({ ...s, ply: Math.max(0, s.ply - first) })),
    ...heard.slice(0, room),
  ];
  const dropped = carried.saidDropped + (snapshot.saidDropped ?? 0) + Math.max(0, heard.length - room);
  const { said: _said, saidDropped: _dropped, ...rest } = snapshot;
  return {
    ...(rest as S),
    ...(said.length === 0 ? {} : { said }),
    ...(dropped === 0 ? {} : { saidDropped: dropped }),
    saidList: carried.list,
  };
}

/**
 * The lines a game's state kept that an earlier read of it had not: none at the first read (said
 * before this process followed the game; they are in its PGN), all of a new list (another game
 * under the number, or a holder that could not carry the last one's lines), the rest of the same
 * list (a takeover's new holder continues it). Each within the bounds FICS lines are decoded with,
 * at most MAX_SAID_PER_GAME per game; anything else is skipped.
 */
export function saidSince(previous: StoredSnapshot | undefined, next: StoredSnapshot): Said[] {
  if (previous === undefined) return [];
  const from = saidListOf(previous) === saidListOf(next) ? (previous.said?.length ?? 0) : 0;
  return (next.said ?? []).slice(from, MAX_SAID_PER_GAME).filter(withinBounds);
}

function withinBounds(said: Said): boolean {
  return (
    typeof said.handle === 'string' &&
    said.handle.length > 0 &&
    said.handle.length <= HANDLE_MAX_LENGTH &&
    typeof said.text === 'string' &&
    said.text.length <= KIBITZ_TEXT_MAX &&
    typeof said.whisper === 'boolean' &&
    Number.isSafeInteger(said.ply) &&
    said.ply >= 0
  );
}
