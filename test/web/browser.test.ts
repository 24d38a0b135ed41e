// The live page in a real browser (headless Chromium driven by playwright-core): what a person
// sees while a real game (a transcript's moves, served by the fake FICS) is relayed by the bot.
// Chromium comes from the system (CHROMIUM_PATH, or `chromium` on PATH); without one the test is
// skipped, or fails where KIBITZ_REQUIRE lists it (test/support/require.ts). One Chromium for the
// file (its start was most of a test's time), a new context for each test (its own storage and
// viewport). Pictures for the docs are taken only when KIBITZ_SCREENSHOTS names a folder; the one
// a test checks (the themed board) always.
import { join } from 'node:path';
import { Chess } from 'chessops/chess';
import { parseSan } from 'chessops/san';
import { makeSquare } from 'chessops/util';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, expect, it } from 'vitest';
import { whiteShare } from '../../render/index.js';
import { themeByName } from '../../render/theme.js';
import { count, decodePng, hex, same } from '../render/pixels.js';
import { openingAt } from '../../src/game/openings.js';
import { World, embedOf, fixture, scriptOf, shuffleScript } from '../e2e/harness.js';
import { bughouseFixture } from '../fake-fics/fixture-games.js';
import { chromiumNeed, describeWith, findChromium, stockfishNeed } from '../support/require.js';

const CHROMIUM = findChromium();

const NO_EDIT_LIMIT = { rateLimits: { messageEdit: { limit: 10_000, windowMs: 1_000 } } };
const SHOTS = process.env.KIBITZ_SCREENSHOTS;

/** Saves a picture of the page for the docs, when asked for (KIBITZ_SCREENSHOTS). */
async function shot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  if (SHOTS) await page.screenshot({ path: join(SHOTS, `kibitz-web-${name}.png`), ...options });
}

let browser: Promise<Browser> | null = null;
let world: World | null = null;
let contexts: BrowserContext[] = [];
afterEach(async () => {
  const closing = contexts.map((context) => context.close());
  contexts = [];
  await Promise.all(closing);
  await world?.close();
  world = null;
});
afterAll(async () => {
  await (await browser)?.close();
  browser = null;
});

/** The file's Chromium, launched on first use (while the first test's bot starts). */
function launched(): Promise<Browser> {
  browser ??= chromium.launch({
    executablePath: CHROMIUM!,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  // Started ahead of its first use: a failed launch is the test's error where it is awaited.
  browser.catch(() => undefined);
  return browser;
}

async function openBrowser(viewport = { width: 1100, height: 900 }): Promise<Page> {
  const context = await (await launched()).newContext({ viewport });
  contexts.push(context);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  // A CSP violation is reported on the console: the page must need nothing the policy forbids.
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  pageProblems = problems;
  return page;
}

let pageProblems: string[] = [];

async function startRelayed(env: Record<string, string> = {}): Promise<{ w: World; base: string }> {
  void launched();
  const w = (world = await World.start({ discord: NO_EDIT_LIMIT }));
  const bot = await w.startBot({
    env: { KIBITZ_WEB_PORT: '0', KIBITZ_PUBLIC_URL: 'https://kibitz.example.org', ...env },
  });
  return { w, base: bot.web!.url };
}

/** Observes a game and returns its page's path and query (from the post's Watch live link). */
async function observe(w: World, game: number, options: { eval?: boolean } = {}): Promise<string> {
  await w.command('observe', { game, ...options }).reply();
  const post = w.livePosts().at(-1)!;
  for (const row of post.components as { components?: { label?: string; url?: string }[] }[])
    for (const c of row.components ?? [])
      if (c.label === 'Watch live') return new URL(c.url!).pathname + new URL(c.url!).search;
  throw new Error('no Watch live link');
}

/** Square -> "white pawn" for every piece of a position. */
function piecesOf(pos: Chess): Record<string, string> {
  const pieces: Record<string, string> = {};
  for (const square of pos.board.occupied) {
    const piece = pos.board.get(square)!;
    pieces[makeSquare(square)] = `${piece.color} ${piece.role}`;
  }
  return pieces;
}

function positionAfter(san: readonly string[]): Chess {
  const pos = Chess.default();
  for (const move of san) pos.play(parseSan(pos, move)!);
  return pos;
}

/** The deepest named opening the moves pass through, as the page should name it. */
function openingAfter(san: readonly string[]): string | null {
  const pos = Chess.default();
  let found: string | null = null;
  for (const move of san) {
    pos.play(parseSan(pos, move)!);
    const opening = openingAt(pos);
    if (opening) found = `${opening.eco} ${opening.name}`;
  }
  return found;
}

/**
 * Waits until a board of the page shows exactly these pieces (chessground's own squares): the live
 * page's main or partner board, or the front page's mini-board of a game (its page id).
 */
async function expectPieces(
  page: Page,
  slot: 'main' | 'partner' | { mini: string },
  expected: Record<string, string>,
): Promise<void> {
  const scope = typeof slot === 'string' ? `.game.${slot}` : `.mini[data-id="${slot.mini}"]`;
  // A string, run in the page: the test's types know no DOM.
  const shown = (): Promise<Record<string, string>> =>
    page.evaluate(`(() => {
      const pieces = {};
      for (const el of document.querySelectorAll('${scope} cg-board piece')) {
        if (el.classList.contains('fading') || el.cgKey === undefined) continue;
        pieces[el.cgKey] = el.className.replace(/\\s*anim\\s*/, '').trim();
      }
      return pieces;
    })()`);
  await expect.poll(shown, { timeout: 5_000 }).toEqual(expected);
}

/** Seconds a clock shows (`m:ss` or `h:mm:ss`). */
function seconds(text: string): number {
  return text.split(':').reduce((total, part) => total * 60 + Number(part), 0);
}

describeWith(chromiumNeed())('the live page in Chromium', () => {
  it('shows the moves as they come, runs the clock of the side to move, and shows the result', async () => {
    const { w, base } = await startRelayed();
    const script = fixture('lasker_flag#0');
    const game = w.fics.addGame(scriptOf(script, { whiteRating: '1834', blackRating: '1790' }));
    w.fics.playMoves(game, 4);
    const path = await observe(w, game);
    const page = await openBrowser();
    // The page's clocks run on time the test moves (it flows on by itself as well).
    await page.clock.install();
    await page.goto(`${base}${path}`);
    await expectPieces(page, 'main', piecesOf(positionAfter(script.san.slice(0, 4))));
    await expect.poll(() => page.textContent('#status')).toBe('Live');

    for (let ply = 5; ply <= 12; ply++) {
      w.fics.playMove(game);
      await expectPieces(page, 'main', piecesOf(positionAfter(script.san.slice(0, ply))));
    }
    expect(await page.locator('#moves li').count()).toBe(6);
    expect(await page.locator('.pocket:not([hidden])').count()).toBe(0);
    // No post asked for the engine: no bar, no evaluation line.
    expect(await page.locator('.eval-bar:not([hidden]), .eval-text:not([hidden])').count()).toBe(0);
    await expect
      .poll(() => page.locator('#moves li').last().textContent())
      .toBe(`${script.san[10]}${script.san[11]}`);
    const opening = openingAfter(script.san.slice(0, 12));
    expect(opening).not.toBeNull();
    expect(await page.textContent('#opening')).toBe(opening);

    // White to move after 12 plies: White's clock runs down, Black's stands.
    const running = page.locator('.game.main .clock.running');
    expect(await running.count()).toBe(1);
    expect(await running.getAttribute('data-color')).toBe('white');
    const before = seconds((await running.textContent())!);
    const black = page.locator('.game.main .clock[data-color="black"]');
    const blackBefore = await black.textContent();
    await page.clock.fastForward(3_000);
    await expect.poll(async () => seconds((await running.textContent())!)).toBeLessThanOrEqual(before - 3);
    expect(await black.textContent()).toBe(blackBefore);
    await shot(page, 'live');

    // Flip: Black at the bottom.
    const bottomName = (): Promise<string | null> =>
      page.locator('.game.main .player').last().locator('.name').textContent();
    expect(await bottomName()).toBe(`${script.white} (1834)`);
    await page.click('#flip');
    expect(await bottomName()).toBe(`${script.black} (1790)`);

    w.fics.endGame(game, '0-1', `${script.white} forfeits on time`);
    await expect.poll(() => page.textContent('#result')).toBe(`0-1 · ${script.white} forfeits on time`);
    expect(await page.locator('.clock.running').count()).toBe(0);
    await shot(page, 'ended');

    // A phone: the board fits the screen's width.
    await page.setViewportSize({ width: 390, height: 844 });
    const box = await page.locator('.game.main .board-wrap').boundingBox();
    expect(box!.width).toBeGreaterThan(300);
    expect(box!.width).toBeLessThanOrEqual(390);
    await shot(page, 'phone', { fullPage: true });
    expect(pageProblems).toEqual([]);
  });

  it('fills a wide window with the board, never scrolls itself, speaks each move, looks back, fits a phone', async () => {
    const { w, base } = await startRelayed();
    const script = shuffleScript(60);
    const game = w.fics.addGame(script);
    w.fics.playMoves(game, 4);
    const path = await observe(w, game);
    const page = await openBrowser({ width: 1280, height: 800 });
    await page.goto(`${base}${path}`);
    await expectPieces(page, 'main', piecesOf(positionAfter(script.san.slice(0, 4))));
    // lichess TV: the board as tall as the window allows, the move list beside it.
    const board = (await page.locator('.game.main .board-wrap').boundingBox())!;
    expect(board.width).toBeGreaterThanOrEqual(560);
    const moves = (await page.locator('#moves').boundingBox())!;
    expect(moves.x).toBeGreaterThanOrEqual(board.x + board.width);

    for (let ply = 5; ply <= 59; ply++) w.fics.playMove(game);
    await expectPieces(page, 'main', piecesOf(positionAfter(script.san.slice(0, 59))));
    await expect.poll(() => page.locator('#moves .san.current').textContent()).toBe(script.san[58]);
    // The 59th ply is White's 30th move: said as a screen reader should say it.
    await expect.poll(() => page.textContent('#spoken')).toBe(`30. ${script.san[58]}`);
    expect(await page.title()).toBe(`Black to move · ${script.white} vs ${script.black} · Kibitz`);
    expect(await page.evaluate('window.scrollY')).toBe(0);
    expect(await page.locator('.game.main .board-wrap').getAttribute('aria-label')).toContain(
      `Last move 30. ${script.san[58]}`,
    );

    // Looking back: ← shows the position before; a move meanwhile does not move the board.
    await page.keyboard.press('ArrowLeft');
    await expectPieces(page, 'main', piecesOf(positionAfter(script.san.slice(0, 58))));
    expect(await page.locator('#moves .san.current').getAttribute('data-ply')).toBe('58');
    w.fics.playMove(game);
    await expect.poll(() => page.locator('#moves .san').count()).toBe(60);
    await expectPieces(page, 'main', piecesOf(positionAfter(script.san.slice(0, 58))));
    await page.locator('#moves .san[data-ply="2"]').click();
    await expectPieces(page, 'main', piecesOf(positionAfter(script.san.slice(0, 2))));
    await shot(page, 'review');
    await page.click('#to-live');
    await expectPieces(page, 'main', piecesOf(positionAfter(script.san)));
    expect(await page.locator('#to-live').isHidden()).toBe(true);
    expect(await page.evaluate('window.scrollY')).toBe(0);
    await shot(page, 'wide');

    w.fics.endGame(game, '1/2-1/2', 'Game drawn by repetition');
    await expect
      .poll(() => page.title())
      .toBe(`1/2-1/2 Game drawn by repetition · ${script.white} vs ${script.black} · Kibitz`);
    expect(await page.textContent('#status')).toBe('Game over');

    // A phone: nothing wider than the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await shot(page, 'narrow', { fullPage: true });
    expect(pageProblems).toEqual([]);
  });

  it('plays move sounds only once turned on, remembers the choice, and plays none for a catch-up', async () => {
    const { w, base } = await startRelayed();
    const script = fixture('lasker_flag#0');
    const game = w.fics.addGame(scriptOf(script));
    const capture = script.san.findIndex((san) => san.includes('x') && !/[+#]$/.test(san));
    const quiet = script.san.findIndex((san, i) => i > 3 && !/[x+#]/.test(san));
    expect(capture).toBeGreaterThan(quiet);
    w.fics.playMoves(game, quiet);
    const path = await observe(w, game);
    const page = await openBrowser();
    // The hook: every note the page starts, by its pitch, and every AudioContext it makes.
    await page.addInitScript(`(() => {
      window.played = [];
      window.contexts = 0;
      const Context = window.AudioContext;
      window.AudioContext = class extends Context {
        constructor(...args) {
          super(...args);
          window.contexts++;
        }
      };
      const start = OscillatorNode.prototype.start;
      OscillatorNode.prototype.start = function (...args) {
        window.played.push(this.frequency.value);
        return start.apply(this, args);
      };
    })()`);
    const played = (): Promise<number[]> => page.evaluate('window.played');
    const toggle = page.locator('#sound');
    await page.goto(`${base}${path}`);
    await expectPieces(page, 'main', piecesOf(positionAfter(script.san.slice(0, quiet))));
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');

    // Off by default: a move arrives and makes no sound.
    w.fics.playMove(game);
    await expectPieces(page, 'main', piecesOf(positionAfter(script.san.slice(0, quiet + 1))));
    expect(await played()).toEqual([]);
    // Nothing audio exists before the toggle: no autoplay.
    expect(await page.evaluate('window.contexts')).toBe(0);

    await toggle.click();
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    expect(await page.evaluate("localStorage.getItem('kibitz.sound')")).toBe('on');
    await shot(page, 'sound-on');
    // Plies up to the capture: each a note; the capture a different sound from a quiet move.
    w.fics.playMoves(game, capture + 1 - (quiet + 1));
    await expectPieces(page, 'main', piecesOf(positionAfter(script.san.slice(0, capture + 1))));
    // The quiet moves one note each, all alike; the capture's notes come last and differ.
    const sounds = await played();
    const quietNotes = sounds.slice(0, capture - quiet - 1);
    expect(quietNotes).toEqual(Array<number>(capture - quiet - 1).fill(sounds[0]!));
    expect(sounds.length).toBeGreaterThan(quietNotes.length);
    expect(sounds.slice(quietNotes.length)).not.toContain(sounds[0]);

    // A reload: the toggle is still on, and the moves of the catch-up make no sound; the next move does.
    await page.reload();
    await expectPieces(page, 'main', piecesOf(positionAfter(script.san.slice(0, capture + 1))));
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    expect(await page.evaluate("localStorage.getItem('kibitz.sound')")).toBe('on');
    expect(await played()).toEqual([]);
    w.fics.playMove(game);
    await expectPieces(page, 'main', piecesOf(positionAfter(script.san.slice(0, capture + 2))));
    await expect.poll(played).not.toEqual([]);

    // Turned off again: remembered off.
    await toggle.click();
    expect(await page.evaluate("localStorage.getItem('kibitz.sound')")).toBe('off');
    await page.reload();
    await expect.poll(() => toggle.getAttribute('aria-pressed')).toBe('false');
    expect(pageProblems).toEqual([]);
  });

  it("moves the front page's mini-boards as the games go on, over one stream for the whole page", async () => {
    const { w, base } = await startRelayed();
    const first = fixture('lasker_flag#0');
    const second = shuffleScript(20);
    const one = w.fics.addGame(scriptOf(first, { whiteRating: '1834', blackRating: '1790' }));
    const two = w.fics.addGame({ ...second, whiteRating: '1500', blackRating: '1500' });
    w.fics.playMoves(one, 6);
    w.fics.playMoves(two, 3);
    const idOne = (await observe(w, one)).split('/').pop()!;
    const idTwo = (await observe(w, two)).split('/').pop()!;
    const page = await openBrowser({ width: 1280, height: 800 });
    const streams: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('events')) streams.push(new URL(request.url()).pathname);
    });
    await page.clock.install();
    await page.goto(`${base}/`);
    await expectPieces(page, { mini: idOne }, piecesOf(positionAfter(first.san.slice(0, 6))));
    await expectPieces(page, { mini: idTwo }, piecesOf(positionAfter(second.san.slice(0, 3))));
    // Strongest first, each a link to its page; the list of links has none left to show.
    expect(
      await page.locator('.mini').evaluateAll((els) => els.map((el) => el.getAttribute('data-id'))),
    ).toEqual([idOne, idTwo]);
    expect(await page.locator('.mini').first().getAttribute('href')).toBe(`/g/${idOne}`);
    expect(await page.locator('.mini').first().locator('.player').last().textContent()).toContain(
      `${first.white} (1834)`,
    );
    expect(await page.locator('#games').isHidden()).toBe(true);

    for (let ply = 7; ply <= 9; ply++) {
      w.fics.playMove(one);
      await expectPieces(page, { mini: idOne }, piecesOf(positionAfter(first.san.slice(0, ply))));
    }
    w.fics.playMove(two);
    await expectPieces(page, { mini: idTwo }, piecesOf(positionAfter(second.san.slice(0, 4))));
    // Black to move on the first board after 9 plies: its clock runs down on the page.
    const running = page.locator(`.mini[data-id="${idOne}"] .clock.running`);
    await expect.poll(() => running.count()).toBe(1);
    const before = seconds((await running.textContent())!);
    await page.clock.fastForward(3_000);
    await expect.poll(async () => seconds((await running.textContent())!)).toBeLessThanOrEqual(before - 3);
    expect(streams).toEqual(['/events']);
    await shot(page, 'front-wide');
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await shot(page, 'front-phone', { fullPage: true });
    expect(pageProblems).toEqual([]);
  });

  it('shows what observers kibitz and whisper, as they say it', async () => {
    const { w, base } = await startRelayed();
    const script = fixture('lasker_flag#0');
    const game = w.fics.addGame(scriptOf(script, { whiteRating: '1834', blackRating: '1790' }));
    w.fics.playMoves(game, 10);
    const path = await observe(w, game);
    const page = await openBrowser({ width: 1280, height: 800 });
    await page.goto(`${base}${path}`);
    await expectPieces(page, 'main', piecesOf(positionAfter(script.san.slice(0, 10))));
    w.fics.say(game, 'Lecturer(TD)(----)', 'Why did Black take on d4?');
    w.fics.say(game, 'Student(1502)', 'To open the c-file?', true);
    w.fics.say(game, 'Lecturer(TD)(----)', 'Yes, and the queen cannot take back: Nc6 hits it.');
    await expect.poll(() => page.locator('#said li').count()).toBe(3);
    expect(await page.locator('#said li').allTextContents()).toEqual([
      'Lecturer kibitzes: Why did Black take on d4?',
      'Student whispers: To open the c-file?',
      'Lecturer kibitzes: Yes, and the queen cannot take back: Nc6 hits it.',
    ]);
    await shot(page, 'said');
  });

  it('shows the pieces in hand of a crazyhouse game', async () => {
    const { w, base } = await startRelayed();
    const script = fixture('lasker_crazyhouse#1');
    const game = w.fics.addGame(scriptOf(script));
    const path = await observe(w, game);
    const page = await openBrowser();
    await page.goto(`${base}${path}`);
    await expectPieces(page, 'main', piecesOf(Chess.default()));
    const pocket = (color: string) =>
      page.locator(`.game.main .clock[data-color="${color}"]`).locator('xpath=..').locator('.pocket piece');
    expect(await pocket('black').count()).toBe(0);
    // The eighth move, exf4, is the game's first capture: Black has a pawn in hand.
    w.fics.playMoves(game, 8);
    await expectPieces(page, 'main', piecesOf(positionAfter(script.san.slice(0, 8))));
    await expect.poll(() => pocket('black').count()).toBe(1);
    expect(await pocket('black').getAttribute('class')).toBe('black pawn');
    expect(await pocket('black').getAttribute('data-count')).toBe('1');
    expect(await pocket('white').count()).toBe(0);
    await shot(page, 'crazyhouse');
    expect(pageProblems).toEqual([]);
  });

  /** The fixture's bughouse pair on the fake FICS, relayed: its boards' scripts and game numbers. */
  async function startBughouse() {
    const { w, base } = await startRelayed();
    const [a, b] = bughouseFixture.boards;
    const tc = { initialMinutes: bughouseFixture.initialMinutes, incrementSec: bughouseFixture.incrementSec };
    const [ga, gb] = w.fics.addBughouse(
      { white: a!.white, black: a!.black, san: a!.san, ...tc },
      { white: b!.white, black: b!.black, san: b!.san, ...tc },
    );
    return { w, base, a: a!, b: b!, ga, gb };
  }

  it("lists the moves of both boards of a bughouse game observed mid-game, the partner's in its own list", async () => {
    const { w, base, a, b, ga, gb } = await startBughouse();
    w.fics.playMoves(ga, 4);
    w.fics.playMoves(gb, 2);
    const path = await observe(w, ga);
    const page = await openBrowser({ width: 1280, height: 800 });
    await page.goto(`${base}${path}`);
    await expectPieces(page, 'main', piecesOf(positionAfter(a!.san.slice(0, 4))));
    await expectPieces(page, 'partner', piecesOf(positionAfter(b!.san.slice(0, 2))));
    expect(await page.locator('#moves .san:not(.empty)').allTextContents()).toEqual(a!.san.slice(0, 4));
    // The partner board's own move list, from the first full state, then move by move.
    const partnerMoves = page.locator('#partner-moves .san:not(.empty)');
    expect(await partnerMoves.allTextContents()).toEqual(b!.san.slice(0, 2));
    expect(await page.textContent('#partner-title')).toBe(`Partner board: ${b!.white} vs ${b!.black}`);
    w.fics.playMove(gb);
    await expect.poll(() => partnerMoves.allTextContents()).toEqual(b!.san.slice(0, 3));
    // The main board's list is the main board's only.
    expect(await page.locator('#moves .san:not(.empty)').allTextContents()).toEqual(a!.san.slice(0, 4));
    await shot(page, 'bughouse-wide');
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await shot(page, 'bughouse-phone', { fullPage: true });
    expect(pageProblems).toEqual([]);
  });

  it('shows both boards of a bughouse game, with the pieces in hand', async () => {
    const { w, base, a, b, ga, gb } = await startBughouse();
    const path = await observe(w, ga);
    const page = await openBrowser();
    await page.goto(`${base}${path}`);
    const start = piecesOf(Chess.default());
    await expectPieces(page, 'main', start);
    await expectPieces(page, 'partner', start);

    // Moves on both boards reach the page, each on its own board.
    w.fics.playMoves(ga, 2);
    w.fics.playMoves(gb, 2);
    const after = (san: readonly string[]): Record<string, string> =>
      piecesOf(positionAfter(san.slice(0, 2)));
    await expectPieces(page, 'main', after(a!.san));
    await expectPieces(page, 'partner', after(b!.san));
    // A viewer joining mid-game sees the moves so far at once, from the first full state.
    const late = await openBrowser();
    await late.goto(`${base}${path}`);
    await expectPieces(late, 'main', after(a!.san));
    expect(await late.locator('#moves .san:not(.empty)').allTextContents()).toEqual(a!.san.slice(0, 2));
    // The partner board is seen from the other side, as the partners sit.
    const mainBottom = await page.locator('.game.main .player').last().locator('.name').textContent();
    const partnerBottom = await page.locator('.game.partner .player').last().locator('.name').textContent();
    expect(mainBottom).toMatch(new RegExp(`^${a!.white}\\b`));
    expect(partnerBottom).toMatch(new RegExp(`^${b!.black}\\b`));
    // Bughouse boards have pockets (empty until a piece is passed); a chess board has none.
    expect(await page.locator('.game.main .pocket[hidden]').count()).toBe(0);
    await shot(page, 'bughouse');
    expect(pageProblems).toEqual([]);
  });
});

/** An evaluation as the post's embed writes it: `Engine: +0.3 · best Nf3 (depth 12)`. */
const EMBED_EVALUATION = /^Engine: (#-?\d+|[+-]?\d+(?:\.\d)?) · best \S+ \(depth \d+\)$/m;
/** The same on the page: `Engine: +0.3`. */
const PAGE_EVALUATION = /^Engine: (#-?\d+|[+-]?\d+(?:\.\d)?)$/;

/** White's share of the bar for an evaluation text, as far as its rounding lets one tell. */
function shareOf(text: string): number {
  return text.startsWith('#')
    ? whiteShare({ mate: Number(text.slice(1)) })
    : whiteShare({ cp: Number(text) * 100 });
}

describeWith(chromiumNeed(), stockfishNeed())('the live page with the engine on', () => {
  it('shows the evaluation the post shows, as a bar beside the board and its text, move after move', async () => {
    const { w, base } = await startRelayed({ KIBITZ_ENGINE: 'on', KIBITZ_ENGINE_MOVETIME_MS: '200' });
    const script = fixture('lasker_flag#0');
    const game = w.fics.addGame(scriptOf(script, { whiteRating: '1834', blackRating: '1790' }));
    w.fics.playMoves(game, 11);
    const path = await observe(w, game, { eval: true });
    const post = w.livePosts().at(-1)!;
    const page = await openBrowser();
    await page.goto(`${base}${path}`);
    await expectPieces(page, 'main', piecesOf(positionAfter(script.san.slice(0, 11))));

    const bar = page.locator('.game.main .eval-bar');
    const line = page.locator('.game.main .eval-text');
    /** The post's evaluation of the position after `ply` plies, from its edits since revision `since`. */
    const embedEvaluation = async (ply: number, since: number): Promise<string> => {
      const evaluated = (r: { embeds: unknown[] }): boolean => {
        const text = embedOf(r).description;
        return text.includes(script.san[ply - 1]!) && EMBED_EVALUATION.test(text);
      };
      const message = await w.waitForMessage(
        post.id,
        (m) => m.revisions.slice(since).some(evaluated),
        `the post's evaluation after ply ${ply}`,
        15_000,
      );
      const revision = message.revisions.slice(since).findLast(evaluated)!;
      return EMBED_EVALUATION.exec(embedOf(revision).description)![1]!;
    };
    /** White's share of the bar as drawn: the light part's height over the bar's. */
    const drawnShare = async (): Promise<number> => {
      const whole = (await bar.boundingBox())!;
      const white = (await page.locator('.game.main .eval-white').boundingBox())!;
      return white.height / whole.height;
    };

    for (const ply of [11, 12]) {
      const since = w.fake.message(post.id)!.revisions.length;
      if (ply > 11) w.fics.playMove(game);
      const expected = await embedEvaluation(ply, ply > 11 ? since : 0);
      await expect.poll(() => line.textContent(), { timeout: 15_000 }).toBe(`Engine: ${expected}`);
      expect(await line.textContent()).toMatch(PAGE_EVALUATION);
      expect(await bar.isVisible()).toBe(true);
      expect(await bar.getAttribute('class')).toBe('eval-bar');
      // The bar eases to its height: wait for it to settle at the evaluation's share.
      await expect.poll(drawnShare, { timeout: 3_000 }).toBeCloseTo(shareOf(expected), 1);
    }
    // Beside the board, as tall as it, White's part at the bottom (White's side).
    const barBox = (await bar.boundingBox())!;
    const boardBox = (await page.locator('.game.main .board-wrap').boundingBox())!;
    expect(barBox.x + barBox.width).toBeLessThanOrEqual(boardBox.x);
    expect(barBox.height).toBeCloseTo(boardBox.height, 0);
    const whiteBox = (await page.locator('.game.main .eval-white').boundingBox())!;
    expect(whiteBox.y + whiteBox.height).toBeCloseTo(barBox.y + barBox.height, 0);
    await shot(page, 'evaluation');

    // Flipped: White's part at the top.
    await page.click('#flip');
    await expect
      .poll(async () => (await page.locator('.game.main .eval-white').boundingBox())!.y)
      .toBeCloseTo(barBox.y, 0);

    // A phone: the bar and the board fit the screen's width.
    await page.setViewportSize({ width: 390, height: 844 });
    const phoneBar = (await bar.boundingBox())!;
    const phoneBoard = (await page.locator('.game.main .board-wrap').boundingBox())!;
    expect(phoneBar.x).toBeGreaterThanOrEqual(0);
    expect(phoneBoard.width).toBeGreaterThan(300);
    expect(phoneBoard.x + phoneBoard.width).toBeLessThanOrEqual(390);
    expect(phoneBar.height).toBeCloseTo(phoneBoard.height, 0);
    await shot(page, 'evaluation-phone');

    // The engine turned off on the post: after the next move the page has no bar either.
    const revisions = w.fake.message(post.id)!.revisions.length;
    expect((await w.fake.button(post.id, 'engine:1').callback()).type).toBe(6);
    await w.waitForMessage(post.id, (m) => m.revisions.length > revisions, 'the engine off');
    w.fics.playMove(game);
    await expectPieces(page, 'main', piecesOf(positionAfter(script.san.slice(0, 13))));
    expect(await bar.isVisible()).toBe(false);
    expect(await line.isVisible()).toBe(false);
    expect(pageProblems).toEqual([]);
  });
});

describeWith(chromiumNeed())('the live page in a server theme', () => {
  it("draws the board in the posting server's theme (/settings theme grey)", async () => {
    const { w, base } = await startRelayed();
    await w.command('settings theme', { theme: 'grey' }, { user: w.fake.owner }).reply();
    const game = w.fics.addGame(scriptOf(fixture('lasker_flag#0')));
    const path = await observe(w, game);
    expect(path).toMatch(/\?theme=grey$/);
    const page = await openBrowser();
    await page.goto(`${base}${path}`);
    await expectPieces(page, 'main', piecesOf(Chess.default()));
    const board = await decodePng(await page.locator('.game.main cg-board').screenshot());
    const all = { x: 0, y: 0, w: board.width, h: board.height };
    const grey = themeByName('grey');
    const brown = themeByName('brown');
    // Empty squares of ranks 3-6 alone are a quarter of the board.
    expect(count(board, all, same(hex(grey.light)))).toBeGreaterThan((board.width * board.height) / 16);
    expect(count(board, all, same(hex(grey.dark)))).toBeGreaterThan((board.width * board.height) / 16);
    expect(count(board, all, same(hex(brown.light)))).toBe(0);
    await shot(page, 'theme-grey');
    expect(pageProblems).toEqual([]);
  });
});
