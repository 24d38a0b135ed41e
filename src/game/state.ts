// One game as an observer sees it, rebuilt from decoded events. Rules come from chessops: every
// move is replayed and checked against the server's board, so where a server field is wrong
// (castling flags, double-push file, holdings, halfmove clock) the state follows the moves.
import type { GameNumber } from '../protocol/game-number.js';
import type { Move, Piece, Role } from 'chessops';
import type { Position } from 'chessops/chess';
import { Material } from 'chessops/setup';
import { ROLES } from 'chessops/types';
import { makeFen } from 'chessops/fen';
import type {
  DeltaBoard,
  GameEnd,
  GameHeader,
  GameInfo,
  GameResult,
  Holdings,
  HoldingsLine,
  MoveList,
  Style12,
} from '../protocol/events.js';
import {
  boardKey,
  boardMatches,
  capturedRole,
  castles,
  handRole,
  holdingsFrom,
  laskerPhantom,
  playBughouse,
  pocketsFrom,
  positionFromSetup,
  setupFromStyle12,
  startPosition,
} from './position.js';
import { checkAfter, moveFromSan, moveFromSquares, moveFromVerbose, playSan, sanOf, uciOf } from './moves.js';
import { openingAt, type Opening } from './openings.js';
import {
  MAX_SAID_PER_GAME,
  type FicsSnapshot,
  type GameSnapshot,
  type Said,
  type SyncNeed,
} from './snapshot.js';
import { clocksWithFlags, flaggedSides } from './flag.js';
import { gameTypeLabel, rulesFor, variantFromType, type Variant } from './variants.js';

export interface Ply {
  san: string;
  uci: string;
  timeMs: number | null;
  /** The mover's clock after the move. */
  clockMs: number | null;
  /** Bughouse: the hands after the move, and after the pieces passed before the next one. */
  hands?: Holdings;
  /**
   * The deepest position of the ECO table the history reached by this ply (set as the ply is
   * played): a snapshot reads it instead of replaying the moves. Null outside standard chess.
   */
  opening: Opening | null;
}

/** What one move did to the hands, to tell crazyhouse from bughouse by the server's holdings. */
interface HandEffect {
  /** The hands before the move, as the server's last holdings line gave them. */
  before: Holdings;
  ply: number;
  mover: 'white' | 'black';
  /** Crazyhouse credits the captured piece (a pawn if it was promoted) to the capturer. */
  captured: Role | null;
  dropped: Role | null;
  castle: boolean;
}

/** What an event did to the game, for whoever forwards positions. */
export type Change = 'none' | 'info' | 'position' | 'ended';

export class GameState {
  white: string;
  black: string;
  whiteRating: string | null = null;
  blackRating: string | null = null;
  variant: Variant = 'chess';
  rated: boolean | null = null;
  type: string | null = null;
  initialMinutes: number | null = null;
  incrementSec: number | null = null;
  partnerGame: GameNumber | null = null;
  mode: GameSnapshot['mode'] = 'played';
  flip = false;
  whiteClockMs = 0;
  blackClockMs = 0;
  clockTicking = false;
  /** The server's last `<b1>` holdings (lasker's stay wrong after a castle: see `phantom`). */
  private serverHoldings: Holdings | null = null;
  /** The server's last full holdings line (not a passing notice) and the ply it came after. */
  private fullHoldings: { holdings: Holdings; ply: number } | null = null;
  /** Pieces lasker credited to a bughouse hand for a castle, taken off its later holdings. */
  private readonly phantom = Material.empty();
  private lastHandEffect: HandEffect | null = null;
  /** The piece lasker credits for the last move when it was a castle (see `laskerPhantom`). */
  lastPhantom: Piece | undefined;
  result: GameResult = '*';
  reason: string | null = null;
  ended = false;
  needs: SyncNeed | null = null;

  /** The position the history starts from, and how many plies came before it. */
  private base: Position | null = null;
  /** The FEN and opening of `base`, made once per base: every move's snapshot reads them. */
  private baseFacts: { base: Position; fen: string; opening: Opening | null } | null = null;
  private basePly = 0;
  /** True when `base` is the game's initial position. */
  private fromStart = false;
  private plies: Ply[] = [];
  private pos: Position | null = null;
  /** Whether `pos` is in check, as the SAN of the move that led to it said (saves a test per snapshot). */
  private checked: { pos: Position; ply: number; check: boolean } | null = null;
  /** The last board when no legal position could be built from it (odd setups). */
  private rawFen: string | null = null;
  /** Deltas that arrived while the position was unknown. */
  private waiting: (DeltaBoard | Style12)[] = [];
  /** Kibitzes and whispers, each at the absolute ply it was said (bounded: MAX_SAID_PER_GAME). */
  private readonly said: Said[] = [];
  private saidDropped = 0;

  constructor(
    readonly key: string,
    readonly game: GameNumber,
    white: string,
    black: string,
    /** The FICS server it is observed on, for the PGN's Site. */
    readonly server: string | null = null,
  ) {
    this.white = white;
    this.black = black;
  }

  /** False while only a header or game info is known. */
  get hasBoard(): boolean {
    return this.pos !== null || this.rawFen !== null;
  }

  get ply(): number {
    return this.basePly + this.plies.length;
  }

  /** Keeps what was said at the current ply; null once the game's bound is reached. */
  addSaid(said: Omit<Said, 'ply'>): Said | null {
    if (this.said.length >= MAX_SAID_PER_GAME) {
      this.saidDropped++;
      return null;
    }
    const kept = { ...said, ply: this.ply };
    this.said.push(kept);
    return kept;
  }

  get complete(): boolean {
    return this.fromStart;
  }

  setType(type: string): void {
    this.type = type;
    const variant = variantFromType(type);
    // A plain type ("blitz") says nothing against holdings or a partner seen already, nor does
    // "Wild" (what the FICS 1.6.2 lineage calls a bughouse board).
    const holdings = rulesFor(this.variant) === 'crazyhouse';
    if (variant !== 'chess' && !(variant === 'wild' && holdings)) this.setVariant(variant);
  }

  /** Changes the rules, carrying the position over (lasker names the variant late or never). */
  private setVariant(variant: Variant): void {
    if (variant === this.variant) return;
    const sameRules = rulesFor(variant) === rulesFor(this.variant);
    this.variant = variant;
    if (sameRules) return;
    const convert = (pos: Position | null): Position | null =>
      pos === null ? null : positionFromSetup(pos.toSetup(), variant);
    this.base = convert(this.base);
    this.pos = convert(this.pos);
  }

  applyHeader(h: GameHeader): Change {
    this.whiteRating = h.whiteRating;
    this.blackRating = h.blackRating;
    this.rated = h.rated;
    this.initialMinutes = h.initialMinutes;
    this.incrementSec = h.incrementSec;
    this.setType(h.type);
    return 'info';
  }

  /** Marks this board as one of a bughouse pair. */
  pairWith(partner: GameNumber): void {
    this.partnerGame = partner;
    this.setVariant('bughouse');
  }

  applyInfo(info: GameInfo): Change {
    if (info.partnerGame !== null) this.pairWith(info.partnerGame);
    if (info.rated !== null) this.rated = info.rated;
    if (info.type !== null && this.type === null) this.setType(info.type);
    return 'info';
  }

  /**
   * The hands shown are those after the move the board shows. A full `<b1>` line follows its
   * `<12>` (both servers), so the move itself has already updated them; the line confirms.
   * Crazyhouse hands follow the moves once the history is known from ply 1 (lasker's holdings go
   * wrong after a castle). Bughouse hands are filled from the partner board: the server's lines
   * say what arrived, less the pieces lasker made up.
   */
  applyHoldings(line: HoldingsLine): Change {
    if (this.variant === 'chess') this.setVariant('crazyhouse');
    if (line.passed === null) {
      if (this.variant === 'crazyhouse' && !this.named && !this.crazyhouseExplains(line.holdings)) {
        this.setVariant('bughouse');
      }
      this.fullHoldings = { holdings: line.holdings, ply: this.ply };
    }
    this.serverHoldings = line.holdings;
    const pos = this.pos;
    if (pos === null) return 'info';
    // In crazyhouse a passing notice announces the capture its board is about to show.
    if (this.variant === 'crazyhouse' && (this.fromStart || line.passed !== null)) return 'info';
    const before = holdingsFrom(pos.pockets ?? Material.empty());
    pos.pockets = this.serverPockets();
    this.noteHands();
    return sameHoldings(before, holdingsFrom(pos.pockets)) ? 'info' : 'position';
  }

  /** The server's hands less lasker's phantom pieces. */
  private serverPockets(): Material {
    const pockets = pocketsFrom(this.serverHoldings ?? { white: '', black: '' });
    for (const color of ['white', 'black'] as const) {
      for (const role of ROLES) {
        pockets[color][role] = Math.max(0, pockets[color][role] - this.phantom[color][role]);
      }
    }
    return pockets;
  }

  /**
   * lasker passed a piece to this board for a castle on the partner board (it took the piece
   * on g6 or c4 for a capture): the piece never arrived.
   */
  discountPhantom(to: 'white' | 'black', piece: string): Change {
    const role = handRole(piece);
    if (role === undefined || this.variant !== 'bughouse') return 'none';
    this.phantom[to][role]++;
    if (this.pos === null) return 'none';
    this.pos.pockets = this.serverPockets();
    this.noteHands();
    return 'position';
  }

  /**
   * Whether the server's hands after the last move are what crazyhouse makes of the previous
   * ones: a capture credits the capturer, a drop debits the dropper, nothing else changes them.
   * A bughouse board breaks this at the first piece passed from its partner or captured away.
   * A castle is not judged: lasker credits a phantom piece for it.
   */
  private crazyhouseExplains(after: Holdings): boolean {
    const effect = this.lastHandEffect;
    if (this.fullHoldings?.ply === this.ply) return sameHoldings(this.fullHoldings.holdings, after);
    if (effect === null || effect.ply !== this.ply || effect.castle) return true;
    const expected = pocketsFrom(effect.before);
    if (effect.captured !== null) expected[effect.mover][effect.captured]++;
    if (effect.dropped !== null) expected[effect.mover][effect.dropped]--;
    return sameHoldings(holdingsFrom(expected), after);
  }

  applyEnd(end: GameEnd): Change {
    if (this.ended && this.result === end.result && this.reason === end.reason) return 'none';
    this.ended = true;
    this.result = end.result;
    this.reason = end.reason;
    return 'ended';
  }

  /** True once a line named the game's variant (a header, a move list, game info). */
  private get named(): boolean {
    return this.type !== null && variantFromType(this.type) !== 'chess';
  }

  /** Adjourned: the game may come back later, under a new number, from this position. */
  get adjourned(): boolean {
    return this.ended && this.result === '*' && /\badjourn/i.test(this.reason ?? '');
  }

  /** Whether a board is where this adjourned game stopped (same players, same position). */
  resumesAt(board: Style12): boolean {
    return (
      this.adjourned &&
      this.pos !== null &&
      this.white === board.white &&
      this.black === board.black &&
      board.ply === this.ply &&
      board.sideToMove === this.pos.turn &&
      boardMatches(this.pos, board)
    );
  }

  /** Takes the history of the adjourned game this one resumes, so it is whole from move 1. */
  continueFrom(adjourned: GameState): void {
    this.setVariant(adjourned.variant);
    // What named the game before (lasker names it only in a move list's header).
    this.type ??= adjourned.type;
    this.rated ??= adjourned.rated;
    this.whiteRating ??= adjourned.whiteRating;
    this.blackRating ??= adjourned.blackRating;
    this.partnerGame = adjourned.partnerGame;
    this.base = adjourned.base?.clone() ?? null;
    this.pos = adjourned.pos?.clone() ?? null;
    this.basePly = adjourned.basePly;
    this.plies = [...adjourned.plies];
    this.fromStart = adjourned.fromStart;
    this.serverHoldings = adjourned.serverHoldings;
    this.needs = adjourned.fromStart ? null : 'moves';
  }

  applyBoard(board: Style12): Change {
    this.flip = board.flip;
    this.whiteClockMs = board.whiteClockMs;
    this.blackClockMs = board.blackClockMs;
    if (board.clockTicking !== null) this.clockTicking = board.clockTicking;
    this.mode =
      board.relation === -2 || board.relation === 2
        ? 'examined'
        : board.relation === -3
          ? 'isolated'
          : 'played';
    if (this.initialMinutes === null) {
      this.initialMinutes = board.initialTime;
      this.incrementSec = board.incrementSec;
    }
    if (board.relation === -4) {
      // The initial position of a wild game, sent before its move list (`iset startpos 1`).
      this.restart(board, true);
      return 'position';
    }
    if (this.pos === null) {
      this.restart(board, board.ply === 0);
      return 'position';
    }
    // While a move list is awaited, later boards wait with the deltas to keep their order.
    if (this.waiting.length > 0) {
      this.waiting.push(board);
      return 'none';
    }
    const change = this.followBoard(board);
    if (change !== null) return change;
    // A gap or a board that no move explains: ask for the list rather than guess.
    this.waiting.push(board);
    this.needs = 'moves';
    return 'none';
  }

  /** Fits a board to the history: the same position, the next move, or a takeback. */
  private followBoard(board: Style12): Change | null {
    const ply = this.ply;
    if (board.ply === ply && boardMatches(this.pos!, board)) return 'info';
    if (board.ply === ply + 1 && this.playBoardMove(board)) return 'position';
    if (board.ply <= ply && board.ply >= this.basePly) {
      // Takeback (possibly followed by a new move): rewind and check, else put it back.
      const saved = this.plies;
      this.truncate(board.ply);
      if (boardMatches(this.pos!, board)) return 'position';
      if (board.ply - 1 >= this.basePly) {
        this.truncate(board.ply - 1);
        if (this.playBoardMove(board)) return 'position';
      }
      this.rebuild(saved);
    }
    return null;
  }

  applyDelta(delta: DeltaBoard): Change {
    if (this.pos === null || this.waiting.length > 0) {
      this.waiting.push(delta);
      this.needs ??= this.pos === null ? 'refresh' : 'moves';
      return 'none';
    }
    const ply = this.ply;
    if (delta.ply > ply + 1) {
      this.waiting.push(delta);
      this.needs = 'moves';
      return 'none';
    }
    if (delta.ply <= ply) {
      // FatICS sends a takeback as a delta repeating the move at a lower ply.
      if (delta.ply - 1 < this.basePly) {
        this.needs = 'moves';
        this.waiting.push(delta);
        return 'none';
      }
      this.truncate(delta.ply - 1);
    }
    this.admitDrop(this.pos, delta.san);
    const found = deltaMove(this.pos, delta);
    if (found === undefined) {
      this.needs = 'moves';
      this.waiting.push(delta);
      return 'none';
    }
    this.play(found.move, delta.moveTimeMs, delta.clockMs, found.named);
    if (this.pos.turn === 'black') this.whiteClockMs = delta.clockMs;
    else this.blackClockMs = delta.clockMs;
    return 'position';
  }

  /** Merges a `moves` reply: the history becomes complete from ply 1 where the list agrees. */
  applyMoveList(list: MoveList): Change {
    if (list.whiteRating !== '') this.whiteRating = list.whiteRating;
    if (list.blackRating !== '') this.blackRating = list.blackRating;
    if (list.rated !== null) this.rated = list.rated;
    if (list.initialMinutes !== null) this.initialMinutes = list.initialMinutes;
    if (list.incrementSec !== null) this.incrementSec = list.incrementSec;
    if (list.type !== null) this.setType(list.type);
    const start = this.fromStart && this.base !== null ? this.base.clone() : startPosition(this.variant);
    const listed: Ply[] = [];
    const positions: Position[] = [start.clone()];
    const pos = start.clone();
    for (const entry of list.moves) {
      this.admitDrop(pos, entry.san);
      const move = moveFromSan(pos, entry.san);
      if (move === undefined) return this.listFailed();
      // Openings are found as rebuild() plays the history.
      const san = sanOf(pos, move);
      listed.push({ san, uci: uciOf(pos, move), timeMs: entry.timeMs, clockMs: null, opening: null });
      this.playOn(pos, move);
      positions.push(pos.clone());
    }
    const known = this.pos === null ? null : { basePly: this.basePly, base: this.base!, plies: this.plies };
    let plies: Ply[];
    if (known === null) {
      plies = listed;
    } else {
      const at = positions[known.basePly];
      if (at === undefined || boardKey(at) !== boardKey(known.base)) return this.listFailed();
      // Our own plies after the join point carry clocks; the list may know more plies still.
      const ours = known.plies.map((p, i) => ({
        ...p,
        timeMs: p.timeMs ?? listed[known.basePly + i]?.timeMs ?? null,
      }));
      // Where ours and the list differ (a garbled line got in), the server's own history wins.
      const differs = ours.findIndex((p, i) => {
        const theirs = listed[known.basePly + i];
        return theirs !== undefined && theirs.uci !== p.uci;
      });
      const kept = differs < 0 ? ours : ours.slice(0, differs);
      plies = [...listed.slice(0, known.basePly), ...kept, ...listed.slice(known.basePly + kept.length)];
    }
    this.base = start;
    this.basePly = 0;
    this.fromStart = true;
    this.rebuild(plies);
    if (this.needs === 'moves' || this.needs === 'refresh') this.needs = null;
    this.replayWaiting();
    return 'position';
  }

  snapshot(): FicsSnapshot {
    const pos = this.pos;
    const fen = pos === null ? (this.rawFen ?? EMPTY_FEN) : makeFen(pos.toSetup());
    const base = this.base === null ? null : this.baseFactsOf(this.base);
    const plies = this.plies;
    const last = plies.at(-1);
    const turn = pos?.turn ?? 'white';
    const flagged = flaggedSides(this);
    return {
      key: this.key,
      game: this.game,
      white: this.white,
      black: this.black,
      whiteRating: this.whiteRating,
      blackRating: this.blackRating,
      variant: this.variant,
      rated: this.rated,
      type: gameTypeLabel(this.type, this.variant),
      initialMinutes: this.initialMinutes,
      incrementSec: this.incrementSec,
      startFen: base?.fen ?? fen,
      san: plies.map((p) => p.san),
      uci: plies.map((p) => p.uci),
      moveTimesMs: plies.map((p) => p.timeMs),
      clocksMs: clocksWithFlags(
        plies.map((p) => p.clockMs),
        turn,
        flagged,
      ),
      ...(this.variant === 'bughouse' ? { handsAfter: plies.map((p) => p.hands ?? null) } : {}),
      fen,
      sideToMove: turn,
      // A fallen flag reads 0:00, not the time left after that side's last move.
      whiteClockMs: flagged.white ? 0 : this.whiteClockMs,
      blackClockMs: flagged.black ? 0 : this.blackClockMs,
      clockTicking: this.clockTicking,
      holdings: pos?.pockets === undefined ? this.serverHoldings : holdingsFrom(pos.pockets),
      partnerGame: this.partnerGame,
      check: pos === null ? false : this.isCheck(pos),
      flip: this.flip,
      result: this.result,
      reason: this.reason,
      ended: this.ended,
      complete: this.fromStart,
      needs: this.needs,
      ...(this.server === null ? {} : { server: this.server }),
      source: null,
      mode: this.mode,
      opening: this.variant !== 'chess' ? null : last === undefined ? (base?.opening ?? null) : last.opening,
      ...(this.said.length === 0
        ? {}
        : {
            // The history may start late (a board seen mid-game): plies count from its start.
            said: this.said.map((s) => ({ ...s, ply: Math.max(0, s.ply - this.basePly) })),
            ...(this.saidDropped === 0 ? {} : { saidDropped: this.saidDropped }),
          }),
    };
  }

  private isCheck(pos: Position): boolean {
    const checked = this.checked;
    return checked !== null && checked.pos === pos && checked.ply === this.ply
      ? checked.check
      : pos.isCheck();
  }

  /** A base is never played on (each replay clones it), so its FEN and opening stay what they were. */
  private baseFactsOf(base: Position): { fen: string; opening: Opening | null } {
    if (this.baseFacts?.base !== base)
      this.baseFacts = { base, fen: makeFen(base.toSetup()), opening: this.openingAfter(base, null) };
    return this.baseFacts;
  }

  /** The opening once `pos` is reached, `before` the one reached before it. */
  private openingAfter(pos: Position, before: Opening | null): Opening | null {
    return this.variant === 'chess' ? (openingAt(pos) ?? before) : null;
  }

  /** Plays the board's move from the current position; false when it does not lead to the board. */
  private playBoardMove(board: Style12): boolean {
    const pos = this.pos!;
    if (board.san === null && board.verboseMove === null) return false;
    if (board.san !== null) this.admitDrop(pos, board.san);
    const moverClock = board.sideToMove === 'black' ? board.whiteClockMs : board.blackClockMs;
    // The verbose move first: it takes a legality test where the SAN takes a parse. When chessops
    // names it as the server did, the SAN names it too: it is the move the SAN would give.
    const verbose =
      board.verboseMove === null ? undefined : moveFromVerbose(pos, board.verboseMove, board.san);
    const named = verbose === undefined ? undefined : playSan(pos, verbose);
    if (named !== undefined && named.san === board.san && boardMatches(named.after, board)) {
      this.play(verbose!, board.moveTimeMs, moverClock, named);
      return true;
    }
    // Else the SAN's move, then the verbose one: the server may have either wrong.
    const bySan = board.san === null ? undefined : moveFromSan(pos, board.san);
    for (const move of [bySan, verbose]) {
      if (move === undefined) continue;
      const made = move === verbose ? named! : playSan(pos, move);
      if (!boardMatches(made.after, board)) continue;
      this.play(move, board.moveTimeMs, moverClock, made);
      return true;
    }
    return false;
  }

  /**
   * The server is the referee: a drop it accepted was legal. A piece not in hand came from the
   * partner board before we heard of it, so the board is bughouse whatever it was taken for.
   */
  private admitDrop(pos: Position, san: string): void {
    const m = /^([PNBRQ])@/.exec(san);
    if (m === null || pos.pockets === undefined) return;
    const role = handRole(m[1]!)!;
    const side = pos.pockets[pos.turn];
    if (side[role] > 0) return;
    if (this.variant === 'crazyhouse' && !this.named) this.setVariant('bughouse');
    side[role] = 1;
  }

  /** Plays a move by the rules of this board (bughouse captures go to the partner board). */
  private playOn(pos: Position, move: Move): void {
    if (this.variant === 'bughouse') playBughouse(pos, move);
    else pos.play(move);
  }

  /**
   * Plays a move on the current position and records it. `named`: its SAN and the position after
   * it by chessops' rules (playSan), when the caller made them already.
   */
  private play(move: Move, timeMs: number | null, clockMs: number | null, named?: Named): void {
    const pos = this.pos!;
    const uci = uciOf(pos, move);
    this.lastPhantom = pos.pockets === undefined ? undefined : laskerPhantom(pos, move);
    const full = this.fullHoldings;
    const ply = this.ply + 1;
    this.lastHandEffect =
      pos.pockets === undefined || full === null || full.ply !== ply - 1
        ? null
        : {
            before: full.holdings,
            ply,
            mover: pos.turn,
            captured: capturedRole(pos, move),
            dropped: 'role' in move ? move.role : null,
            castle: castles(pos, move),
          };
    let san: string;
    if (this.variant === 'bughouse') {
      // A bughouse capture goes to the partner board: not chessops' crazyhouse position after it.
      san = named?.san ?? sanOf(pos, move);
      playBughouse(pos, move);
    } else {
      const { san: made, after } = named ?? playSan(pos, move);
      san = made;
      this.pos = after;
    }
    const last = this.plies.at(-1);
    const before = last !== undefined ? last.opening : this.baseFactsOf(this.base!).opening;
    this.plies.push({ san, uci, timeMs, clockMs, opening: this.openingAfter(this.pos!, before) });
    this.checked = { pos: this.pos!, ply, check: checkAfter(this.pos!, san) };
    this.noteHands();
  }

  /** Keeps the hands shown after the last move, for a bughouse board's whole-game replay. */
  private noteHands(): void {
    const last = this.plies.at(-1);
    if (this.variant === 'bughouse' && last !== undefined && this.pos?.pockets !== undefined) {
      last.hands = holdingsFrom(this.pos.pockets);
    }
  }

  /** Starts the history again from a full board (first board seen, or a gap). */
  private restart(board: Style12, fromStart: boolean): void {
    const setup = setupFromStyle12(
      board,
      this.serverHoldings === null ? null : holdingsFrom(this.serverPockets()),
    );
    const pos = setup === null ? null : positionFromSetup(setup, this.variant);
    this.rawFen = setup === null ? null : makeFen(setup);
    this.base = pos;
    this.pos = pos?.clone() ?? null;
    this.basePly = board.ply;
    this.plies = [];
    this.fromStart = fromStart && pos !== null;
    // Nothing named the game yet (lasker tells a first-move observer nothing but boards): the
    // move list's header does, so the game has one title whatever the way in.
    this.needs = pos === null ? 'refresh' : fromStart && this.type !== null ? null : 'moves';
    this.waiting = [];
  }

  private truncate(ply: number): void {
    this.rebuild(this.plies.slice(0, Math.max(0, ply - this.basePly)));
  }

  private rebuild(plies: Ply[]): void {
    const pos = this.base!.clone();
    const rebuilt: Ply[] = [];
    let opening = this.baseFactsOf(this.base!).opening;
    // The history ends where its moves stop being legal: never a position the moves do not reach.
    for (const ply of plies) {
      this.admitDrop(pos, ply.san);
      const move = moveFromSan(pos, ply.san);
      if (move === undefined) break;
      this.playOn(pos, move);
      opening = this.openingAfter(pos, opening);
      // A new object: an earlier history (and what was made of it) keeps its own plies.
      rebuilt.push({ ...ply, opening });
    }
    this.plies = rebuilt;
    // Bughouse hands come from the partner board, which a replay of this board cannot know.
    if (this.variant === 'bughouse' && this.serverHoldings !== null) pos.pockets = this.serverPockets();
    this.pos = pos;
  }

  /**
   * Applies what waited for a move list. The list is the server's own history, so a line that
   * still does not fit it is wrong (garbled or lost in between): it is dropped, not waited on
   * forever, and a fresh board is asked for in case a move went missing with it.
   */
  private replayWaiting(): void {
    const waiting = this.waiting;
    this.waiting = [];
    let dropped = false;
    for (const event of waiting) {
      if (event.kind === 'delta') this.applyDelta(event);
      else this.applyBoard(event);
      if (this.waiting.length > 0) {
        this.waiting = [];
        this.needs = null;
        dropped = true;
      }
    }
    if (dropped) this.needs = 'refresh';
  }

  /**
   * The list does not fit what we saw: show the latest full board without its history rather
   * than stay stuck, and follow the moves after it.
   */
  private listFailed(): Change {
    const waiting = this.waiting;
    const last = waiting.findLastIndex((e) => e.kind === 'style12');
    this.needs = null;
    if (last < 0) return 'none';
    this.waiting = [];
    this.restart(waiting[last] as Style12, false);
    this.needs = null;
    for (const event of waiting.slice(last + 1)) {
      if (event.kind === 'delta') this.applyDelta(event);
      else this.applyBoard(event);
    }
    return 'position';
  }
}

/** The FEN of a game whose board could not be read at all. */
const EMPTY_FEN = '8/8/8/8/8/8/8/8 w - - 0 1';

/** A move with its SAN and the position after it (playSan). */
type Named = ReturnType<typeof playSan>;

/**
 * A delta's move, named: the one its SAN names, or its squares' when the SAN names no legal move;
 * undefined when that move is not the squares'. The squares are tried first: when chessops
 * names their move as the server did, the server's SAN names that move, so it needs no parsing.
 */
function deltaMove(pos: Position, delta: DeltaBoard): { move: Move; named?: Named } | undefined {
  const expected = `${delta.from}${delta.to}${delta.promotion?.toLowerCase() ?? ''}`;
  const bySquares = moveFromSquares(pos, delta.from, delta.to, delta.promotion);
  if (bySquares !== undefined && uciOf(pos, bySquares) === expected) {
    const named = playSan(pos, bySquares);
    if (named.san === delta.san) return { move: bySquares, named };
  }
  const move = moveFromSan(pos, delta.san) ?? bySquares;
  return move === undefined || uciOf(pos, move) !== expected ? undefined : { move };
}

function sameHoldings(a: Holdings, b: Holdings): boolean {
  const sorted = (s: string): string => [...s.toUpperCase()].sort().join('');
  return sorted(a.white) === sorted(b.white) && sorted(a.black) === sorted(b.black);
}
