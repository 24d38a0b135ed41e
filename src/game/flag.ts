// Which flag fell, read from the end of a game in the words of FICS (every dialect): the clocks of
// the last board show the time left after a move, not the 0:00 the loser reached.
import type { Color } from 'chessops/types';

export interface FlagFacts {
  ended: boolean;
  reason: string | null;
  white: string;
  black: string;
}

/**
 * `X forfeits on time`, `X ran out of time and Y has no material to mate`, `Game drawn because
 * both players ran out of time`.
 */
export function flaggedSides(game: FlagFacts): Record<Color, boolean> {
  const { reason } = game;
  if (!game.ended || reason === null) return { white: false, black: false };
  if (/\bboth players ran out of time\b/i.test(reason)) return { white: true, black: true };
  const loser = /^(\S+) (?:forfeits on time|ran out of time)\b/.exec(reason)?.[1]?.toLowerCase();
  return { white: loser === game.white.toLowerCase(), black: loser === game.black.toLowerCase() };
}

/**
 * The clocks after each ply with a fallen flag's last one at 0: a PGN reader shows each side's
 * last `%clk`, and the side that lost on time reached 0:00, whatever it had after its last move.
 * The last ply is the side not to move's; the one before it, the side to move's.
 */
export function clocksWithFlags(
  clocksMs: readonly (number | null)[],
  sideToMove: Color,
  flagged: Record<Color, boolean>,
): (number | null)[] {
  const clocks = [...clocksMs];
  for (const side of ['white', 'black'] as const) {
    const last = clocks.length - (side === sideToMove ? 2 : 1);
    if (flagged[side] && last >= 0 && clocks[last] !== null) clocks[last] = 0;
  }
  return clocks;
}
