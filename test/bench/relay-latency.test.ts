// `npm run bench` is not part of the tests, so its relay bench once stopped working unseen (the
// bot's edit pacing held its edits back): a short run here keeps it measuring.
import { describe, expect, it } from 'vitest';
import { benchRelayLatency } from './relay-latency.js';

describe('the relay latency bench', () => {
  it('times each move to its edit through the whole bot', async () => {
    const figures = await benchRelayLatency(5);
    expect(figures.relay_edit_latency_ms_p50).toBeGreaterThan(0);
    expect(figures.relay_edit_latency_ms_p99).toBeGreaterThanOrEqual(figures.relay_edit_latency_ms_p50!);
  });
});
