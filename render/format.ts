// Clock and result text as the board draws them. Messages about a game use the same words
// (src/relay/message.ts, /club), so that the image and the text beside it agree.
import type { SceneResult } from './scene.js';

/** `1-0 · Black resigns`; the reason alone for an unfinished result (`*`). */
export function resultText(result: SceneResult): string {
  if (result.result === '*') return result.reason ?? '*';
  const score = result.result === '1/2-1/2' ? '½-½' : result.result;
  return result.reason ? `${score} · ${result.reason}` : score;
}

/** h:mm:ss from an hour, m:ss, and m:ss.t under ten seconds. */
export function formatClock(ms: number): string {
  const clamped = Math.max(0, ms);
  if (clamped < 10_000) {
    const tenths = Math.floor(clamped / 100);
    return `0:0${Math.floor(tenths / 10)}.${tenths % 10}`;
  }
  const total = Math.floor(clamped / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
