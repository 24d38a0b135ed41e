// npm run bench [-- --json]: every benchmark's figures, as a table or one JSON object.
import { benchDecode } from './decode.js';
import { benchEdit } from './edit.js';
import { benchFrontPage } from './front-page.js';
import { benchGameEnd } from './game-end.js';
import { benchInsight } from './insight.js';
import { benchMoves } from './moves.js';
import { benchRelayLatency } from './relay-latency.js';
import { benchRender } from './render.js';
import { benchRenderPool } from './render-pool.js';
import { benchSchedule } from './schedule.js';

const json = process.argv.includes('--json');
const figures: Record<string, number> = {
  ...benchDecode(),
  ...benchInsight(),
  ...benchGameEnd(),
  ...(await benchMoves()),
  ...(await benchRender()),
  ...(await benchRenderPool()),
  ...(await benchRelayLatency()),
  ...(await benchFrontPage()),
  ...(await benchSchedule()),
  ...(await benchEdit()),
};
if (json) {
  process.stdout.write(JSON.stringify(figures) + '\n');
} else {
  for (const [key, value] of Object.entries(figures)) {
    process.stdout.write(`${key.padEnd(36)} ${Number.isInteger(value) ? value : value.toFixed(2)}\n`);
  }
}
