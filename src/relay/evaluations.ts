// Engine evaluations of live posts: which posts asked for them (the Engine and Best move buttons,
// `/observe eval:`), which positions the engine pool is asked for, and what a post shows. The
// newest position of a game is the one asked for; an evaluation arrives after the board edit of
// its position went out and is shown with a later edit. Choices live in memory: after a restart
// a post shows no evaluation until someone turns it on again.
import type { SceneEvaluation } from '../../render/scene.js';
import { makeEvaluationText, type Evaluation, type Score } from '../engine/uci.js';
import type { EngineJob, EnginePool } from '../engine/pool.js';
import { parseUciMove, sanOf, startReplay, uciOf } from '../game/moves.js';
import { plyOfFen, type GameSnapshot } from '../game/snapshot.js';
import { gameKeyOf } from '../game/game-key.js';
import type { GameId } from '../game/game-id.js';

/** What a post asked for. */
export interface PostEngineChoice {
  /** Evaluation bar and text. */
  eval: boolean;
  /** The best move as an arrow (with the evaluation). */
  arrow: boolean;
}

export const ENGINE_OFF: PostEngineChoice = { eval: false, arrow: false };

/** What a post shows of the engine for one position. */
export interface EngineView {
  choice: PostEngineChoice;
  /** A line of the embed; null when the post has the engine off. */
  line: string | null;
  /** For the picture; null draws no bar. */
  scene: SceneEvaluation | null;
}

/** Said when the operator turned the engine on but no engine program was found. */
export const ENGINE_NOT_INSTALLED =
  'the engine is not installed on this bot (its operator has to install Stockfish or set KIBITZ_ENGINE_PATH)';

/** Games whose evaluations are kept for their end-of-game chart, most recent first out. */
const KEPT_GAMES = 256;

interface GameEvaluations {
  game: GameId;
  /** Evaluations by ply (0: the start position), as far as the engine got to them. */
  byPly: Map<number, Evaluation>;
  /** The position last asked for and its evaluation once known. */
  fen: string | null;
  latest: { fen: string; evaluation: Evaluation } | null;
}

export interface LiveEvaluationsOptions {
  /** Null when KIBITZ_ENGINE=on but the package is missing: posts say so. */
  pool: EnginePool | null;
}

export class LiveEvaluations {
  private readonly choices = new Map<number, PostEngineChoice>();
  private readonly games = new Map<string, GameEvaluations>();
  private readonly listeners: ((game: GameId, fen: string) => void)[] = [];

  constructor(private readonly options: LiveEvaluationsOptions) {}

  get installed(): boolean {
    return this.options.pool !== null;
  }

  /** Told when a game's newest position has its evaluation. */
  onEvaluated(listener: (game: GameId, fen: string) => void): void {
    this.listeners.push(listener);
  }

  /** The pool's results come here. */
  readonly result = (job: EngineJob, evaluation: Evaluation): void => {
    const game = this.games.get(job.key);
    if (game === undefined) return;
    game.byPly.set(plyOfFen(job.fen), evaluation);
    if (game.fen !== job.fen) return;
    game.latest = { fen: job.fen, evaluation };
    for (const listener of this.listeners) listener(game.game, job.fen);
  };

  choice(postId: number): PostEngineChoice {
    return this.choices.get(postId) ?? ENGINE_OFF;
  }

  setChoice(postId: number, choice: PostEngineChoice): void {
    if (choice.eval) this.choices.set(postId, choice);
    else this.choices.delete(postId);
  }

  /** The newest position of a game, asked for when one of the posts showing it wants it. */
  request(snapshot: GameSnapshot, postIds: readonly number[]): void {
    const pool = this.options.pool;
    if (pool === null || snapshot.ended || !postIds.some((id) => this.choice(id).eval)) return;
    const rules = engineRules(snapshot);
    if (rules === null) return;
    const key = gameKeyOf(snapshot);
    let game = this.games.get(key);
    if (game === undefined) {
      game = { game: snapshot.game, byPly: new Map(), fen: null, latest: null };
      this.games.set(key, game);
      if (this.games.size > KEPT_GAMES) this.games.delete(this.games.keys().next().value!);
    }
    game.fen = snapshot.fen;
    if (game.latest?.fen === snapshot.fen) return;
    pool.submit({ key, fen: snapshot.fen, chess960: rules === 'chess960' });
  }

  /** A game ended or no post shows it: nothing more of it is analysed (its evaluations stay). */
  release(snapshot: GameSnapshot): void {
    this.options.pool?.forget(gameKeyOf(snapshot));
  }

  /** The post is gone. */
  forget(postId: number): void {
    this.choices.delete(postId);
  }

  /** A game's evaluations by ply (0: the start position), White's point of view; empty if none. */
  evaluations(gameKey: string): ReadonlyMap<number, Evaluation> {
    return this.games.get(gameKey)?.byPly ?? new Map();
  }

  /**
   * The game's newest evaluation while its current position is asked for (a post wants it now):
   * of that position, or of an earlier one while the engine thinks; null otherwise. `ply` counts
   * from the game's start position (0).
   */
  latest(snapshot: GameSnapshot): { fen: string; ply: number; score: Score } | null {
    const game = this.games.get(gameKeyOf(snapshot));
    if (game === undefined || game.latest === null || game.fen !== snapshot.fen || snapshot.ended)
      return null;
    const { fen, evaluation } = game.latest;
    return { fen, ply: plyOfFen(fen) - plyOfFen(snapshot.startFen), score: evaluation.score };
  }

  view(snapshot: GameSnapshot, postId: number): EngineView {
    const choice = this.choice(postId);
    if (!choice.eval || snapshot.ended) return { choice, line: null, scene: null };
    if (!this.installed) return { choice, line: `Engine: ${ENGINE_NOT_INSTALLED}.`, scene: null };
    const rules = engineRules(snapshot);
    if (rules === null)
      return {
        choice,
        line: `Engine: no evaluation for ${snapshot.type ?? snapshot.variant} (this engine plays standard chess and Chess960 only).`,
        scene: null,
      };
    const latest = this.games.get(gameKeyOf(snapshot))?.latest ?? null;
    if (latest === null) return { choice, line: 'Engine: thinking…', scene: null };
    const text = makeEvaluationText(latest.evaluation.score);
    if (latest.fen !== snapshot.fen)
      // The bar keeps the last evaluation meanwhile rather than disappearing for a move.
      return { choice, line: `Engine: thinking… (last ${text})`, scene: { ...latest.evaluation.score } };
    const best = bestMove(snapshot, rules, latest.evaluation.bestMove);
    return {
      choice,
      line: `Engine: ${text}${best === null ? '' : ` · best ${best.san}`} (depth ${latest.evaluation.depth})`,
      scene: {
        ...latest.evaluation.score,
        ...(choice.arrow && best !== null ? { bestMove: best.arrow } : {}),
      },
    };
  }
}

/** The rules the engine is run with for a game, or null when it cannot play them. */
/** Pawns at which the end-of-game chart's evaluation line is past its edge: where mates are drawn. */
const MATE_PAWNS = 100;

/**
 * White's advantage in pawns after each of the snapshot's plies, for the end-of-game chart; null
 * where not evaluated, undefined when nothing was.
 */
export function chartEvaluations(
  snapshot: GameSnapshot,
  byPly: ReadonlyMap<number, Evaluation>,
): (number | null)[] | undefined {
  if (byPly.size === 0) return undefined;
  const first = plyOfFen(snapshot.startFen);
  return snapshot.san.map((_, i) => {
    const score = byPly.get(first + i + 1)?.score;
    if (score === undefined) return null;
    return 'mate' in score ? (score.mate > 0 ? MATE_PAWNS : -MATE_PAWNS) : score.cp / 100;
  });
}

export function engineRules(snapshot: GameSnapshot): 'chess' | 'chess960' | null {
  const { variant } = snapshot;
  return variant === 'chess' || variant === 'chess960' ? variant : null;
}

/** The engine's move in SAN and as an arrow (castling as the king's move); null if not legal here. */
function bestMove(
  snapshot: GameSnapshot,
  rules: 'chess' | 'chess960',
  uci: string | null,
): { san: string; arrow: string } | null {
  if (uci === null) return null;
  const replay = startReplay(rules, snapshot.fen);
  if (!replay.ok) return null;
  const move = parseUciMove(replay.value, uci);
  if (move === undefined) return null;
  return { san: sanOf(replay.value.pos, move), arrow: uciOf(replay.value.pos, move) };
}

/** Discord's edit limit: 5 edits of a channel's messages per 5 s. */
const EDIT_WINDOW_MS = 5_000;
/** Edits of a post in the window past which an evaluation-only edit waits: the rest are the moves'. */
const EVALUATION_EDIT_ROOM = 3;

/**
 * Keeps evaluation-only edits out of the moves' way: one goes out only while its post has had
 * fewer than 3 edits in the last 5 s, leaving Discord's other 2 to the next moves; otherwise it
 * waits for that room, or comes with the next move's edit if that is sooner.
 */
export class EditRoom {
  private readonly edits = new Map<number, number[]>();

  /** An edit of the post went out at `now`. */
  note(postId: number, now: number): void {
    const recent = this.recent(postId, now);
    recent.push(now);
    this.edits.set(postId, recent.slice(-EVALUATION_EDIT_ROOM));
  }

  /** How long an evaluation-only edit of the post waits from `now`: 0 when it may go. */
  waitMs(postId: number, now: number): number {
    const recent = this.recent(postId, now);
    return recent.length < EVALUATION_EDIT_ROOM ? 0 : recent[0]! + EDIT_WINDOW_MS - now;
  }

  forget(postId: number): void {
    this.edits.delete(postId);
  }

  private recent(postId: number, now: number): number[] {
    return (this.edits.get(postId) ?? []).filter((at) => now - at < EDIT_WINDOW_MS);
  }
}
