// The HTML of the front page and of a game's live page. Every text from a server, a file or a user
// goes through escapeHtml; the pages carry no inline script or style (the Content-Security-Policy
// allows neither): the board, the clocks and the move list are the client script's (client/live.js).
import { DEFAULT_THEME, THEME_NAMES, themeByName, type ThemeName } from '../../render/theme.js';
import type { GameSnapshot } from '../game/snapshot.js';
import { boardView, type BoardView } from './view.js';

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

/** `Name (rating)`, as text. */
function playerText(name: string, rating: string | null): string {
  return rating !== null && rating !== '' ? `${name} (${rating})` : name;
}

function player(name: string, rating: string | null): string {
  return escapeHtml(playerText(name, rating));
}

function page(title: string, body: string, scripts: string[], meta: string[] = []): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
${meta.join('\n')}
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/chessground.base.css">
<link rel="stylesheet" href="/assets/chessground.brown.css">
<link rel="stylesheet" href="/assets/chessground.cburnett.css">
<link rel="stylesheet" href="/assets/live.css">
<link rel="stylesheet" href="/assets/themes.css">
${scripts.map((src) => `<script type="module" src="${src}"></script>`).join('\n')}
</head>
<body>
${body}
</body>
</html>
`;
}

/**
 * The games relayed now, each linking to its page; the script (client/front.js) shows the first
 * FRONT_BOARDS as live mini-boards, from the page's one stream (`/events`), and hides their links.
 */
export function frontPage(games: readonly { id: string; snapshot: GameSnapshot }[]): string {
  const rows = games.map(({ id, snapshot }) => {
    const view = boardView(snapshot);
    return `<li data-id="${escapeHtml(id)}"><a href="/g/${escapeHtml(id)}">${player(view.white, view.whiteRating)} vs ${player(view.black, view.blackRating)}</a> <span class="kind">${escapeHtml(view.kind)}</span></li>`;
  });
  const list =
    rows.length === 0
      ? '<p class="empty" id="empty">No game is being relayed right now.</p>'
      : `<ol class="games" id="games">\n${rows.join('\n')}\n</ol>`;
  return page(
    'Kibitz: live games',
    `<main class="front" id="front" data-events="/events">\n<h1>Live games</h1>\n<div class="minis" id="minis"></div>\n${list}\n</main>`,
    ['/assets/front.js'],
  );
}

/**
 * A game's live page: the players and the kind of game are written in (readable before the script
 * runs); the script fills in the boards and follows the game from `/g/<id>/events`.
 */
export function livePage(
  id: string,
  snapshot: GameSnapshot,
  publicUrl: string | null,
  theme: ThemeName = DEFAULT_THEME,
): string {
  const view = boardView(snapshot);
  const title = `${view.white} vs ${view.black}`;
  const safeId = escapeHtml(id);
  const themed = theme === DEFAULT_THEME ? '' : ` data-theme="${theme}"`;
  const body = `<main class="live" id="live" data-events="/g/${safeId}/events"${themed}>
<header>
<h1><a href="/">Kibitz</a> <span id="title">${player(view.white, view.whiteRating)} vs ${player(view.black, view.blackRating)}</span></h1>
<p><span id="kind">${escapeHtml(view.kind)}</span>
<button type="button" id="flip">Flip board</button>
<button type="button" id="sound" class="toggle" aria-pressed="false">Move sounds</button>
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
<section class="partner-moves" id="partner-section" hidden>
<h2 id="partner-title">Partner board</h2>
<ol class="moves" id="partner-moves" aria-label="Moves on the partner board"></ol>
</section>
</aside>
</div>
<p class="spoken" id="spoken" aria-live="polite"></p>
</main>`;
  return page(`${title} · Kibitz`, body, ['/assets/live.js'], previewTags(id, view, publicUrl, theme));
}

/**
 * The board colours of every theme but the default (chessground's brown), for `data-theme` on the
 * live page: a checkerboard of the theme's light and dark squares, a8 light as on the pictures.
 */
export function themesCss(): string {
  return THEME_NAMES.filter((name) => name !== DEFAULT_THEME)
    .map((name) => {
      const { light, dark } = themeByName(name);
      return `.live[data-theme="${name}"] cg-board { background: repeating-conic-gradient(${dark} 0 25%, ${light} 0 50%) 0 0 / 25% 25%; }`;
    })
    .join('\n')
    .concat('\n');
}

/**
 * Open Graph and Twitter card tags: what a chat shows for a pasted link (players, result or
 * "live", the position). The picture needs an absolute URL, so only with KIBITZ_PUBLIC_URL.
 */
function previewTags(id: string, view: BoardView, publicUrl: string | null, theme: ThemeName): string[] {
  const players = `${playerText(view.white, view.whiteRating)} vs ${playerText(view.black, view.blackRating)}`;
  const state = view.ended
    ? [view.result, view.reason].filter((part) => part !== null && part !== '').join(' ')
    : 'live';
  const toMove = view.ended ? '' : `, ${view.sideToMove === 'white' ? 'White' : 'Black'} to move`;
  const plies = view.san.length;
  const last =
    plies === 0
      ? ''
      : `, after ${Math.ceil(plies / 2)}${plies % 2 === 1 ? '.' : '...'} ${view.san[plies - 1]}`;
  const tags: [string, string][] = [
    ['og:type', 'website'],
    ['og:site_name', 'Kibitz'],
    ['og:title', `${players} · ${state || 'ended'}`],
    ['og:description', `${view.kind}${last}${toMove}`],
  ];
  if (publicUrl !== null) {
    const themed = theme === DEFAULT_THEME ? '' : `?theme=${theme}`;
    tags.push(['og:url', `${publicUrl}/g/${id}${themed}`], ['og:image', `${publicUrl}/g/${id}.png${themed}`]);
  }
  const card = publicUrl === null ? 'summary' : 'summary_large_image';
  return [
    ...tags.map(([property, content]) => `<meta property="${property}" content="${escapeHtml(content)}">`),
    `<meta name="twitter:card" content="${card}">`,
  ];
}

/** A short page for an error (unknown game, too many viewers). */
export function errorPage(title: string, text: string): string {
  return page(
    title,
    `<main class="front">\n<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(text)}</p>\n<p><a href="/">Live games</a></p>\n</main>`,
    [],
  );
}
