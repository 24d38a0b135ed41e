// The front page's script: the strongest games as live mini-boards (chessground, view only), each a
// link to its page, fed by the page's one push stream (/events): `front` names the boards in order,
// `mini` brings one board's change. Clocks tick here between updates. The games beyond the boards
// stay in the list of links under them; a board's own link is hidden from that list.
import { element, lastMoveOf, playerText, showClock, viewBoard } from './common.js';

const root = document.getElementById('front');
const minisEl = document.getElementById('minis');
const listEl = document.getElementById('games');
const emptyEl = document.getElementById('empty');
/** Page id -> { el, cg, top, bottom, result, view, receivedAt }. */
const minis = new Map();

function playerRow(parent) {
  const row = element('div', 'player', parent);
  return { row, name: element('span', 'name', row), clock: element('span', 'clock', row) };
}

function makeMini(id) {
  const el = element('a', 'mini');
  el.href = `/g/${encodeURIComponent(id)}`;
  el.dataset.id = id;
  const top = playerRow(el);
  const wrap = element('div', 'board-wrap', el);
  const cg = viewBoard(element('div', 'board', wrap), false);
  const bottom = playerRow(el);
  const kind = element('p', 'mini-kind', el);
  return { el, cg, top, bottom, kind, view: null, receivedAt: 0 };
}

/** Shows a board's state: position, players (White below), clocks, and the result at the end. */
function show(mini, view) {
  mini.view = view;
  mini.receivedAt = performance.now();
  mini.cg.set({
    fen: view.fen,
    turnColor: view.sideToMove,
    check: view.check ? view.sideToMove : false,
    lastMove: lastMoveOf(view.lastMove),
  });
  mini.top.name.textContent = playerText(view.black, view.blackRating);
  mini.bottom.name.textContent = playerText(view.white, view.whiteRating);
  mini.kind.textContent = view.ended ? `${view.kind} · ${view.result ?? 'over'}` : view.kind;
  mini.el.classList.toggle('ended', view.ended);
  mini.el.setAttribute(
    'aria-label',
    `${view.white} against ${view.black}, ${view.kind}: ${
      view.ended ? `over, ${view.result ?? ''}` : `${view.sideToMove === 'white' ? 'White' : 'Black'} to move`
    }`,
  );
  tickOne(mini);
}

function tickOne(mini) {
  const elapsed = performance.now() - mini.receivedAt;
  for (const [player, color] of [
    [mini.top, 'black'],
    [mini.bottom, 'white'],
  ]) {
    showClock(player.clock, mini.view, color, elapsed);
    player.row.classList.toggle('to-move', !mini.view.ended && mini.view.sideToMove === color);
  }
}

function tick() {
  for (const mini of minis.values()) tickOne(mini);
}

/** A board's link leaves the list below while the board shows it; the list goes when empty. */
function hideLinks() {
  if (emptyEl) emptyEl.hidden = minis.size > 0;
  if (!listEl) return;
  let left = 0;
  for (const item of listEl.children) {
    item.hidden = minis.has(item.dataset.id);
    if (!item.hidden) left++;
  }
  listEl.hidden = left === 0;
}

function showMini(view) {
  let mini = minis.get(view.id);
  if (!mini) {
    mini = makeMini(view.id);
    minis.set(view.id, mini);
    minisEl.append(mini.el);
    hideLinks();
  }
  show(mini, view);
}

/** The boards the server shows now, in its order: kept ones keep their board, others go. */
function showFront(views) {
  const ids = new Set(views.map((view) => view.id));
  for (const [id, mini] of minis) {
    if (ids.has(id)) continue;
    mini.cg.destroy();
    mini.el.remove();
    minis.delete(id);
  }
  for (const view of views) {
    showMini(view);
    minisEl.append(minis.get(view.id).el);
  }
  hideLinks();
}

const events = new EventSource(root.dataset.events);
events.addEventListener('front', (e) => showFront(JSON.parse(e.data)));
events.addEventListener('mini', (e) => showMini(JSON.parse(e.data)));
setInterval(tick, 100);
