// The board as text, after FICS's style 1 board, for channels without images and for screen
// readers: upper-case letters, Black's marked with `*`, facts listed beside the ranks.
import type { Color } from 'chessops/types';
import { roleToChar } from 'chessops/util';
import { HOLDING_ROLES, readPosition, type HoldingCounts, type ScenePosition } from './position.js';
import { formatClock, resultText } from './format.js';
import type { BoardScene, RenderResult } from './scene.js';

const RULE = '       ---------------------------------';
const INNER_RULE = '       |---+---+---+---+---+---+---+---|';

function playerLabel(scene: BoardScene, color: Color): string {
  const { name, rating } = scene[color];
  return rating ? `${name} (${rating})` : name;
}

function holdingLetters(counts: HoldingCounts): string {
  const letters = HOLDING_ROLES.map((role) =>
    roleToChar(role)
      .toUpperCase()
      .repeat(counts.get(role) ?? 0),
  ).join('');
  return letters || '-';
}

const capital = (color: Color): string => (color === 'white' ? 'White' : 'Black');

function facts(scene: BoardScene, pos: ScenePosition): string[] {
  const lines = [`Move # : ${pos.fullmoves} (${capital(pos.turn)})`];
  if (scene.lastMove) lines.push(`Last move : ${scene.lastMove}`);
  if (pos.check !== null) lines.push(`${capital(pos.turn)} is in check`);
  for (const color of ['black', 'white'] as const) {
    const clockMs = scene[color].clockMs;
    if (clockMs !== null && clockMs !== undefined) {
      lines.push(`${capital(color)} Clock : ${formatClock(clockMs)}`);
    }
  }
  if (pos.holdings) {
    lines.push(`Black Holdings : ${holdingLetters(pos.holdings.black)}`);
    lines.push(`White Holdings : ${holdingLetters(pos.holdings.white)}`);
  }
  if (scene.result) lines.push(`Result : ${resultText(scene.result)}`);
  return lines;
}

function boardText(scene: BoardScene, pos: ScenePosition): string {
  const files = scene.orientation === 'white' ? [0, 1, 2, 3, 4, 5, 6, 7] : [7, 6, 5, 4, 3, 2, 1, 0];
  const ranks = scene.orientation === 'white' ? [7, 6, 5, 4, 3, 2, 1, 0] : [0, 1, 2, 3, 4, 5, 6, 7];
  const side = facts(scene, pos);
  const out = [`${playerLabel(scene, 'white')} vs. ${playerLabel(scene, 'black')}`, '', RULE];
  ranks.forEach((rank, row) => {
    const cells = files.map((file) => {
      const piece = pos.board.get(rank * 8 + file);
      if (!piece) return '   ';
      const letter = roleToChar(piece.role).toUpperCase();
      return piece.color === 'white' ? ` ${letter} ` : ` *${letter}`;
    });
    const fact = side[row];
    out.push(`    ${rank + 1}  |${cells.join('|')}|${fact ? `     ${fact}` : ''}`);
    if (row < 7) out.push(INNER_RULE);
  });
  out.push(RULE, `         ${files.map((f) => 'abcdefgh'[f]).join('   ')}`);
  // Facts that did not fit beside the eight ranks.
  out.push(...side.slice(8).map((fact) => `       ${fact}`));
  return out.join('\n');
}

/** The scene as plain text. */
export function renderText(scene: BoardScene): RenderResult<string> {
  const pos = readPosition(scene);
  return pos.ok ? { ok: true, value: boardText(scene, pos.value) } : pos;
}
