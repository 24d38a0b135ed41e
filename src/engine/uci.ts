// The engine's side of UCI, as far as Kibitz reads it: `info ... score cp|mate ... pv ...` lines and
// `bestmove`, and the evaluation people read (`+0.8`, `#-3`, always from White's point of view).

/** Centipawns, or moves to mate (negative: the side counted from is mated). */
export type Score = { cp: number } | { mate: number };

export interface Evaluation {
  /** From White's point of view. */
  score: Score;
  /** The engine's best move in UCI (`e2e4`, `e1g1`, chess960 castling as king takes rook); null when none. */
  bestMove: string | null;
  depth: number;
}

/** What one `info` line says about the main line; null for lines without a score. */
export interface InfoLine {
  depth: number;
  /** From the side to move's point of view, as UCI gives it. */
  score: Score;
  /** A bound (`lowerbound`/`upperbound`) rather than an exact score. */
  bound: boolean;
  pv: string[];
}

const UCI_MOVE = /^[a-h][1-8][a-h][1-8][nbrq]?$/;

/** Reads an `info` line; other lines and secondary lines (`multipv 2`) are null. */
export function parseInfo(line: string): InfoLine | null {
  const tokens = line.trim().split(/\s+/);
  if (tokens[0] !== 'info') return null;
  let depth: number | null = null;
  let score: Score | null = null;
  let bound = false;
  let pv: string[] = [];
  for (let i = 1; i < tokens.length; i++) {
    const token = tokens[i];
    if (token === 'depth') depth = integer(tokens[++i]);
    else if (token === 'multipv' && tokens[i + 1] !== '1') return null;
    else if (token === 'score') {
      const kind = tokens[++i];
      const value = integer(tokens[++i]);
      if (value === null || (kind !== 'cp' && kind !== 'mate')) return null;
      score = kind === 'cp' ? { cp: value } : { mate: value };
    } else if (token === 'lowerbound' || token === 'upperbound') bound = true;
    else if (token === 'pv') {
      pv = tokens.slice(i + 1).filter((move) => UCI_MOVE.test(move));
      break;
    } else if (token === 'string') return null;
  }
  return depth === null || score === null ? null : { depth, score, bound, pv };
}

/** The move of a `bestmove` line (null for `(none)`), or undefined for any other line. */
export function parseBestMove(line: string): string | null | undefined {
  const tokens = line.trim().split(/\s+/);
  if (tokens[0] !== 'bestmove') return undefined;
  const move = tokens[1] ?? '';
  return UCI_MOVE.test(move) ? move : null;
}

function integer(token: string | undefined): number | null {
  if (token === undefined || !/^-?\d{1,9}$/.test(token)) return null;
  return Number(token);
}

/** A score from the side to move's point of view turned to White's. */
export function whiteScore(score: Score, sideToMove: 'white' | 'black'): Score {
  if (sideToMove === 'white') return score;
  return 'cp' in score ? { cp: -score.cp } : { mate: -score.mate };
}

/** `+0.8`, `-1.5`, `0.0`, `#3` (White mates in 3), `#-3` (Black mates in 3). */
export function makeEvaluationText(score: Score): string {
  if ('mate' in score) return `#${score.mate}`;
  const pawns = score.cp / 100;
  const text = Math.abs(pawns) >= 10 ? Math.abs(pawns).toFixed(0) : Math.abs(pawns).toFixed(1);
  if (text === '0.0') return '0.0';
  return `${pawns > 0 ? '+' : '-'}${text}`;
}
