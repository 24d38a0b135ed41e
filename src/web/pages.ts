// The HTML of the front page and of a game's live page. Every text from a server, a file or a user
// goes through escapeHtml; the pages carry no inline script or style (the Content-Security-Policy
// allows neither): the board, the clocks and the move list are the client script's (client/live.js).
import type { GameSnapshot } from '../game/snapshot.js';
import { boardView } from './view.js';

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text safe inside an element or a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

function player(name: string, rating: string | null): string {
  return escapeHtml(rating !== null && rating !== '' ? `${name} (${rating})` : name);
}

function page(title: string, body: string, scripts: string[]): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/chessground.base.css">
<link rel="stylesheet" href="/assets/chessground.brown.css">
<link rel="stylesheet" href="/assets/chessground.cburnett.css">
<link rel="stylesheet" href="/assets/live.css">
${scripts.map((src) => `<script type="module" src="${src}"></script>`).join('\n')}
</head>
<body>
${body}
</body>
</html>
`;
}

/** The games relayed now, each linking to its page. */
export function frontPage(games: readonly { id: string; snapshot: GameSnapshot }[]): string {
  const rows = games.map(({ id, snapshot }) => {
    const view = boardView(snapshot);
    return `<li><a href="/g/${escapeHtml(id)}">${player(view.white, view.whiteRating)} vs ${player(view.black, view.blackRating)}</a> <span class="kind">${escapeHtml(view.kind)}</span></li>`;
  });
  const list =
    rows.length === 0
      ? '<p class="empty">No game is being relayed right now.</p>'
      : `<ol class="games">\n${rows.join('\n')}\n</ol>`;
  return page('Kibitz: live games', `<main class="front">\n<h1>Live games</h1>\n${list}\n</main>`, []);
}

/**
 * A game's live page: the players and the kind of game are written in (readable before the script
 * runs); the script fills in the boards and follows the game from `/g/<id>/events`.
 */
export function livePage(id: string, snapshot: GameSnapshot): string {
  const view = boardView(snapshot);
  const title = `${view.white} vs ${view.black}`;
  const safeId = escapeHtml(id);
  const body = `<main class="live" id="live" data-events="/g/${safeId}/events">
<header>
<h1><a href="/">Kibitz</a> <span id="title">${player(view.white, view.whiteRating)} vs ${player(view.black, view.blackRating)}</span></h1>
<p><span id="kind">${escapeHtml(view.kind)}</span>
<button type="button" id="flip">Flip board</button>
<a href="/g/${safeId}.pgn">PGN</a> <a href="/g/${safeId}.clv">ChessLive! file</a>
<a id="analyse" rel="noopener"${view.analysisUrl === null ? ' hidden' : ` href="${escapeHtml(view.analysisUrl)}"`}>Analyse on lichess</a></p>
</header>
<div class="stage">
<div class="boards" id="boards"></div>
<aside class="side">
<p class="opening" id="opening">${view.opening === null ? '' : escapeHtml(`${view.opening.eco} ${view.opening.name}`)}</p>
<ol class="moves" id="moves" aria-label="Moves: choose one, or use the arrow keys, to look back"></ol>
<ol class="said" id="said" aria-label="Kibitzes and whispers"></ol>
<p class="review"><button type="button" id="to-live" hidden>Back to live ⏭</button></p>
<p class="result" id="result"></p>
<p class="status" id="status">Connecting…</p>
</aside>
</div>
<p class="spoken" id="spoken" aria-live="polite"></p>
</main>`;
  return page(`${title} · Kibitz`, body, ['/assets/live.js']);
}

/** A short page for an error (unknown game, too many viewers). */
export function errorPage(title: string, text: string): string {
  return page(
    title,
    `<main class="front">\n<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(text)}</p>\n<p><a href="/">Live games</a></p>\n</main>`,
    [],
  );
}
