// Where everything goes, as a function of the board size alone (so GIF frames line up).

export const MIN_SIZE = 240;
export const MAX_SIZE = 1024;
export const DEFAULT_SIZE = 480;

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** One board with its two player bars (and the result strip when there is one). */
export interface BoardColumn {
  x: number;
  topBar: Rect;
  board: Rect;
  bottomBar: Rect;
  footer: Rect | null;
}

/** Parts of a bar, relative to the bar's left edge. */
export interface BarParts {
  /** Turn marker, name and rating. */
  info: { x: number; w: number };
  holdings: { x: number; w: number } | null;
  clock: { x: number; w: number };
}

export interface Layout {
  width: number;
  height: number;
  square: number;
  barHeight: number;
  columns: BoardColumn[];
  /** The evaluation bar, the whole height of the image; null when there is none. */
  evaluationBar: Rect | null;
  bar: BarParts;
  turnMarkerWidth: number;
  /** Holdings: piece icon size, count font, width per piece kind. */
  holdingIcon: number;
  holdingSlot: number;
  fontPx: { name: number; clock: number; count: number; footer: number; coordinate: number };
}

export interface LayoutNeeds {
  partner: boolean;
  footer: boolean;
  holdings: boolean;
  /** An evaluation bar left of the board(s); the board keeps its size and moves right. */
  evaluation?: boolean;
}

export function clampSize(size: number): number {
  return Math.min(MAX_SIZE, Math.max(MIN_SIZE, Math.round(size)));
}

export function computeLayout(size: number, needs: LayoutNeeds): Layout {
  const square = Math.floor(clampSize(size) / 8);
  const boardPx = square * 8;
  const barHeight = Math.round(boardPx / 10);
  // Room for two lines of a long result (it wraps rather than being cut).
  const footerHeight = needs.footer ? barHeight : 0;
  const gap = needs.partner ? Math.round(square / 2) : 0;
  const holdingIcon = Math.round(barHeight * 0.62);
  const holdingSlot = Math.round(barHeight * 0.74);
  const clockWidth = Math.round(barHeight * 2.75);
  const holdingsWidth = needs.holdings ? holdingSlot * 5 : 0;
  const infoWidth = boardPx - clockWidth - holdingsWidth;
  const evaluationWidth = needs.evaluation ? Math.round(square / 3) : 0;
  const height = 2 * barHeight + boardPx + footerHeight;
  const column = (left: number): BoardColumn => {
    const x = evaluationWidth + left;
    return {
      x,
      topBar: { x, y: 0, w: boardPx, h: barHeight },
      board: { x, y: barHeight, w: boardPx, h: boardPx },
      bottomBar: { x, y: barHeight + boardPx, w: boardPx, h: barHeight },
      footer: needs.footer ? { x, y: 2 * barHeight + boardPx, w: boardPx, h: footerHeight } : null,
    };
  };
  return {
    width: evaluationWidth + (needs.partner ? 2 * boardPx + gap : boardPx),
    height,
    square,
    barHeight,
    columns: needs.partner ? [column(0), column(boardPx + gap)] : [column(0)],
    evaluationBar: needs.evaluation ? { x: 0, y: 0, w: evaluationWidth, h: height } : null,
    bar: {
      info: { x: 0, w: infoWidth },
      holdings: needs.holdings ? { x: infoWidth, w: holdingsWidth } : null,
      clock: { x: infoWidth + holdingsWidth, w: clockWidth },
    },
    // A side-to-move mark wide enough to see at Discord's ~400 px display (about 8 px there).
    turnMarkerWidth: Math.max(4, Math.round(barHeight / 5)),
    holdingIcon,
    holdingSlot,
    fontPx: {
      name: Math.round(barHeight * 0.4),
      clock: Math.round(barHeight * 0.46),
      count: Math.max(8, Math.round(barHeight * 0.3)),
      footer: Math.round(footerHeight * 0.4),
      // Digits about 9 px tall once Discord shows the picture ~400 px wide (test/render/legible).
      coordinate: Math.max(9, Math.round(square * 0.3)),
    },
  };
}
