// Kibitzes and whispers as lines of a post's thread: made safe to show (no mentions, no markdown
// surprises, bounded), and paced per game so that a chatty game never floods a thread or Discord:
// at most SAID_PER_WINDOW lines per SAID_WINDOW_MS, the rest folded into one "… and K more".
import type { Said } from '../game/snapshot.js';
import { truncate } from '../text.js';
import type { ScheduleClock } from './schedule.js';

export const SAID_WINDOW_MS = 10_000;
export const SAID_PER_WINDOW = 5;
/** One thread line, far below Discord's 2000 characters: a lecture line fits whole. */
export const SAID_LINE_MAX = 450;

/** Markdown that Discord reads, and `@` (a mention even with none allowed is noise), escaped. */
function escaped(text: string): string {
  return text.replace(/[\\*_~`|>#[\]()-]/g, '\\$&').replace(/@/g, '@\u200b');
}

/** `**Handle** kibitzes: text`, with the text bounded and made inert. */
export function makeSaidLine(said: Said): string {
  const verb = said.whisper ? 'whispers' : 'kibitzes';
  // Control characters and line breaks would let one line look like several.
  const text = said.text.replace(/[\p{Cc}\p{Cf}]+/gu, ' ');
  return truncate(`**${escaped(said.handle)}** ${verb}: ${escaped(text)}`, SAID_LINE_MAX);
}

export function makeFoldedLine(count: number): string {
  return `… and ${count} more ${count === 1 ? 'line' : 'lines'}`;
}

interface Window<T> {
  /** Where the game's lines go (the latest given). */
  target: T;
  start: number;
  sent: number;
  folded: number;
  cancel: (() => void) | null;
}

/** Per game (its key): lines out as they come while the window has room, the rest folded. */
export class SaidThrottle<T> {
  private readonly windows = new Map<string, Window<T>>();

  constructor(
    private readonly clock: ScheduleClock,
    private readonly send: (target: T, line: string) => void,
  ) {}

  offer(key: string, said: Said, target: T): void {
    const now = this.clock.now();
    let window = this.windows.get(key);
    if (window === undefined || (now - window.start >= SAID_WINDOW_MS && window.cancel === null)) {
      window = { target, start: now, sent: 0, folded: 0, cancel: null };
      this.windows.set(key, window);
    }
    window.target = target;
    if (window.sent < SAID_PER_WINDOW) {
      window.sent++;
      this.send(target, makeSaidLine(said));
      return;
    }
    window.folded++;
    if (window.cancel !== null) return;
    const open = window;
    open.cancel = this.clock.after(Math.max(0, open.start + SAID_WINDOW_MS - now), () => {
      open.cancel = null;
      this.flush(open);
      // The folded line counts in the next window.
      Object.assign(open, { start: this.clock.now(), sent: 1 });
    });
  }

  /** The game ended: what is folded goes now, and nothing of the game is kept. */
  forget(key: string): void {
    const window = this.windows.get(key);
    if (window === undefined) return;
    window.cancel?.();
    this.flush(window);
    this.windows.delete(key);
  }

  private flush(window: Window<T>): void {
    if (window.folded > 0) this.send(window.target, makeFoldedLine(window.folded));
    window.folded = 0;
  }
}
