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

/** One board with its two player bars, its file letters (and the result strip when there is one). */
export interface BoardPanel {
  x: number;
  y: number;
  topBar: Rect;
  /** Pieces in hand of the player at the top: a strip of their own, between bar and board. */
  topHand: Rect | null;
  board: Rect;
  /** The file letters, on a strip of their own under the board: legible at Discord's size. */
  files: Rect;
  bottomHand: Rect | null;
  bottomBar: Rect;
  footer: Rect | null;
}

/** Parts of a bar, relative to the bar's left edge. */
export interface BarParts {
  /** Turn marker, name and rating. */
  info: { x: number; w: number };
  /** Pieces in hand, across their own strip (topHand, bottomHand): names are never cut for them. */
  holdings: { x: number; w: number } | null;
  clock: { x: number; w: number };
}

export interface Layout {
  width: number;
  height: number;
  square: number;
  barHeight: number;
  /** The one board of the picture (a bughouse partner board has a picture of its own). */
  panel: BoardPanel;
  /** The evaluation bar, the whole height of the image; null when there is none. */
  evaluationBar: Rect | null;
  bar: BarParts;
  turnMarkerWidth: number;
  /** Holdings: piece icon size, count font, width per piece kind. */
  holdingIcon: number;
  holdingSlot: number;
  fontPx: {
    name: number;
    clock: number;
    count: number;
    footer: number;
    coordinate: number;
    files: number;
  };
}

export interface LayoutNeeds {
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
  // Pieces in hand about 30 px tall at Discord's ~400 px display, on a strip of their own.
  const handHeight = needs.holdings ? Math.round(barHeight * 0.9) : 0;
  // File letters about 10 px tall (x-height) at Discord's ~400 px display (test/render/legible).
  const filesHeight = Math.round(square * 0.45);
  const holdingIcon = Math.round(barHeight * 0.8);
  const holdingSlot = Math.round(holdingIcon * 1.45);
  const clockWidth = Math.round(barHeight * 2.75);
  const infoWidth = boardPx - clockWidth;
  const evaluationWidth = needs.evaluation ? Math.round(square / 3) : 0;
  const panelHeight = 2 * barHeight + 2 * handHeight + boardPx + filesHeight + footerHeight;
  const x = evaluationWidth;
  const boardY = barHeight + handHeight;
  const filesY = boardY + boardPx;
  const bottomHandY = filesY + filesHeight;
  const bottomBarY = bottomHandY + handHeight;
  const hand = (y: number): Rect | null => (needs.holdings ? { x, y, w: boardPx, h: handHeight } : null);
  const panel: BoardPanel = {
    x,
    y: 0,
    topBar: { x, y: 0, w: boardPx, h: barHeight },
    topHand: hand(barHeight),
    board: { x, y: boardY, w: boardPx, h: boardPx },
    files: { x, y: filesY, w: boardPx, h: filesHeight },
    bottomHand: hand(bottomHandY),
    bottomBar: { x, y: bottomBarY, w: boardPx, h: barHeight },
    footer: needs.footer ? { x, y: bottomBarY + barHeight, w: boardPx, h: footerHeight } : null,
  };
  const width = evaluationWidth + boardPx;
  const height = panelHeight;
  return {
    width,
    height,
    square,
    barHeight,
    panel,
    evaluationBar: needs.evaluation ? { x: 0, y: 0, w: evaluationWidth, h: height } : null,
    bar: {
      info: { x: 0, w: infoWidth },
      holdings: needs.holdings ? { x: 0, w: boardPx } : null,
      clock: { x: infoWidth, w: clockWidth },
    },
    // A side-to-move mark wide enough to see at Discord's ~400 px display (about 8 px there).
    turnMarkerWidth: Math.max(4, Math.round(barHeight / 5)),
    holdingIcon,
    holdingSlot,
    fontPx: {
      name: Math.round(barHeight * 0.4),
      clock: Math.round(barHeight * 0.46),
      count: Math.max(9, Math.round(barHeight * 0.38)),
      footer: Math.round(footerHeight * 0.4),
      // Digits about 9 px tall once Discord shows the picture ~400 px wide (test/render/legible).
      coordinate: Math.max(9, Math.round(square * 0.3)),
      files: Math.round(square * 0.4),
    },
  };
}
