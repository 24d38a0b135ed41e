// The pictures and files of live posts: one render per position and orientation shared by every
// post showing it, the PGN, clock chart and whole-game GIF of a final edit, and the final message
// of a game that ended just before a restart, made from its stored PGN.
import {
  DEFAULT_THEME,
  describeAnimation,
  describeBoard,
  describeChart,
  inlineRenderer,
  RENDERER_CLOSED,
  resultText,
  type BoardScene,
  type ChartScene,
  type Renderer,
} from '../../render/index.js';
import type { SceneEvaluation } from '../../render/scene.js';
import type { ThemeName } from '../../render/theme.js';
import { chessLiveGameScenes } from '../chesslive/scenes.js';
import { recordChartScene, snapshotChartScene } from '../game/chart-scene.js';
import { parsePgn } from '../game/pgn.js';
import { gameScenes, sceneFromSnapshot } from '../game/scenes.js';
import type { GameSnapshot } from '../game/snapshot.js';
import type { Logger } from '../log.js';
import type { FinishedGame, LivePostOptions } from '../storage/index.js';
import type { EngineView } from './evaluations.js';
import { gameKeyOf } from '../game/game-key.js';
import {
  BOARD_IMAGE,
  PARTNER_IMAGE,
  liveMessage,
  partnerTitle,
  type LiveAttachment,
  type LiveMessage,
  type LivePartner,
} from './message.js';
import type { GameId } from '../game/game-id.js';

export interface BoardImagesOptions {
  /** Where boards and GIFs are drawn; inline by default. */
  renderer?: Renderer;
  /** The partner board of a bughouse game, drawn in a picture of its own. */
  snapshot(game: GameId): GameSnapshot | undefined;
  logger: Logger;
  /** The live web page of a game, linked from its live post; none when null or absent. */
  watchUrl?: (snapshot: GameSnapshot) => string | null;
}

/** How a post draws its boards: which way round, in which colours (the server's theme). */
export type PostLook = Pick<LivePostOptions, 'flip' | 'theme'>;

/** A picture and its description in words. */
type Described = Required<Omit<LiveAttachment, 'name'>>;

/** Renders kept: positions are shared by channels at the same moment, not over time. */
const CACHED_RENDERS = 256;

export class BoardImages {
  /** Renders of recent positions, shared by every post showing them (also while still drawing). */
  private readonly pngCache = new Map<string, Promise<Buffer>>();
  private readonly renderer: Renderer;

  constructor(private readonly options: BoardImagesOptions) {
    this.renderer = options.renderer ?? inlineRenderer;
  }

  /** A live post's message for a position, with its board drawn (or taken from the cache). */
  async message(
    snapshot: GameSnapshot,
    look: PostLook,
    files: LiveAttachment[] = [],
    engine?: EngineView,
  ): Promise<LiveMessage> {
    const evaluation = engine?.scene ?? null;
    const partner = snapshot.partnerGame === null ? undefined : this.options.snapshot(snapshot.partnerGame);
    const [data, partnerView] = await Promise.all([
      this.png(snapshot, look, evaluation),
      partner === undefined ? undefined : this.partner(partner, look),
    ]);
    const description = describeBoard(this.scene(snapshot, look));
    const message = {
      ...liveMessage(snapshot, { name: BOARD_IMAGE, data, description }, files, engine),
      ...(partnerView === undefined ? {} : { partner: partnerView }),
    };
    const watchUrl = message.live ? this.options.watchUrl?.(snapshot) : null;
    return watchUrl ? { ...message, watchUrl: themedUrl(watchUrl, look.theme) } : message;
  }

  /**
   * A bughouse game's partner board in a picture of its own, turned the other way round so that
   * partners sit on the same side: the same render as a post of the partner game turned so.
   */
  private async partner(partner: GameSnapshot, look: PostLook): Promise<LivePartner> {
    const turned = { ...look, flip: !look.flip };
    const data = await this.png(partner, turned, null);
    const description = describeBoard(this.scene(partner, turned), 'Partner board');
    return { title: partnerTitle(partner), image: { name: PARTNER_IMAGE, data, description } };
  }

  /** A game's board as its post shows it (the same cached render), for the web page's link previews. */
  board(snapshot: GameSnapshot, theme?: ThemeName): Promise<Buffer> {
    return this.png(snapshot, { flip: false, theme }, null);
  }

  /**
   * The PGN and the clock chart of a finished game, in the order they are given up when Discord
   * refuses the edit for its size: the chart first. The GIF comes apart (finalGif), after them.
   */
  async finalFiles(
    snapshot: GameSnapshot,
    pgn: string,
    evaluations?: (number | null)[],
    theme?: ThemeName,
  ): Promise<LiveAttachment[]> {
    const files: LiveAttachment[] = [{ name: `game-${snapshot.game}.pgn`, data: Buffer.from(pgn) }];
    const chart = await this.chart(themed(snapshotChartScene(snapshot, evaluations), theme));
    if (chart !== null) files.push({ name: chartFileName(snapshot.game), ...chart });
    return files;
  }

  /**
   * The whole-game GIF of a finished game (the largest file, given up first); null when there is
   * none to draw or the render failed. Drawn after the final edit went: the result never waits on it.
   */
  async finalGif(snapshot: GameSnapshot, theme?: ThemeName): Promise<LiveAttachment | null> {
    const scenes = gameScenes(snapshot, theme === undefined ? {} : { theme });
    const gif = scenes.ok ? await this.gif(scenes.value) : null;
    return gif === null ? null : { name: `game-${snapshot.game}.gif`, ...gif };
  }

  /** The final message of a game that ended while Kibitz was restarting, from its stored PGN. */
  async storedFinal(finished: FinishedGame, look: PostLook): Promise<LiveMessage> {
    const files: LiveAttachment[] = [{ name: `game-${finished.game}.pgn`, data: Buffer.from(finished.pgn) }];
    const read = parsePgn(finished.pgn);
    const orientation = look.flip ? 'black' : 'white';
    const theme = look.theme === undefined ? {} : { theme: look.theme };
    const scenes = read.ok ? chessLiveGameScenes(read.value[0]!, { orientation, ...theme }) : null;
    let image: LiveAttachment | null = null;
    const chart = read.ok ? await this.chart(themed(recordChartScene(read.value[0]!), look.theme)) : null;
    if (chart !== null) files.push({ name: chartFileName(finished.game), ...chart });
    if (scenes?.ok === true) {
      const last = scenes.value.at(-1)!;
      const png = await this.renderer.png(last);
      if (png.ok) image = { name: BOARD_IMAGE, data: png.value, description: describeBoard(last) };
      const gif = await this.gif(scenes.value);
      if (gif !== null) files.push({ name: `game-${finished.game}.gif`, ...gif });
    }
    return {
      title: `Game ${finished.game}: ${finished.white} vs ${finished.black}`,
      lines: ['The game ended while Kibitz was restarting.'],
      image,
      files,
      live: false,
      footer: resultText({ result: finished.result, reason: finished.reason }),
    };
  }

  /** A snapshot's board as a scene: one board (a bughouse partner has a picture of its own). */
  private scene(snapshot: GameSnapshot, look: PostLook): BoardScene {
    return sceneFromSnapshot(snapshot, {
      orientation: look.flip ? 'black' : 'white',
      ...(look.theme === undefined ? {} : { theme: look.theme }),
    });
  }

  /** One render per position, orientation and theme, shared by every channel showing it so. */
  private png(snapshot: GameSnapshot, look: PostLook, evaluation: SceneEvaluation | null): Promise<Buffer> {
    // A bughouse FEN carries the hands: a piece passed from the partner board changes it.
    const shown = `${snapshot.fen}|${snapshot.whiteClockMs}|${snapshot.blackClockMs}|${snapshot.ended}`;
    const key = `${gameKeyOf(snapshot)}|${shown}|${look.flip}|${look.theme ?? DEFAULT_THEME}|${evaluation === null ? '' : JSON.stringify(evaluation)}`;
    const cached = this.pngCache.get(key);
    if (cached !== undefined) return cached;
    const rendered = this.renderer.png({ ...this.scene(snapshot, look), evaluation }).then((result) => {
      if (result.ok) return result.value;
      this.pngCache.delete(key);
      throw new Error(`render failed: ${result.error}`);
    });
    if (this.pngCache.size >= CACHED_RENDERS) this.pngCache.delete(this.pngCache.keys().next().value!);
    this.pngCache.set(key, rendered);
    return rendered;
  }

  /**
   * The chart of a game's clocks; null when it has none to draw or the render failed (logged, but
   * for a renderer closed at the bot's stop: the renderer's owner counts those in one line).
   */
  private async chart(scene: ChartScene | null): Promise<Described | null> {
    if (scene === null) return null;
    const chart = await this.renderer.chart(scene);
    if (!chart.ok && chart.error !== RENDERER_CLOSED)
      this.options.logger.warn({ error: chart.error }, 'clock chart not rendered');
    return chart.ok ? { data: chart.value, description: describeChart(scene) } : null;
  }

  private async gif(scenes: BoardScene[]): Promise<Described | null> {
    if (scenes.length < 2) return null;
    const gif = await this.renderer.gif(scenes);
    if (!gif.ok && gif.error !== RENDERER_CLOSED)
      this.options.logger.warn({ error: gif.error }, 'game GIF not rendered');
    return gif.ok ? { data: gif.value, description: describeAnimation(scenes) } : null;
  }
}

/** A chart in a post's theme (its text follows the board's bars). */
function themed(scene: ChartScene | null, theme: ThemeName | undefined): ChartScene | null {
  return scene === null || theme === undefined ? scene : { ...scene, theme };
}

/** The live page in the post's board colours (src/web/pages.ts reads `theme`). */
export function themedUrl(url: string, theme: ThemeName | undefined): string {
  return theme === undefined || theme === DEFAULT_THEME ? url : `${url}?theme=${theme}`;
}

/** The clock chart's file name on a final post. */
export function chartFileName(game: GameId): string {
  return `game-${game}-clocks.png`;
}
