// What the live page (live.js) and the front page (front.js) both do: make elements, show a board,
// name players, read a move's squares, and show a clock that runs on the page between updates.
import { Chessground } from './chessground.js';
import { formatClock, LOW_CLOCK_MS } from './clock.js';

/** A board that only shows (chessground): the last move and a check marked, moves animated. */
export function viewBoard(el, coordinates) {
  return Chessground(el, {
    viewOnly: true,
    coordinates,
    animation: { enabled: true, duration: 150 },
    highlight: { lastMove: true, check: true },
    drawable: { enabled: false, visible: false },
  });
}

export function element(tag, className, parent) {
  const el = document.createElement(tag);
  if (className) el.className = className;
  if (parent) parent.appendChild(el);
  return el;
}

export function playerText(name, rating) {
  return rating ? `${name} (${rating})` : name;
}

/** chessground's last-move squares of a UCI move (a drop marks its square only). */
export function lastMoveOf(uci) {
  if (!uci) return undefined;
  if (uci[1] === '@') return [uci.slice(2, 4)];
  return [uci.slice(0, 2), uci.slice(2, 4)];
}

/**
 * A clock `elapsedMs` after the view arrived: the side to move's runs down while the game runs.
 * Returns whether it runs.
 */
export function showClock(el, view, color, elapsedMs) {
  const running = view.clockTicking && !view.ended && view.sideToMove === color;
  const ms = view[`${color}ClockMs`] - (running ? elapsedMs : 0);
  el.textContent = formatClock(ms);
  el.classList.toggle('running', running);
  el.classList.toggle('low', ms < LOW_CLOCK_MS);
  return running;
}
