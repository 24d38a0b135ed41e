// The live page's script (a plain ES module, served as is): follows the game's push stream
// (/g/<id>/events) and shows it with chessground. Every text goes in through textContent, never as
// HTML. Clocks tick here between updates; each update sets them to the server's values again.
// An engine evaluation, when a post asked for one, is a bar beside the main board and a line below.
// Looking back: a click on a move or the arrow keys show an earlier position; "Back to live" (or
// End) follows the game again. The page never scrolls itself: only the move list, within itself.
// Move sounds (sound.js) only for moves that arrive while the page is open, once turned on.
import { element, lastMoveOf, playerText, showClock, viewBoard } from './common.js';
import { setupSound, soundOfMove } from './sound.js';

const root = document.getElementById('live');
const boardsEl = document.getElementById('boards');
const movesEl = document.getElementById('moves');
const partnerMovesEl = document.getElementById('partner-moves');
const partnerSectionEl = document.getElementById('partner-section');
const partnerTitleEl = document.getElementById('partner-title');
const playSound = setupSound(document.getElementById('sound'));
const saidEl = document.getElementById('said');
/** Kibitzes and whispers kept on the page, as the game state keeps them. */
const SAID_SHOWN = 300;
const resultEl = document.getElementById('result');
const statusEl = document.getElementById('status');
const titleEl = document.getElementById('title');
const kindEl = document.getElementById('kind');
const openingEl = document.getElementById('opening');
const spokenEl = document.getElementById('spoken');
const toLiveEl = document.getElementById('to-live');
const analyseEl = document.getElementById('analyse');

const ROLES = { P: 'pawn', N: 'knight', B: 'bishop', R: 'rook', Q: 'queen', K: 'king' };
/** White at the bottom of the main board unless flipped; the partner board the other way round. */
let flipped = false;
/** Slot ('main' | 'partner') -> { view, receivedAt, cg, el, parts }. */
const boards = new Map();
/** The main board's evaluation ({ ply, text, white }), or null: no bar. */
let evaluation = null;
/** The ply shown on the main board while looking back; null while following the game. */
let reviewPly = null;

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
  // A text alternative for the board (its squares are drawn pieces a screen reader cannot read).
  wrap.setAttribute('role', 'img');
  const bottom = playerBar(el);
  const line = element('p', 'eval-text', el);
  line.hidden = true;
  const cg = viewBoard(element('div', 'board', wrap), true);
  return { el, top, bottom, cg, bar, fill, line, wrap, view: null, receivedAt: 0 };
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

/** Square name -> index 0..63 (a1 = 0). */
function squareIndex(name) {
  return (name.charCodeAt(1) - 49) * 8 + (name.charCodeAt(0) - 97);
}

/**
 * The pieces after the first `plies` moves from `startFen`, as a FEN's first field: enough for
 * chessground. Castling is the king's move (the rook follows), en passant and drops are read.
 */
function placementAfter(startFen, ucis, plies) {
  const squares = new Array(64).fill(null);
  const fields = startFen.split(' ');
  fields[0]
    .replace(/\[.*$/, '')
    .split('/')
    .forEach((row, r) => {
      let file = 0;
      for (const ch of row.replace(/~/g, '')) {
        if (/\d/.test(ch)) file += Number(ch);
        else squares[(7 - r) * 8 + file++] = ch;
      }
    });
  const whiteFirst = fields[1] !== 'b';
  for (let i = 0; i < plies; i++) {
    const uci = ucis[i];
    const white = (i % 2 === 0) === whiteFirst;
    const to = squareIndex(uci.slice(2, 4));
    if (uci[1] === '@') {
      squares[to] = white ? uci[0].toUpperCase() : uci[0].toLowerCase();
      continue;
    }
    const from = squareIndex(uci.slice(0, 2));
    const piece = squares[from];
    if (!piece) continue;
    const pawn = piece.toLowerCase() === 'p';
    if (pawn && from % 8 !== to % 8 && !squares[to]) squares[to + (white ? -8 : 8)] = null;
    if (piece.toLowerCase() === 'k' && Math.abs((from % 8) - (to % 8)) === 2) {
      const rank = to - (to % 8);
      const kingside = to % 8 > from % 8;
      const rookFrom = kingside ? rank + 7 : rank;
      squares[kingside ? to - 1 : to + 1] = squares[rookFrom];
      squares[rookFrom] = null;
    }
    squares[to] = uci.length > 4 ? (white ? uci[4].toUpperCase() : uci[4].toLowerCase()) : piece;
    squares[from] = null;
  }
  const rows = [];
  for (let r = 7; r >= 0; r--) {
    let row = '';
    let empty = 0;
    for (let f = 0; f < 8; f++) {
      const piece = squares[r * 8 + f];
      if (!piece) empty++;
      else {
        row += (empty || '') + piece;
        empty = 0;
      }
    }
    rows.push(row + (empty || ''));
  }
  return rows.join('/');
}

/** `23. Nf3, check`: a move as a screen reader says it. */
function moveWords(view, ply) {
  const number = startPly(view.startFen) + ply - 1;
  const san = view.san[ply - 1];
  const mark = san.endsWith('#') ? ', checkmate' : san.endsWith('+') ? ', check' : '';
  return `${Math.floor(number / 2) + 1}${number % 2 === 0 ? '.' : '...'} ${san.replace(/[+#]$/, '')}${mark}`;
}

/** What the board shows, in words: players, side to move or result, last move, position. */
function boardWords(view, ply) {
  const state = view.ended
    ? `Game over: ${[view.result, view.reason].filter(Boolean).join(', ')}`
    : `${view.sideToMove === 'white' ? 'White' : 'Black'} to move`;
  const shown = ply === view.san.length ? state : `Looking back at move ${moveWords(view, ply)}`;
  const last = ply > 0 && ply === view.san.length ? `. Last move ${moveWords(view, ply)}` : '';
  return `Board: ${view.white} (White) against ${view.black} (Black). ${shown}${last}.`;
}

/** Shows a board's view: position, players, pockets, clocks. */
function render(slot) {
  const b = board(slot);
  const view = b.view;
  const orientation = orientationOf(slot);
  const ply = slot === 'main' && reviewPly !== null ? reviewPly : view.san.length;
  const reviewing = ply !== view.san.length;
  b.cg.set({
    fen: reviewing ? placementAfter(view.startFen, view.uci, ply) : view.fen,
    orientation,
    turnColor: view.sideToMove,
    check: !reviewing && view.check ? view.sideToMove : false,
    lastMove: lastMoveOf(view.uci[ply - 1]),
  });
  b.wrap.setAttribute('aria-label', boardWords(view, ply));
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
      showClock(bar.clock, view, color, now - b.receivedAt);
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

/**
 * A move list: one row per move number, White's and Black's moves side by side; the main board's
 * moves are buttons (to look back), the partner board's plain text.
 */
function listMoves(list, view, buttons) {
  list.replaceChildren();
  const first = startPly(view.startFen);
  let row = null;
  view.san.forEach((san, i) => {
    const ply = first + i;
    if (row === null || ply % 2 === 0) {
      row = element('li', null, list);
      row.value = Math.floor(ply / 2) + 1;
      if (ply % 2 === 1) element('span', 'san empty', row).textContent = '…';
    }
    const move = element(buttons ? 'button' : 'span', 'san', row);
    if (buttons) move.type = 'button';
    move.dataset.ply = String(i + 1);
    move.textContent = san;
  });
}

function showMoves(view) {
  listMoves(movesEl, view, true);
  markCurrent();
}

/** The partner board's moves, under a heading naming its players; the list keeps its end in view. */
function showPartnerMoves(view) {
  partnerSectionEl.hidden = false;
  partnerTitleEl.textContent = `Partner board: ${view.white} vs ${view.black}`;
  listMoves(partnerMovesEl, view, false);
  partnerMovesEl.scrollTop = partnerMovesEl.scrollHeight;
}

/** Marks the move shown; while following the game, the list (only the list) keeps its end in view. */
function markCurrent() {
  const view = boards.get('main')?.view;
  if (!view) return;
  const ply = reviewPly ?? view.san.length;
  for (const el of movesEl.querySelectorAll('.san.current')) {
    el.classList.remove('current');
    el.removeAttribute('aria-current');
  }
  const current = movesEl.querySelector(`.san[data-ply="${ply}"]`);
  current?.classList.add('current');
  current?.setAttribute('aria-current', 'step');
  toLiveEl.hidden = reviewPly === null;
  if (reviewPly === null) movesEl.scrollTop = movesEl.scrollHeight;
  else if (current) {
    const top = current.offsetTop - movesEl.offsetTop;
    if (top < movesEl.scrollTop || top + current.offsetHeight > movesEl.scrollTop + movesEl.clientHeight)
      movesEl.scrollTop = top - movesEl.clientHeight / 2;
  }
}

/** Shows the position after `ply` moves; the last one goes back to following the game. */
function review(ply) {
  const main = boards.get('main');
  if (!main || !main.view) return;
  const last = main.view.san.length;
  const clamped = Math.max(0, Math.min(last, ply));
  reviewPly = clamped === last ? null : clamped;
  render('main');
  markCurrent();
}

function showHeader(view) {
  titleEl.textContent = `${playerText(view.white, view.whiteRating)} vs ${playerText(view.black, view.blackRating)}`;
  kindEl.textContent = view.kind;
  showTitle(view);
}

/** The tab says who is to move, or the result, so that a background tab tells the game's state. */
function showTitle(view) {
  const state = view.ended
    ? [view.result, view.reason].filter(Boolean).join(' ')
    : `${view.sideToMove === 'white' ? 'White' : 'Black'} to move`;
  document.title = `${state} · ${view.white} vs ${view.black} · Kibitz`;
}

/** The lichess link follows the game's position (the server makes the URL; none for bughouse). */
function showAnalysis(view) {
  analyseEl.hidden = !view.analysisUrl;
  if (view.analysisUrl) analyseEl.href = view.analysisUrl;
  else analyseEl.removeAttribute('href');
}

function showOpening(view) {
  openingEl.textContent = view.opening ? `${view.opening.eco} ${view.opening.name}` : '';
}

function showResult(view) {
  resultEl.textContent = view.ended ? [view.result, view.reason].filter(Boolean).join(' · ') : '';
  if (view.ended) {
    statusEl.textContent = 'Game over';
    spokenEl.textContent = `Game over: ${[view.result, view.reason].filter(Boolean).join(', ')}`;
  }
}

function showState(state) {
  const now = performance.now();
  const main = board('main');
  // The end heard live (not a page opened on a finished game) has its sound.
  if (main.view && !main.view.ended && state.board.ended) playSound('end');
  main.view = state.board;
  main.receivedAt = now;
  if (reviewPly !== null && reviewPly > state.board.san.length) reviewPly = null;
  if (state.partner) {
    const partner = board('partner');
    partner.view = state.partner;
    partner.receivedAt = now;
    render('partner');
    showPartnerMoves(state.partner);
  }
  root.classList.toggle('bughouse', state.partner !== null);
  evaluation = state.evaluation;
  render('main');
  showHeader(state.board);
  showMoves(state.board);
  showOpening(state.board);
  showAnalysis(state.board);
  showResult(state.board);
  showSaid(state.said);
}

/** One kibitz or whisper under the move list: text only, never markup. */
function addSaid(said) {
  const item = element('li', said.whisper ? 'whisper' : 'kibitz', saidEl);
  element('b', null, item).textContent = said.handle;
  item.append(`${said.whisper ? ' whispers' : ' kibitzes'}: ${said.text}`);
  while (saidEl.children.length > SAID_SHOWN) saidEl.firstElementChild.remove();
  saidEl.scrollTop = saidEl.scrollHeight;
}

function showSaid(list) {
  saidEl.replaceChildren();
  for (const said of list) addSaid(said);
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
    'analysisUrl',
  ])
    view[key] = move[key];
  showAnalysis(view);
  evaluation = move.evaluation;
  main.receivedAt = performance.now();
  render('main');
  showMoves(view);
  showTitle(view);
  spokenEl.textContent = moveWords(view, move.ply);
  playSound(soundOfMove(move.san));
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
  showPartnerMoves(view);
}

document.getElementById('flip').addEventListener('click', () => {
  flipped = !flipped;
  for (const slot of boards.keys()) if (boards.get(slot).view) render(slot);
});

movesEl.addEventListener('click', (e) => {
  const ply = e.target.dataset?.ply;
  if (ply !== undefined) review(Number(ply));
});
toLiveEl.addEventListener('click', () => review(Infinity));
document.addEventListener('keydown', (e) => {
  const view = boards.get('main')?.view;
  if (!view || e.altKey || e.ctrlKey || e.metaKey) return;
  const ply = reviewPly ?? view.san.length;
  const to = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: Infinity }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  review(to);
});

const events = new EventSource(root.dataset.events);
events.addEventListener('open', () => {
  statusEl.textContent = boards.get('main')?.view?.ended ? 'Game over' : 'Live';
});
events.addEventListener('error', () => {
  if (boards.get('main')?.view?.ended) return;
  statusEl.textContent =
    events.readyState === EventSource.CLOSED
      ? 'This game is no longer relayed.'
      : 'Connection lost: reconnecting…';
});
events.addEventListener('state', (e) => showState(JSON.parse(e.data)));
events.addEventListener('move', (e) => showMove(JSON.parse(e.data)));
events.addEventListener('partner', (e) => showPartner(JSON.parse(e.data)));
events.addEventListener('evaluation', (e) => showEvaluationEvent(JSON.parse(e.data)));
events.addEventListener('said', (e) => addSaid(JSON.parse(e.data)));
setInterval(tick, 100);
