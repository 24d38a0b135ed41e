// Discord misbehaving under load: 429s, 500s and cut connections on live edits (the final ones
// included), and the gateway dropping while commands come in. Every game must still reach its
// channel once, with its final position and its whole PGN.
import { afterEach, describe, expect, it } from 'vitest';
import type { Fault, RecordedRequest } from '../fake-discord/index.js';
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

/** src/discord/live-port.ts's first wait before an edit is tried again after a 5xx or a cut. */
const EDIT_RETRY_FIRST_MS = 1_000;
const RETRY_AFTER_MS = 300;
/** Discord's answer to a request too large (40005). */
const TOO_LARGE: Fault = { kind: 'error', status: 413, code: 40005, message: 'Request entity too large' };

/** A game's final edit (its PGN, no GIF), its GIF edit, and its message's last edit, from the fake's log. */
function lastEdits(
  requests: readonly RecordedRequest[],
  game: number,
): { final: RecordedRequest[]; gif: RecordedRequest[]; last: RecordedRequest | undefined } {
  const carries = (r: RecordedRequest, name: string): boolean => r.files.some((f) => f.filename === name);
  const pgn = `game-${game}.pgn`;
  const gifName = `game-${game}.gif`;
  const edits = requests.filter((r) => r.method === 'PATCH' && carries(r, pgn));
  const message = edits[0]?.path;
  return {
    final: edits.filter((r) => !carries(r, gifName)),
    gif: edits.filter((r) => carries(r, gifName)),
    last: requests.filter((r) => r.method === 'PATCH' && r.path === message).at(-1),
  };
}

/**
 * Each edit that failed and was tried again without its wait, or refused for good and tried again,
 * by the edit clock: a 5xx or a cut connection after live-port's back-off (discord.js sends
 * neither again at once: src/discord/client.ts); a 429 after its Retry-After; a 4xx other than 429
 * never (the message's next edit is a new position, not a retry, but it too waits its turn after a
 * failure). The fake lists any request sent again within 250 ms of a 5xx or a cut besides
 * (LoadWorld.close fails the test on one).
 */
function retriesWithoutWait(
  requests: readonly RecordedRequest[],
  clockAt: ReadonlyMap<number, number>,
): string[] {
  const problems: string[] = [];
  const byMessage = new Map<string, RecordedRequest[]>();
  for (const r of requests)
    if (r.method === 'PATCH' && r.route === '/channels/:channel_id/messages/:message_id')
      byMessage.set(r.path, [...(byMessage.get(r.path) ?? []), r]);
  for (const [path, edits] of byMessage) {
    for (const [i, failed] of edits.slice(0, -1).entries()) {
      const next = edits[i + 1]!;
      const waited = clockAt.get(next.seq)! - clockAt.get(failed.seq)!;
      const say = (what: string): void =>
        void problems.push(`${path} #${failed.seq} ${failed.status} then #${next.seq} ${what}`);
      if ((failed.status >= 500 || failed.status === -1) && waited < EDIT_RETRY_FIRST_MS)
        say(`after ${waited} ms`);
      else if (failed.status === 429 && waited < RETRY_AFTER_MS) say(`after ${waited} ms`);
      else if (failed.status >= 400 && failed.status < 500 && failed.status !== 429)
        say('after a refusal for good');
    }
  }
  return problems;
}

const editsIn = (channelId: string) => ({
  method: 'PATCH',
  path: new RegExp(`^/channels/${channelId}/messages/`),
});

describe('Discord faults', () => {
  it('429, 500 and reset connections on edits, final edits included: nothing is lost, each retry after its wait', async () => {
    world = await smallWorld({ seed: 3 });
    running = await startOnEditClock(world);
    const { clock } = running;
    // The edit clock's time at each request's arrival: the waits before retries show there.
    const clockAt = new Map<number, number>();
    world.discord.on('arrival', (request: RecordedRequest) => clockAt.set(request.seq, clock.now()));
    await world.commandsRegistered();
    await world.observeAll(50);
    expect(world.observeFailures).toEqual([]);

    // Each game's last two edits meet a fault, matched by their files: the final edit (result and
    // PGN) and after it the last edit a post gets, the same with the whole-game GIF. The final
    // edit meets three 500s in a row, a cut connection, or a 429; the GIF edit the next fault in
    // that list, and slot 5's a refusal for good (too large: the GIF is given up, the final edit
    // before it stays).
    const faults: Fault[] = [
      { kind: 'error', status: 500 },
      { kind: 'reset' },
      { kind: 'rateLimit', retryAfterMs: RETRY_AFTER_MS },
    ];
    // 500s three times over (each try after a longer back-off); a 413 to every try (one is too many).
    const times = (fault: Fault): number => (fault.kind === 'error' ? 3 : 1);
    const games = new Map<number, number>();
    world.onEnd = (game, slot) => {
      games.set(slot.index, game.number);
      const final = faults[slot.index % faults.length]!;
      const gif = slot.index === 5 ? TOO_LARGE : faults[(slot.index + 1) % faults.length]!;
      world!.discord.failNext({ method: 'PATCH', file: `game-${game.number}.pgn` }, final, times(final));
      world!.discord.failNext({ method: 'PATCH', file: `game-${game.number}.gif` }, gif, times(gif));
    };
    world.startPacing();
    // Meanwhile, edits anywhere meet the same faults now and then.
    for (let round = 0; round < 10 && !allEnded(world); round++) {
      const slot = world.slots[round % world.slots.length]!;
      world.discord.failNext(editsIn(slot.channelId), faults[round % faults.length]!);
      await pliesLater(world, 6);
    }
    await waitFor(() => allEnded(world!), 'every game to end', 15_000);
    const totals = await auditAll(world, 15_000);
    expect(totals).toMatchObject({ finished: 6, audited: 6, ...NOTHING_LOST });
    // The GIF edits go after the finals, in their turn: the relay idle, each has had its answer.
    await running.bot.context.relay.idle();
    expect([...games.keys()].sort()).toEqual([0, 1, 2, 3, 4, 5]);
    const requests = world.discord.requests;
    // The final edit went out itself (the GIF edit after it would otherwise hide its loss), after
    // its faults; the GIF edit is the post's last, or refused for good and not tried again.
    expect(
      [...games].map(([slot, game]) => {
        const { final, gif, last } = lastEdits(requests, game);
        const failed = final.filter((r) => r.status !== 200);
        return {
          slot,
          finalFailures: failed.length >= times(faults[slot % faults.length]!),
          finalSent: final.at(-1)?.status,
          gifAnswers: slot === 5 ? gif.map((r) => r.status) : gif.at(-1)?.status,
          lastIsGif: last === gif.at(-1),
        };
      }),
    ).toEqual(
      [...games.keys()].map((slot) => ({
        slot,
        finalFailures: true,
        finalSent: 200,
        gifAnswers: slot === 5 ? [413] : 200,
        lastIsGif: true,
      })),
    );
    // No edit tried again without a wait, none refused for good tried again.
    expect(retriesWithoutWait(requests, clockAt)).toEqual([]);
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
