// What the live page is told about a game, as plain JSON: the full state a new viewer starts from,
// and the changes after it. A change that is one more move travels as that move (SAN, UCI, the FEN
// after it and both clocks); anything else (a takeback, a resync, the end) as the full state again.
// An engine evaluation of the position shown travels on its own, when it arrives.
import { whiteShare } from '../../render/index.js';
import { makeLichessAnalysisUrl } from '../game/lichess.js';
import type { Holdings } from '../protocol/events.js';
import type { GameSnapshot, Said } from '../game/snapshot.js';
import { makeEvaluationText, type Score } from '../engine/uci.js';

/** One board as the page shows it. Texts are the server's or a file's: the page escapes them. */
export type BoardView = Pick<
  GameSnapshot,
  | 'game'
  | 'white'
  | 'black'
  | 'whiteRating'
  | 'blackRating'
  | 'variant'
  | 'startFen'
  | 'fen'
  | 'san'
  | 'uci'
  | 'sideToMove'
  | 'whiteClockMs'
  | 'blackClockMs'
  | 'clockTicking'
  | 'check'
  | 'holdings'
  | 'result'
  | 'reason'
  | 'ended'
  | 'flip'
  | 'opening'
> & {
  /** `rated blitz 3 0`, `unrated crazyhouse 2 12`, or the ChessLive! source's name. */
  kind: string;
  /** lichess's analysis board on this position; null for a variant it does not analyse (bughouse). */
  analysisUrl: string | null;
};

export interface GameView {
  id: string;
  board: BoardView;
  /** The other board of a bughouse game, when the bot has it. */
  partner: BoardView | null;
  /** The engine's evaluation of the main board; null when no post asked for one. */
  evaluation: EvaluationView | null;
  /** Kibitzes and whispers heard so far (src/game/snapshot.ts bounds them). */
  said: Said[];
}

/** The engine's newest evaluation of a game, as it is known (White's point of view). */
export interface EngineOpinion {
  fen: string;
  /** Plies from the game's start position to the evaluated one. */
  ply: number;
  score: Score;
}

/** An evaluation as the page shows it: a bar beside the board and its text. */
export interface EvaluationView {
  /** Plies on the board at the evaluated position: the current one, or earlier while the engine thinks. */
  ply: number;
  /** `+0.8`, `#-3`: White's point of view, as the post's embed writes it. */
  text: string;
  /** White's share of the bar, 0..1 (the board image's bar has the same). */
  white: number;
}

/** One more move: the move, and what changed with it. */
export type MoveView = Pick<
  BoardView,
  'fen' | 'sideToMove' | 'whiteClockMs' | 'blackClockMs' | 'clockTicking' | 'check' | 'holdings' | 'opening'
> & {
  /** Plies on the board after this move (the move's index in `san` plus one). */
  ply: number;
  san: string;
  uci: string;
  analysisUrl: BoardView['analysisUrl'];
  /** The last evaluation while the engine thinks about this move's position; null when none is asked. */
  evaluation: EvaluationView | null;
};

/** The stream's events; `partner` is the bughouse partner board's full view. */
export type WebEvent =
  | { type: 'state'; data: GameView }
  | { type: 'move'; data: MoveView }
  | { type: 'partner'; data: BoardView }
  | { type: 'evaluation'; data: EvaluationView }
  | { type: 'said'; data: Said };

/** A game as a front-page mini-board shows it: players, position, last move, clocks, result. */
export type MiniView = Pick<
  BoardView,
  | 'white'
  | 'black'
  | 'whiteRating'
  | 'blackRating'
  | 'kind'
  | 'fen'
  | 'sideToMove'
  | 'whiteClockMs'
  | 'blackClockMs'
  | 'clockTicking'
  | 'check'
  | 'ended'
  | 'result'
> & {
  /** The game's page id. */
  id: string;
  /** The last move in UCI (`e2e4`, `P@f7`), or null before the first. */
  lastMove: string | null;
};

/** The front page's stream: the boards shown (`front`, in order), then each change of one (`mini`). */
export type FrontEvent = { type: 'front'; data: MiniView[] } | { type: 'mini'; data: MiniView };

export function miniView(id: string, snap: GameSnapshot): MiniView {
  return {
    id,
    white: snap.white,
    black: snap.black,
    whiteRating: snap.whiteRating,
    blackRating: snap.blackRating,
    kind: kindOf(snap),
    fen: snap.fen,
    sideToMove: snap.sideToMove,
    whiteClockMs: snap.whiteClockMs,
    blackClockMs: snap.blackClockMs,
    clockTicking: snap.clockTicking,
    check: snap.check,
    ended: snap.ended,
    result: snap.result,
    lastMove: snap.uci.at(-1) ?? null,
  };
}

/** Whether a mini-board shows anything different after the update (its names never change alone). */
export function miniChanged(before: GameSnapshot, after: GameSnapshot): boolean {
  return (
    after.fen !== before.fen ||
    after.san.length !== before.san.length ||
    after.whiteClockMs !== before.whiteClockMs ||
    after.blackClockMs !== before.blackClockMs ||
    after.clockTicking !== before.clockTicking ||
    after.ended !== before.ended ||
    !sameInfo(before, after)
  );
}

/** `rated blitz 3 0`, `unrated crazyhouse 2 12`, or the ChessLive! source's name. */
function kindOf(snap: GameSnapshot): string {
  const control =
    snap.initialMinutes !== null && snap.incrementSec !== null
      ? `${snap.initialMinutes} ${snap.incrementSec}`
      : null;
  return (
    snap.source ??
    [snap.rated === null ? null : snap.rated ? 'rated' : 'unrated', snap.type ?? snap.variant, control]
      .filter((part) => part !== null)
      .join(' ')
  );
}

export function boardView(snap: GameSnapshot): BoardView {
  return {
    game: snap.game,
    white: snap.white,
    black: snap.black,
    whiteRating: snap.whiteRating,
    blackRating: snap.blackRating,
    variant: snap.variant,
    kind: kindOf(snap),
    startFen: snap.startFen,
    fen: snap.fen,
    san: snap.san,
    uci: snap.uci,
    sideToMove: snap.sideToMove,
    whiteClockMs: snap.whiteClockMs,
    blackClockMs: snap.blackClockMs,
    clockTicking: snap.clockTicking,
    check: snap.check,
    holdings: snap.holdings,
    result: snap.result,
    reason: snap.reason,
    ended: snap.ended,
    flip: snap.flip,
    opening: snap.opening,
    analysisUrl: makeLichessAnalysisUrl(snap.variant, snap.fen),
  };
}

/**
 * The event that takes a viewer from `before` to `after`: one move when that is all that changed,
 * the full state otherwise, nothing when nothing the page shows changed.
 */
export function changeEvent(
  id: string,
  before: GameSnapshot,
  after: GameSnapshot,
  partner: GameSnapshot | undefined,
  opinion: EngineOpinion | null,
): WebEvent | null {
  const plies = after.san.length;
  const oneMore =
    !after.ended &&
    !before.ended &&
    plies === before.san.length + 1 &&
    after.startFen === before.startFen &&
    after.san[plies - 2] === before.san[plies - 2] &&
    sameInfo(before, after);
  if (oneMore) {
    return {
      type: 'move',
      data: {
        ply: plies,
        san: after.san[plies - 1]!,
        uci: after.uci[plies - 1] ?? '',
        fen: after.fen,
        sideToMove: after.sideToMove,
        whiteClockMs: after.whiteClockMs,
        blackClockMs: after.blackClockMs,
        clockTicking: after.clockTicking,
        check: after.check,
        holdings: after.holdings,
        opening: after.opening,
        analysisUrl: makeLichessAnalysisUrl(after.variant, after.fen),
        evaluation: evaluationView(after, opinion),
      },
    };
  }
  if (
    plies === before.san.length &&
    after.fen === before.fen &&
    after.whiteClockMs === before.whiteClockMs &&
    after.blackClockMs === before.blackClockMs &&
    after.clockTicking === before.clockTicking &&
    after.ended === before.ended &&
    sameHoldings(before.holdings, after.holdings) &&
    sameInfo(before, after)
  )
    return null;
  return { type: 'state', data: gameView(id, after, partner, opinion) };
}

export function gameView(
  id: string,
  snap: GameSnapshot,
  partner: GameSnapshot | undefined,
  opinion: EngineOpinion | null,
): GameView {
  return {
    id,
    board: boardView(snap),
    partner: partner === undefined ? null : boardView(partner),
    evaluation: evaluationView(snap, opinion),
    said: snap.said ?? [],
  };
}

/**
 * The evaluation the page shows with `snap`: the engine's of this position, or of an earlier one
 * while it thinks (the bar stays rather than blinking at every move); null for none or for a
 * position the game has left (a takeback).
 */
export function evaluationView(snap: GameSnapshot, opinion: EngineOpinion | null): EvaluationView | null {
  if (opinion === null || opinion.ply < 0 || opinion.ply > snap.san.length) return null;
  if (opinion.ply === snap.san.length && opinion.fen !== snap.fen) return null;
  return { ply: opinion.ply, text: makeEvaluationText(opinion.score), white: whiteShare(opinion.score) };
}

/** Names and ratings: what a move event does not carry. */
function sameInfo(a: GameSnapshot, b: GameSnapshot): boolean {
  return (
    a.white === b.white &&
    a.black === b.black &&
    a.whiteRating === b.whiteRating &&
    a.blackRating === b.blackRating &&
    a.result === b.result
  );
}

function sameHoldings(a: Holdings | null, b: Holdings | null): boolean {
  return a === b || (a !== null && b !== null && a.white === b.white && a.black === b.black);
}

/** An event as server-sent-events text: one `event:` line and one `data:` line (JSON has no line break). */
export function makeEventText(event: WebEvent | FrontEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`;
}
