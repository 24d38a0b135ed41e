// The bot's Prometheus metrics (`/metrics`), with prom-client. Gauges of what exists now (live
// games, viewers, FICS connections) are read when scraped; counters and histograms are fed by
// small hooks where things happen (the relay's edits, Discord's answers, renders, FICS reconnects).
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ScheduleFigures } from '../relay/schedule.js';

export interface MetricsSources {
  /** Games with a live page now. */
  liveGames(): number;
  /** Open live pages now. */
  viewers(): number;
  /** FICS connections online now. */
  ficsConnections(): number;
}

export class Metrics {
  readonly registry = new Registry();
  readonly ficsReconnects: Counter;
  readonly discordRequests: Counter<'status'>;
  readonly editSeconds: Histogram;
  readonly renderSeconds: Histogram;
  readonly rendersFailed: Counter<'kind' | 'reason'>;
  readonly viewersDropped: Counter;

  /** The edit scheduler's counts (src/relay/schedule.ts): its waits are counted, never logged. */
  addSchedule(figures: () => ScheduleFigures): void {
    const registers = [this.registry];
    const gauge = (name: string, help: string, read: (f: ScheduleFigures) => number): void =>
      void new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(read(figures()));
        },
      });
    gauge('kibitz_edit_turns', 'Posts and edits given their turn since the start', (f) => f.turns);
    gauge('kibitz_edit_urgent_turns', 'Turns of finals, new posts and button answers', (f) => f.urgentTurns);
    gauge(
      'kibitz_edits_held_back',
      'Sends Discord still held back (each holds its channel)',
      (f) => f.heldBack,
    );
    gauge('kibitz_edits_waiting', 'Posts waiting for their turn now', (f) => f.waiting);
    gauge(
      'kibitz_edit_wait_seconds',
      "The last turn's wait since its oldest unshown update",
      (f) => f.lastWaitMs / 1000,
    );
  }

  constructor(sources: MetricsSources) {
    const registers = [this.registry];
    new Gauge({
      name: 'kibitz_live_games',
      help: 'Relayed games with a live page',
      registers,
      collect() {
        this.set(sources.liveGames());
      },
    });
    new Gauge({
      name: 'kibitz_web_viewers',
      help: 'Open live pages (push streams)',
      registers,
      collect() {
        this.set(sources.viewers());
      },
    });
    new Gauge({
      name: 'kibitz_fics_connections',
      help: 'FICS connections online',
      registers,
      collect() {
        this.set(sources.ficsConnections());
      },
    });
    this.ficsReconnects = new Counter({
      name: 'kibitz_fics_reconnects_total',
      help: 'FICS connections made again after a drop',
      registers,
    });
    this.discordRequests = new Counter({
      name: 'kibitz_discord_requests_total',
      help: 'Discord REST answers by HTTP status',
      labelNames: ['status'],
      registers,
    });
    this.editSeconds = new Histogram({
      name: 'kibitz_edit_seconds',
      help: 'One live post edit: its picture drawn (or taken from the cache) and Discord answering',
      buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.renderSeconds = new Histogram({
      name: 'kibitz_render_seconds',
      help: 'One board picture: its turn on the render thread and its drawing',
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
      registers,
    });
    this.rendersFailed = new Counter({
      name: 'kibitz_renders_failed_total',
      help: 'Pictures not made (board, chart, gif), by reason: closed (the bot stopping) or failed',
      labelNames: ['kind', 'reason'],
      registers,
    });
    this.viewersDropped = new Counter({
      name: 'kibitz_web_viewers_dropped_total',
      help: 'Live pages dropped for not reading their stream (they reconnect)',
      registers,
    });
  }

  /** Times a promise into a histogram (seconds), whatever its outcome. */
  async timed<T>(histogram: Histogram, work: () => Promise<T>): Promise<T> {
    const end = histogram.startTimer();
    try {
      return await work();
    } finally {
      end();
    }
  }
}
