// The live page's script (a plain ES module, served as is): follows the game's push stream
// (/g/<id>/events) and shows it with chessground. Every text goes in through textContent, never as
// HTML. Clocks tick here between updates; each update sets them to the server's values again.
// An engine evaluation, when a post asked for one, is a bar beside the main board and a line below.
import { Chessground } from './chessground.js';

const root = document.getElementById('live');
const boardsEl = document.getElementById('boards');
const movesEl = document.getElementById('moves');
const resultEl = document.getElementById('result');
const statusEl = document.getElementById('status');
const titleEl = document.getElementById('title');
const kindEl = document.getElementById('kind');
const openingEl = document.getElementById('opening');

const ROLES = { P: 'pawn', N: 'knight', B: 'bishop', R: 'rook', Q: 'queen', K: 'king' };
/** White at the bottom of the main board unless flipped; the partner board the other way round. */
let flipped = false;
/** Slot ('main' | 'partner') -> { view, receivedAt, cg, el, parts }. */
const boards = new Map();
/** The main board's evaluation ({ ply, text, white }), or null: no bar. */
let evaluation = null;

function element(tag, className, parent) {
  const el = document.createElement(tag);
  if (className) el.className = className;
  if (parent) parent.appendChild(el);
  return el;
}

function playerBar(parent) {
  const bar = element('div', 'player', parent);
  const name = element('span', 'name', bar);
  const pocket = element('span', 'pocket cg-wrap', bar);
  const clock = element('span', 'clock', bar);
  return { bar, name, pocket, clock };
}

function makeBoard(slot) {
  const el = element('section', `game ${slot}`, boardsEl);
  el.dataset.slot = slot;
  const top = playerBar(el);
  const row = element('div', 'board-row', el);
  const bar = element('div', 'eval-bar', row);
  bar.hidden = true;
  // The line below says it in words: screen readers skip the bar.
  bar.setAttribute('aria-hidden', 'true');
  const fill = element('div', 'eval-white', bar);
  const wrap = element('div', 'board-wrap', row);
  const bottom = playerBar(el);
  const line = element('p', 'eval-text', el);
  line.hidden = true;
  const cg = Chessground(element('div', 'board', wrap), {
    viewOnly: true,
    coordinates: true,
    animation: { enabled: true, duration: 150 },
    highlight: { lastMove: true, check: true },
    drawable: { enabled: false, visible: false },
  });
  return { el, top, bottom, cg, bar, fill, line, view: null, receivedAt: 0 };
}

function board(slot) {
  let b = boards.get(slot);
  if (!b) {
    b = makeBoard(slot);
    boards.set(slot, b);
  }
  return b;
}

function orientationOf(slot) {
  const whiteBelow = slot === 'main' ? !flipped : flipped;
  return whiteBelow ? 'white' : 'black';
}

function lastMoveOf(uci) {
  if (!uci) return undefined;
  if (uci[1] === '@') return [uci.slice(2, 4)];
  return [uci.slice(0, 2), uci.slice(2, 4)];
}

function playerText(name, rating) {
  return rating ? `${name} (${rating})` : name;
}

function formatClock(ms) {
  const negative = ms < 0;
  const total = Math.floor(Math.abs(ms) / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  const text = h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
  return negative ? `-${text}` : text;
}

function showPocket(el, color, letters) {
  el.replaceChildren();
  if (!letters) return;
  const counts = new Map();
  for (const letter of letters) counts.set(letter, (counts.get(letter) ?? 0) + 1);
  for (const letter of 'QRBNP') {
    const count = counts.get(letter);
    if (!count) continue;
    const piece = element('piece', `${color} ${ROLES[letter]}`, el);
    piece.dataset.count = String(count);
    piece.title = `${count} ${ROLES[letter]}${count > 1 ? 's' : ''}`;
  }
}

/** Shows a board's view: position, players, pockets, clocks. */
function render(slot) {
  const b = board(slot);
  const view = b.view;
  const orientation = orientationOf(slot);
  b.cg.set({
    fen: view.fen,
    orientation,
    turnColor: view.sideToMove,
    check: view.check ? view.sideToMove : false,
    lastMove: lastMoveOf(view.uci[view.uci.length - 1]),
  });
  const [topColor, bottomColor] = orientation === 'white' ? ['black', 'white'] : ['white', 'black'];
  for (const [bar, color] of [
    [b.top, topColor],
    [b.bottom, bottomColor],
  ]) {
    bar.name.textContent = playerText(view[color], view[`${color}Rating`]);
    bar.clock.dataset.color = color;
    bar.pocket.hidden = view.holdings === null;
    showPocket(bar.pocket, color, view.holdings ? view.holdings[color] : '');
  }
  if (slot === 'main') showEvaluation(b, orientation);
  tick();
}

/**
 * The bar: White's share from White's side of the board (its height a custom property: the page's
 * policy forbids inline styles, not a script's). An evaluation of an earlier position is dimmed
 * while the engine thinks about the one shown, and said so, as the post says it.
 */
function showEvaluation(b, orientation) {
  b.bar.hidden = evaluation === null;
  b.line.hidden = evaluation === null;
  if (evaluation === null) return;
  const thinking = evaluation.ply !== b.view.san.length;
  b.fill.style.setProperty('--white', String(Math.min(1, Math.max(0, evaluation.white))));
  b.bar.classList.toggle('white-top', orientation === 'black');
  b.bar.classList.toggle('thinking', thinking);
  b.bar.title = `Engine: ${evaluation.text}`;
  b.line.textContent = thinking
    ? `Engine: thinking… (last ${evaluation.text})`
    : `Engine: ${evaluation.text}`;
}

/** The clocks: the side to move's runs down from its last known value while the game runs. */
function tick() {
  const now = performance.now();
  for (const b of boards.values()) {
    const view = b.view;
    if (!view) continue;
    for (const bar of [b.top, b.bottom]) {
      const color = bar.clock.dataset.color;
      const running = view.clockTicking && !view.ended && view.sideToMove === color;
      const ms = view[`${color}ClockMs`] - (running ? now - b.receivedAt : 0);
      bar.clock.textContent = formatClock(ms);
      bar.clock.classList.toggle('running', running);
      bar.bar.classList.toggle('to-move', !view.ended && view.sideToMove === color);
    }
  }
}

/** The move number of the ply after `startFen`'s position (FEN's fullmove and side fields). */
function startPly(fen) {
  const fields = fen.split(' ');
  const fullmove = Number(fields[5] ?? 1);
  return (
    (Number.isSafeInteger(fullmove) && fullmove > 0 ? fullmove - 1 : 0) * 2 + (fields[1] === 'b' ? 1 : 0)
  );
}

function showMoves(view) {
  movesEl.replaceChildren();
  const first = startPly(view.startFen);
  let row = null;
  view.san.forEach((san, i) => {
    const ply = first + i;
    if (row === null || ply % 2 === 0) {
      row = element('li', null, movesEl);
      row.value = Math.floor(ply / 2) + 1;
      if (ply % 2 === 1) element('span', 'san empty', row).textContent = '…';
    }
    element('span', 'san', row).textContent = san;
  });
  movesEl.lastElementChild?.scrollIntoView?.({ block: 'nearest' });
}

function showHeader(view) {
  titleEl.textContent = `${playerText(view.white, view.whiteRating)} vs ${playerText(view.black, view.blackRating)}`;
  kindEl.textContent = view.kind;
  document.title = `${view.white} vs ${view.black} · Kibitz`;
}

function showOpening(view) {
  openingEl.textContent = view.opening ? `${view.opening.eco} ${view.opening.name}` : '';
}

function showResult(view) {
  resultEl.textContent = view.ended ? [view.result, view.reason].filter(Boolean).join(' · ') : '';
}

function showState(state) {
  const now = performance.now();
  const main = board('main');
  main.view = state.board;
  main.receivedAt = now;
  if (state.partner) {
    const partner = board('partner');
    partner.view = state.partner;
    partner.receivedAt = now;
    render('partner');
  }
  root.classList.toggle('bughouse', state.partner !== null);
  evaluation = state.evaluation;
  render('main');
  showHeader(state.board);
  showMoves(state.board);
  showOpening(state.board);
  showResult(state.board);
}

function showMove(move) {
  const main = boards.get('main');
  if (!main || !main.view) return;
  const view = main.view;
  // A move that does not follow the one shown (never expected): the next full state mends it.
  if (move.ply !== view.san.length + 1) return;
  view.san.push(move.san);
  view.uci.push(move.uci);
  view.opening = move.opening;
  showOpening(view);
  for (const key of [
    'fen',
    'sideToMove',
    'whiteClockMs',
    'blackClockMs',
    'clockTicking',
    'check',
    'holdings',
  ])
    view[key] = move[key];
  evaluation = move.evaluation;
  main.receivedAt = performance.now();
  render('main');
  showMoves(view);
}

function showEvaluationEvent(next) {
  const main = boards.get('main');
  // An evaluation of a position the page has left (never expected): the next one comes.
  if (!main || !main.view || next.ply !== main.view.san.length) return;
  evaluation = next;
  showEvaluation(main, orientationOf('main'));
}

function showPartner(view) {
  const partner = board('partner');
  partner.view = view;
  partner.receivedAt = performance.now();
  root.classList.add('bughouse');
  render('partner');
}

document.getElementById('flip').addEventListener('click', () => {
  flipped = !flipped;
  for (const slot of boards.keys()) if (boards.get(slot).view) render(slot);
});

const events = new EventSource(root.dataset.events);
events.addEventListener('open', () => {
  statusEl.textContent = 'Live';
});
events.addEventListener('error', () => {
  statusEl.textContent =
    events.readyState === EventSource.CLOSED
      ? 'This game is no longer relayed.'
      : 'Connection lost: reconnecting…';
});
events.addEventListener('state', (e) => showState(JSON.parse(e.data)));
events.addEventListener('move', (e) => showMove(JSON.parse(e.data)));
events.addEventListener('partner', (e) => showPartner(JSON.parse(e.data)));
events.addEventListener('evaluation', (e) => showEvaluationEvent(JSON.parse(e.data)));
setInterval(tick, 100);
