// Routes decoded events to per-game state. Server game numbers are reused once a game ends,
// so an entry is a number plus players plus order, and a new game under an old number is a new
// entry with its own key.
import type { GameNumber } from '../protocol/game-number.js';
import type { GameId } from './game-id.js';
import type { Kibitz, ServerEvent, Style12, Undecoded } from '../protocol/events.js';
import { handRole } from './position.js';
import { GameState, type Change } from './state.js';
import {
  DEFAULT_MAX_PLIES,
  type FicsSnapshot,
  type GameSnapshot,
  type Said,
  type SyncNeed,
} from './snapshot.js';

/** What a feed tells of its games; the FICS tracker's snapshots are FicsSnapshots. */
export type TrackerUpdate<S extends GameSnapshot = GameSnapshot> =
  | { type: 'started' | 'moved' | 'ended'; snapshot: S }
  | { type: 'needs'; game: GameNumber; need: SyncNeed }
  | { type: 'undecoded'; event: Undecoded };

/** A kibitz or whisper kept in a live game's state (`key` as in its snapshots). */
export interface SaidInGame {
  game: GameId;
  key: string;
  said: Said;
}

/** Adjourned games remembered for their resumption, and partners named for boards to come. */
const MAX_REMEMBERED = 64;

export class GameTracker {
  private readonly current = new Map<number, GameState>();
  /** Numbers whose next board belongs to a new game (the server announced one). */
  private readonly reused = new Set<number>();
  private serial = 0;

  /** The last bughouse capture or piece pass seen, to pair boards the server left unpaired. */
  private lastBughouse: { game: GameNumber; kind: 'capture' | 'pass' } | null = null;
  private readonly pairSightings = new Map<string, number>();
  /** Partners told by the server for boards not seen yet (the pool observes them next). */
  private readonly partnersToCome = new Map<number, GameNumber>();
  /** Adjourned games, newest last, until they resume (bounded: most never do). */
  private readonly adjourned: GameState[] = [];
  /** A piece-passing notice not yet followed by a board: lasker sends it before the move. */
  private pendingPass: { state: GameState; to: 'white' | 'black'; piece: string } | null = null;
  private readonly announced = new WeakSet<GameState>();
  /** The last need reported per game, so each is asked for once. */
  private readonly asked = new WeakMap<GameState, SyncNeed | null>();
  /** Games ended for going past `maxPlies`: nothing more of them is taken. */
  private readonly tooLong = new WeakSet<GameState>();

  /** The FICS host the events come from, named in each game's PGN (null: not known). */
  private readonly server: string | null;
  /** A game longer than this ends as not supported (KIBITZ_MAX_PLIES). */
  private readonly maxPlies: number;

  /** Told each kibitz or whisper kept (they change no position, so they are not updates). */
  private readonly onSaid: (said: SaidInGame) => void;

  constructor(
    options: { server?: string | null; maxPlies?: number; onSaid?: (said: SaidInGame) => void } = {},
  ) {
    this.server = options.server ?? null;
    this.maxPlies = options.maxPlies ?? DEFAULT_MAX_PLIES;
    this.onSaid = options.onSaid ?? (() => {});
  }

  /** The latest game under a server number, once it has a board (a header alone shows nothing). */
  snapshot(game: GameId): FicsSnapshot | undefined {
    const state = this.current.get(game);
    return state?.hasBoard ? state.snapshot() : undefined;
  }

  games(): FicsSnapshot[] {
    return [...this.current.values()].filter((g) => g.hasBoard).map((g) => g.snapshot());
  }

  /** Drops a finished or unwanted game so a long-running process does not keep it. */
  forget(game: GameId): void {
    this.current.delete(game);
    this.reused.delete(game);
    this.partnersToCome.delete(game);
  }

  /**
   * Pairs two bughouse boards the server named as partners (`pobserve`, the `games` list): a
   * board not seen yet is paired when its first board comes.
   */
  pair(a: GameNumber, b: GameNumber): TrackerUpdate<FicsSnapshot>[] {
    const updates: TrackerUpdate<FicsSnapshot>[] = [];
    for (const [game, partner] of [
      [a, b],
      [b, a],
    ] as const) {
      const state = this.current.get(game);
      if (state === undefined || state.ended) {
        this.partnersToCome.set(game, partner);
        // Boards that never came (their observe failed) are forgotten oldest first.
        if (this.partnersToCome.size > MAX_REMEMBERED) {
          this.partnersToCome.delete(this.partnersToCome.keys().next().value!);
        }
      } else if (state.partnerGame !== partner) {
        state.pairWith(partner);
        updates.push(...this.after(state, 'position'));
      }
    }
    return updates;
  }

  apply(event: ServerEvent): TrackerUpdate<FicsSnapshot>[] {
    if (this.ofTooLong(event)) return [];
    switch (event.kind) {
      case 'undecoded':
        return [{ type: 'undecoded', event }];
      case 'style12':
        return this.board(event);
      case 'gameHeader': {
        const known = this.current.get(event.game);
        const same = known !== undefined && !known.ended && !this.reused.has(event.game);
        if (same && samePlayers(known, event.white, event.black))
          return this.after(known, known.applyHeader(event));
        const ended = this.endReplaced(event);
        const state = this.create(event);
        return [...ended, ...this.after(state, state.applyHeader(event))];
      }
      case 'gameCreated': {
        const known = this.current.get(event.game);
        if (known !== undefined && (known.ended || !samePlayers(known, event.white, event.black))) {
          this.reused.add(event.game);
        }
        return this.endReplaced(event);
      }
      case 'observing': {
        const known = this.current.get(event.game);
        if (known?.ended) this.reused.add(event.game);
        return [];
      }
      case 'delta': {
        const state = this.current.get(event.game);
        if (state === undefined || state.ended) return [];
        return this.after(state, state.applyDelta(event));
      }
      case 'holdings': {
        const state = this.current.get(event.game);
        if (state === undefined) return [];
        if (event.passed !== null) this.pairBughouse(state, 'pass');
        const updates = this.after(state, state.applyHoldings(event));
        this.pendingPass = event.passed === null ? null : { state, ...event.passed };
        return updates;
      }
      case 'gameinfo': {
        const state = this.current.get(event.game);
        return state === undefined ? [] : this.after(state, state.applyInfo(event));
      }
      case 'gameEnd': {
        const state = this.current.get(event.game);
        if (state === undefined || (event.white !== null && !samePlayers(state, event.white, event.black!))) {
          return [];
        }
        const updates = this.after(state, state.applyEnd(event));
        if (state.adjourned && !this.adjourned.includes(state)) {
          this.adjourned.push(state);
          if (this.adjourned.length > MAX_REMEMBERED) this.adjourned.shift();
        }
        return updates;
      }
      case 'moveList': {
        const state = this.moveListTarget(event.game, event.white, event.black);
        return state === undefined ? [] : this.after(state, state.applyMoveList(event));
      }
      case 'kibitz':
        this.kibitz(event);
        return [];
      case 'stoppedObserving':
      case 'other':
        return [];
    }
  }

  /** Talk in a live game this tracker follows; talk after its end or of no known game is not kept. */
  private kibitz(event: Kibitz): void {
    const state = this.current.get(event.game);
    if (state === undefined || state.ended || !state.hasBoard) return;
    const said = state.addSaid({ handle: event.handle, text: event.text, whisper: event.whisper });
    if (said !== null) this.onSaid({ game: state.game, key: state.key, said });
  }

  private board(board: Style12): TrackerUpdate<FicsSnapshot>[] {
    const known = this.current.get(board.game);
    const same =
      known !== undefined &&
      !this.reused.has(board.game) &&
      samePlayers(known, board.white, board.black) &&
      !(known.ended && board.ply < known.ply);
    const replaced = same ? [] : this.endReplaced(board);
    const state = same ? known : this.create(board);
    if (!state.hasBoard) this.resume(state, board);
    const change = state.applyBoard(board);
    const updates = [...replaced, ...this.after(state, change)];
    if (board.san?.includes('x') === true) this.pairBughouse(state, 'capture');
    const pass = this.pendingPass;
    this.pendingPass = null;
    const partners = state.partnerGame === null || state.partnerGame === pass?.state.game;
    if (pass !== null && pass.state !== state && partners && change === 'position') {
      // lasker passes the piece on g6 or c4 to the partner board when someone castles there.
      const phantom = state.lastPhantom;
      if (phantom !== undefined && phantom.color === pass.to && phantom.role === handRole(pass.piece)) {
        updates.push(...this.after(pass.state, pass.state.discountPhantom(pass.to, pass.piece)));
      }
    }
    return updates;
  }

  /**
   * FatICS sends `pt=0` for bughouse boards and lasker no `<g1>` at all, so partners are also told
   * by the protocol itself: a capture on one board passes the piece to the other board, and the
   * pass notice (`<b1> ... <- WP`) comes right before (lasker) or right after (FatICS) the
   * capturing board. Two such sightings pair two bughouse boards; one could be a coincidence.
   */
  private pairBughouse(state: GameState, kind: 'capture' | 'pass'): void {
    const last = this.lastBughouse;
    this.lastBughouse = { game: state.game, kind };
    if (last === null || last.kind === kind || last.game === state.game) return;
    const other = this.current.get(last.game);
    // Only boards known to be bughouse: two crazyhouse games side by side look the same.
    if (other === undefined || state.variant !== 'bughouse' || other.variant !== 'bughouse') return;
    if (state.partnerGame !== null || other.partnerGame !== null) return;
    const pair = [state.key, other.key].sort().join(' ');
    const seen = (this.pairSightings.get(pair) ?? 0) + 1;
    this.pairSightings.set(pair, seen);
    if (seen < 2) return;
    this.pairSightings.delete(pair);
    state.pairWith(other.game);
    other.pairWith(state.game);
  }

  /** A game resumed from an adjournment (often under a new number) carries its first part. */
  private resume(state: GameState, board: Style12): void {
    const at = this.adjourned.findIndex((a) => a.resumesAt(board));
    if (at < 0) return;
    state.continueFrom(this.adjourned[at]!);
    this.adjourned.splice(at, 1);
  }

  /**
   * A game is its number and its players: a number that shows other players while the game known
   * under it has not ended (a server restart, a reconnect after the end) means that game is over,
   * its result unknown. It ends now rather than stay live forever.
   */
  private endReplaced(now: {
    game: GameNumber;
    white: string;
    black: string;
  }): TrackerUpdate<FicsSnapshot>[] {
    const known = this.current.get(now.game);
    if (known === undefined || known.ended || samePlayers(known, now.white, now.black)) return [];
    return this.after(
      known,
      known.applyEnd({
        kind: 'gameEnd',
        game: now.game,
        white: null,
        black: null,
        result: '*',
        reason: `Result unknown: game ${now.game} now shows ${now.white} vs ${now.black}`,
      }),
    );
  }

  private create(first: { game: GameNumber; white: string; black: string }): GameState {
    this.reused.delete(first.game);
    const state = new GameState(
      `${first.game}:${++this.serial}`,
      first.game,
      first.white,
      first.black,
      this.server,
    );
    this.current.set(first.game, state);
    const partner = this.partnersToCome.get(first.game);
    if (partner !== undefined) {
      this.partnersToCome.delete(first.game);
      state.pairWith(partner);
    }
    return state;
  }

  private moveListTarget(game: GameNumber | null, white: string, black: string): GameState | undefined {
    if (game !== null) {
      const state = this.current.get(game);
      // Another pair's list is not this game's history (its number was reused meanwhile).
      return state !== undefined && samePlayers(state, white, black) ? state : undefined;
    }
    // lasker's move list names no game: take the game of these players that waits for it. An
    // earlier game of the same pair that is over (finished, aborted, adjourned) is another game:
    // it takes a list only while it still waits for one itself.
    let best: GameState | undefined;
    for (const state of this.current.values()) {
      if (!samePlayers(state, white, black) || (state.ended && state.needs === null)) continue;
      if (best === undefined || rank(state) >= rank(best)) best = state;
    }
    return best;
  }

  /** Whether an ended game's number now shows another game (it was given to other players). */
  replaced(ended: GameSnapshot): boolean {
    const now = this.current.get(ended.game);
    return now !== undefined && now.key !== ended.key;
  }

  /** Whether Kibitz ended the game under this number for its length: the server plays on. */
  cutShort(game: GameId): boolean {
    const state = this.current.get(game);
    return state !== undefined && this.tooLong.has(state);
  }

  /** An event of a game ended for its length (a new game under its number is not). */
  private ofTooLong(event: ServerEvent): boolean {
    if (!('game' in event) || event.game === null || event.kind === 'gameCreated') return false;
    const state = this.current.get(event.game);
    if (state === undefined || !this.tooLong.has(state) || this.reused.has(event.game)) return false;
    return !('white' in event && event.white !== null && !samePlayers(state, event.white, event.black!));
  }

  private after(state: GameState, change: Change): TrackerUpdate<FicsSnapshot>[] {
    if (change === 'position' && state.ply > this.maxPlies && !state.ended) {
      this.tooLong.add(state);
      const reason = `more than ${this.maxPlies} moves (plies): Kibitz does not follow games that long`;
      change = state.applyEnd({
        kind: 'gameEnd',
        game: state.game,
        white: null,
        black: null,
        result: '*',
        reason,
      });
    }
    const updates: TrackerUpdate<FicsSnapshot>[] = [];
    // A game is announced at its first board: a header before it has nothing to show yet.
    if (state.hasBoard && !this.announced.has(state)) {
      this.announced.add(state);
      updates.push({ type: 'started', snapshot: state.snapshot() });
    } else if (this.announced.has(state)) {
      if (change === 'position') updates.push({ type: 'moved', snapshot: state.snapshot() });
      else if (change === 'ended') updates.push({ type: 'ended', snapshot: state.snapshot() });
    }
    if (state.needs !== null && state.needs !== this.asked.get(state)) {
      updates.push({ type: 'needs', game: state.game, need: state.needs });
    }
    this.asked.set(state, state.needs);
    return updates;
  }
}

/** Which game of a pair a nameless move list is for: a live one waiting for it, then a live one. */
function rank(state: GameState): number {
  return (state.ended ? 0 : 2) + (state.needs === null ? 0 : 1);
}

function samePlayers(state: GameState, white: string, black: string): boolean {
  return state.white === white && state.black === black;
}
