// What a scene's FEN and last move mean on the board: pieces, check, highlights, holdings.
import type { Board } from 'chessops/board';
import { parseFen } from 'chessops/fen';
import type { Color, Role, Square } from 'chessops/types';
import { charToRole, parseUci } from 'chessops/util';
import { setupPosition } from 'chessops/variant';
import type { BoardScene, RenderResult } from './scene.js';

/** Roles in the order holdings are shown. */
export const HOLDING_ROLES: readonly Role[] = ['queen', 'rook', 'bishop', 'knight', 'pawn'];

export type HoldingCounts = ReadonlyMap<Role, number>;

export interface ScenePosition {
  board: Board;
  turn: Color;
  fullmoves: number;
  /** Square of the king in check, if any. */
  check: Square | null;
  /** Squares of the last move (one for a drop). */
  highlighted: Square[];
  /** Null when the game has no holdings. */
  holdings: { white: HoldingCounts; black: HoldingCounts } | null;
}

function countLetters(letters: string): Map<Role, number> {
  const counts = new Map<Role, number>();
  for (const ch of letters) {
    const role = charToRole(ch);
    if (role && role !== 'king') counts.set(role, (counts.get(role) ?? 0) + 1);
  }
  return counts;
}

export function readPosition(scene: BoardScene): RenderResult<ScenePosition> {
  const parsed = parseFen(scene.fen.trim());
  if (parsed.isErr) return { ok: false, error: `invalid FEN "${scene.fen}" (${parsed.error.message})` };
  const setup = parsed.value;

  let highlighted: Square[] = [];
  if (scene.lastMove) {
    const move = parseUci(scene.lastMove);
    if (!move) return { ok: false, error: `invalid last move "${scene.lastMove}" (expected UCI like e2e4)` };
    highlighted = 'from' in move ? [move.from, move.to] : [move.to];
  }

  // Check needs a legal-enough position for the rules; when chessops rejects one (odd wild
  // setups), the board is still drawn, without the mark.
  const position = setupPosition(scene.rules ?? 'chess', setup);
  const check =
    position.isOk && position.value.isCheck() ? (position.value.board.kingOf(setup.turn) ?? null) : null;

  let holdings: ScenePosition['holdings'] = null;
  if (scene.holdings) {
    holdings = { white: countLetters(scene.holdings.white), black: countLetters(scene.holdings.black) };
  } else if (setup.pockets) {
    const { white, black } = setup.pockets;
    holdings = {
      white: new Map(HOLDING_ROLES.map((role) => [role, white[role]])),
      black: new Map(HOLDING_ROLES.map((role) => [role, black[role]])),
    };
  }
  return {
    ok: true,
    value: { board: setup.board, turn: setup.turn, fullmoves: setup.fullmoves, check, highlighted, holdings },
  };
}
