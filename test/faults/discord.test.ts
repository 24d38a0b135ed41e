// Discord misbehaving under load: 429s, 500s and cut connections on live edits (the final ones
// included), and the gateway dropping while commands come in. Every game must still reach its
// channel once, with its final position and its whole PGN.
import { afterEach, describe, expect, it } from 'vitest';
import type { Fault } from '../fake-discord/index.js';
import type { LoadWorld } from '../load/world.js';
import {
  NOTHING_LOST,
  allEnded,
  auditAll,
  pliesLater,
  smallWorld,
  startOnEditClock,
  type ClockedBot,
} from './harness.js';
import { waitFor } from '../support/wait.js';

let world: LoadWorld | null = null;
let running: ClockedBot | null = null;

afterEach(async () => {
  try {
    await running?.bot.stop();
  } finally {
    running?.stopClock();
    await world?.close();
  }
  running = null;
  world = null;
});

const editsIn = (channelId: string) => ({
  method: 'PATCH',
  path: new RegExp(`^/channels/${channelId}/messages/`),
});

describe('Discord faults', () => {
  it('429, 500 and reset connections on edits, final edits included: nothing is lost', async () => {
    world = await smallWorld({ seed: 3 });
    running = await startOnEditClock(world);
    await world.commandsRegistered();
    await world.observeAll(50);
    expect(world.observeFailures).toEqual([]);

    // The final edit of each game meets a fault: more 500s than discord.js retries, a cut
    // connection (which discord.js does not retry), or a 429.
    const finals: Fault[] = [
      { kind: 'error', status: 500 },
      { kind: 'reset' },
      { kind: 'rateLimit', retryAfterMs: 300 },
    ];
    const armed: string[] = [];
    world.onEnd = (_game, slot) => {
      const fault = finals[slot.index % finals.length]!;
      world!.discord.failNext(editsIn(slot.channelId), fault, fault.kind === 'error' ? 6 : 1);
      armed.push(fault.kind);
    };
    world.startPacing();
    // Meanwhile, edits anywhere meet the same faults now and then.
    for (let round = 0; round < 10 && !allEnded(world); round++) {
      const slot = world.slots[round % world.slots.length]!;
      world.discord.failNext(editsIn(slot.channelId), finals[round % finals.length]!);
      await pliesLater(world, 6);
    }
    await waitFor(() => allEnded(world!), 'every game to end', 15_000);
    const totals = await auditAll(world, 15_000);

    expect(totals).toMatchObject({ finished: 6, audited: 6, ...NOTHING_LOST });
    expect(armed.sort()).toEqual(['error', 'error', 'rateLimit', 'rateLimit', 'reset', 'reset']);
  });

  it('the gateway drops while commands come in: they are answered, and every game goes on', async () => {
    world = await smallWorld({ seed: 5 });
    running = await startOnEditClock(world);
    await world.commandsRegistered();
    const observing = world.observeAll(20);
    // Dropped once the first /observe is delivered, with five more to come (one per 50 ms).
    await waitFor(
      () => world!.discord.gatewayLog.some((e) => e.direction === 'out' && e.t === 'INTERACTION_CREATE'),
      'the first /observe delivered',
    );
    world.discord.dropGateway();
    await observing;
    expect(world.observeFailures).toEqual([]);
    // The client resumed the session (op 6) rather than starting a new one.
    expect(world.discord.gatewayLog.some((e) => e.direction === 'in' && e.op === 6)).toBe(true);
    world.startPacing();
    await pliesLater(world, 12);
    world.discord.dropGateway();
    await waitFor(() => allEnded(world!), 'every game to end', 15_000);
    const totals = await auditAll(world);
    expect(totals).toMatchObject({ finished: 6, audited: 6, ...NOTHING_LOST });
  });
});
