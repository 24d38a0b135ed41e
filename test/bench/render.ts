// Board image speed: our palette PNG path against the plain @napi-rs/canvas path, on the same
// frames (480 px board, both player bars with names, ratings and clocks, last move, check), and a
// 100-ply whole-game GIF. Inputs are the positions of a real game (test/fixtures/render).
import { createCanvas, type Canvas, type SKRSContext2D } from '@napi-rs/canvas';
import { FONT_FAMILY, loadPieceImages, registerFonts } from '../../render/assets.js';
import { renderGif, renderPng, type BoardScene } from '../../render/index.js';
import { ficsFixtureScenes, fixtureScenes, withClocks } from '../render/game-scenes.js';
import { computeLayout, DEFAULT_SIZE } from '../../render/layout.js';
import { readPosition, type ScenePosition } from '../../render/position.js';
import { formatClock } from '../../render/format.js';
import { DEFAULT_THEME, themeByName } from '../../render/theme.js';

const PNG_RUNS = 400;
const BASELINE_RUNS = 60;
const GIF_RUNS = 5;
const GIF_PLIES = 100;
/** CPU figures: the median of CPU_ROUNDS rounds, after one round of warm-up. */
const CPU_ROUNDS = 5;
const CPU_PNGS_A_ROUND = 400;
const CPU_GIFS_A_ROUND = 10;
/** The interleaved case: this many posts, each edit some plies after the post's last one. */
const INTERLEAVED_POSTS = 1_000;
const INTERLEAVED_WARM_ROUNDS = 2;
const INTERLEAVED_ROUNDS = 3;
/** Plies between a post's edits, in turn: 3.4 on average, as at 1,000 games (docs/performance.md). */
const INTERLEAVED_STEPS = [3, 4, 3, 4, 3];

/** The game's positions at the default size with ratings and clocks. */
function benchScenes(): BoardScene[] {
  return withClocks(fixtureScenes('korchnoi-karpov-1974.pgn')).map((scene) => ({
    ...scene,
    size: DEFAULT_SIZE,
  }));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/**
 * The plain path: the same frame drawn with @napi-rs/canvas from a cached board background and
 * cached piece sprites, encoded by its default `toBuffer('image/png')`.
 */
function plainRenderer(): (scene: BoardScene, pos: ScenePosition) => Buffer {
  registerFonts();
  const theme = themeByName(DEFAULT_THEME);
  const layout = computeLayout(DEFAULT_SIZE, { footer: false, holdings: false });
  const { square: sq, barHeight: bar } = layout;
  const board = createCanvas(sq * 8, sq * 8);
  const bctx = board.getContext('2d');
  for (let i = 0; i < 64; i++) {
    bctx.fillStyle = ((i % 8) + (i >> 3)) % 2 === 0 ? theme.light : theme.dark;
    bctx.fillRect((i % 8) * sq, (i >> 3) * sq, sq, sq);
  }
  const sprites = new Map<string, Canvas>();
  for (const [name, image] of loadPieceImages()) {
    const sprite = createCanvas(sq, sq);
    sprite.getContext('2d').drawImage(image, 0, 0, sq, sq);
    sprites.set(name, sprite);
  }
  const canvas = createCanvas(layout.width, layout.height);
  const ctx = canvas.getContext('2d');
  const drawBar = (c: SKRSContext2D, y: number, name: string, clockMs: number): void => {
    c.fillStyle = theme.barBg;
    c.fillRect(0, y, layout.width, bar);
    c.font = `bold ${layout.fontPx.name}px "${FONT_FAMILY}"`;
    c.fillStyle = theme.barText;
    c.textBaseline = 'middle';
    c.fillText(name, bar * 0.3, y + bar / 2);
    c.fillStyle = theme.clockBg;
    c.fillRect(layout.bar.clock.x, y + bar * 0.14, layout.bar.clock.w - bar * 0.14, bar * 0.72);
    c.font = `bold ${layout.fontPx.clock}px "${FONT_FAMILY}"`;
    c.fillStyle = theme.clockText;
    c.fillText(formatClock(clockMs), layout.bar.clock.x + bar * 0.4, y + bar / 2);
  };
  return (scene, pos) => {
    ctx.drawImage(board, 0, bar);
    for (let sq64 = 0; sq64 < 64; sq64++) {
      const x = (sq64 % 8) * sq;
      const y = bar + (7 - (sq64 >> 3)) * sq;
      const light = ((sq64 % 8) + (sq64 >> 3)) % 2 === 1;
      if (pos.highlighted.includes(sq64)) {
        ctx.fillStyle = light ? theme.lightLast : theme.darkLast;
        ctx.fillRect(x, y, sq, sq);
      }
      if (pos.check === sq64) {
        const glow = ctx.createRadialGradient(x + sq / 2, y + sq / 2, 0, x + sq / 2, y + sq / 2, sq * 0.62);
        glow.addColorStop(0, theme.check);
        glow.addColorStop(1, 'rgba(158, 0, 0, 0)');
        ctx.fillStyle = glow;
        ctx.fillRect(x, y, sq, sq);
      }
      const piece = pos.board.get(sq64);
      if (piece) ctx.drawImage(sprites.get(`${piece.color}-${piece.role}`)!, x, y);
    }
    drawBar(ctx, 0, `${scene.black.name} (${scene.black.rating})`, scene.black.clockMs ?? 0);
    drawBar(ctx, bar + 8 * sq, `${scene.white.name} (${scene.white.rating})`, scene.white.clockMs ?? 0);
    return canvas.toBuffer('image/png');
  };
}

/** CPU (this thread, user + system) of one call of `work`, ms: the median over rounds of `calls` calls. */
function cpuMs(calls: number, work: (call: number) => void): number {
  const rounds: number[] = [];
  for (let round = -1; round < CPU_ROUNDS; round++) {
    const start = process.cpuUsage();
    for (let call = 0; call < calls; call++) work(call);
    const used = process.cpuUsage(start);
    if (round >= 0) rounds.push((used.user + used.system) / 1000 / calls);
  }
  return median(rounds);
}

/**
 * What a render thread sees at 1,000 games: every post edited once a round, in turn, each edit a
 * few plies after the post's last one, the posts playing the fixture games from different plies
 * with players of their own (a new pair for each game). CPU per PNG (median of the rounds) and
 * the PNGs' sizes.
 */
export function benchInterleavedPngs(png: (scene: BoardScene) => Buffer): Record<string, number> {
  const games = [
    fixtureScenes('korchnoi-karpov-1974.pgn'),
    ...ficsFixtureScenes().map((game) => game.scenes),
  ].map((scenes) => withClocks(scenes));
  const posts = Array.from({ length: INTERLEAVED_POSTS }, (_, post) => {
    const game = games[post % games.length]!;
    return { game, ply: (post * 37) % game.length, generation: 0 };
  });
  const sceneOf = (post: number): BoardScene => {
    const { game, ply, generation } = posts[post]!;
    const scene = game[ply]!;
    const tag = `${post}x${generation}`;
    return {
      ...scene,
      size: DEFAULT_SIZE,
      white: { ...scene.white, name: `White${tag}`, rating: String(1200 + ((post * 13) % 1300)) },
      black: { ...scene.black, name: `Black${tag}`, rating: String(1200 + ((post * 29) % 1300)) },
    };
  };
  const cpu: number[] = [];
  const sizes: number[] = [];
  for (let round = 0; round < INTERLEAVED_WARM_ROUNDS + INTERLEAVED_ROUNDS; round++) {
    const scenes = posts.map((_, post) => sceneOf(post));
    const start = process.cpuUsage();
    const bytes = scenes.map((scene) => png(scene).length);
    const used = process.cpuUsage(start);
    if (round >= INTERLEAVED_WARM_ROUNDS) {
      cpu.push((used.user + used.system) / scenes.length);
      sizes.push(...bytes);
    }
    posts.forEach((post, i) => {
      post.ply += INTERLEAVED_STEPS[(i + round) % INTERLEAVED_STEPS.length]!;
      if (post.ply >= post.game.length) [post.ply, post.generation] = [0, post.generation + 1];
    });
  }
  return {
    render_png_interleaved_cpu_us: median(cpu),
    render_png_interleaved_bytes_median: median(sizes),
    render_png_interleaved_bytes_max: Math.max(...sizes),
  };
}

export async function benchRender(): Promise<Record<string, number>> {
  const scenes = benchScenes();
  const png = (scene: BoardScene): Buffer => {
    const out = renderPng(scene);
    if (!out.ok) throw new Error(out.error);
    return out.value;
  };
  // Warm: palette, sprites and glyphs are made once per process; the first frame pays for them.
  for (const scene of scenes) png(scene);

  const times: number[] = [];
  let largest = 0;
  for (let i = 0; i < PNG_RUNS; i++) {
    const scene = scenes[i % scenes.length]!;
    const start = performance.now();
    const bytes = png(scene);
    times.push(performance.now() - start);
    largest = Math.max(largest, bytes.length);
  }

  const plain = plainRenderer();
  const positions = scenes.map((scene) => {
    const pos = readPosition(scene);
    if (!pos.ok) throw new Error(pos.error);
    return pos.value;
  });
  plain(scenes[0]!, positions[0]!);
  const baseline: number[] = [];
  for (let i = 0; i < BASELINE_RUNS; i++) {
    const k = (i * 7) % scenes.length;
    const start = performance.now();
    plain(scenes[k]!, positions[k]!);
    baseline.push(performance.now() - start);
  }

  const game = scenes.slice(0, GIF_PLIES + 1);
  let gifBytes = 0;
  const gifTimes: number[] = [];
  for (let i = 0; i <= GIF_RUNS; i++) {
    const start = performance.now();
    const gif = renderGif(game);
    const elapsed = performance.now() - start;
    if (!gif.ok) throw new Error(gif.error);
    if (i > 0) gifTimes.push(elapsed); // run 0 warms the GIF path
    gifBytes = gif.value.length;
  }

  // CPU rather than wall time: what a render thread spends, whatever else the machine runs.
  const pngCpuMs = cpuMs(CPU_PNGS_A_ROUND, (call) => png(scenes[call % scenes.length]!));
  const gifCpuMs = (plies: number): number =>
    cpuMs(CPU_GIFS_A_ROUND, () => {
      if (!renderGif(scenes.slice(0, plies + 1)).ok) throw new Error('no GIF');
    });
  const interleaved = benchInterleavedPngs(png);
  const gif44CpuMs = gifCpuMs(44);
  const gif100CpuMs = gifCpuMs(GIF_PLIES);

  const pngMedian = median(times);
  const baselineMedian = median(baseline);
  return {
    render_png_ms_median: pngMedian,
    render_png_baseline_ms_median: baselineMedian,
    render_png_speedup_ratio: baselineMedian / pngMedian,
    /** The largest PNG over the game's positions. */
    render_png_bytes: largest,
    gif_100ply_ms: median(gifTimes),
    gif_100ply_bytes: gifBytes,
    render_png_cpu_us: pngCpuMs * 1000,
    ...interleaved,
    gif_44ply_cpu_ms: gif44CpuMs,
    gif_100ply_cpu_ms: gif100CpuMs,
  };
}
