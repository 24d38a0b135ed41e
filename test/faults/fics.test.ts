// FICS misbehaving under load: connections cut at random while games run, and the server refusing
// every login for a while. The bot must come back by itself and lose nothing: every game reaches
// its channel once, with its final position and its whole PGN.
import { afterEach, describe, expect, it } from 'vitest';
import type { ReconnectReport } from '../../src/fics/connection.js';
import type { LoadWorld } from '../load/world.js';
import type { FakeFicsOptions } from '../fake-fics/server.js';
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

describe('FICS faults', () => {
  it('connections cut at random: the bot reconnects, catches up and loses no game', async () => {
    // Two games per login: six games need three connections, each cut in turn.
    world = await smallWorld({ fics: { maxObserved: 2 }, seed: 7 });
    running = await startOnEditClock(world, { FICS_MAX_CONNECTIONS: '4' });
    const reports: ReconnectReport[] = [];
    running.bot.context.fics.on('reconnected', (report) => reports.push(report));
    await world.commandsRegistered();
    await world.observeAll(50);
    expect(world.observeFailures).toEqual([]);
    expect(world.fics.loggedIn().length).toBeGreaterThanOrEqual(3);
    world.startPacing();

    // A cut every dozen plies (two per game), counted, not timed: the games are still running at
    // each cut however slow the machine is.
    let cuts = 0;
    for (let round = 0; round < 6 && !allEnded(world); round++) {
      await pliesLater(world, 12);
      const sessions = world.fics.loggedIn();
      if (sessions.length === 0) continue;
      world.fics.drop(sessions[round % sessions.length]!.id);
      cuts++;
    }
    await waitFor(() => allEnded(world!), 'every game to end', 15_000);
    const totals = await auditAll(world);

    expect(cuts).toBeGreaterThanOrEqual(3);
    expect(totals).toMatchObject({ finished: 6, audited: 6, ...NOTHING_LOST });
    expect(reports.length).toBeGreaterThanOrEqual(1);
    // Nothing ended while a connection was away: every game came back.
    expect(reports.flatMap((r) => r.lost)).toEqual([]);
    expect(world.endedUnobserved).toBe(0);
  });

  it('logins refused for a while: the bot keeps trying and resumes every game', async () => {
    const ficsOptions: FakeFicsOptions = { full: false };
    world = await smallWorld({ fics: ficsOptions, seed: 11 });
    running = await startOnEditClock(world);
    await world.commandsRegistered();
    await world.observeAll(50);
    expect(world.observeFailures).toEqual([]);
    world.startPacing();
    // The games under way (a dozen plies played) when the server starts turning logins away.
    await pliesLater(world, 12);

    // The server turns every login away ("the server is full"), and drops everyone.
    ficsOptions.full = true;
    world.fics.drop();
    const refusedBefore = world.fics.received.length;
    await waitFor(
      () => world!.fics.received.length >= refusedBefore + 3,
      'three refused login attempts',
      10_000,
    );
    const pool = running.bot.context.fics;
    expect(pool.status().every((c) => c.state !== 'online')).toBe(true);
    ficsOptions.full = false;
    await waitFor(() => pool.status().every((c) => c.state === 'online'), 'the bot to log in again', 5_000);

    await waitFor(() => allEnded(world!), 'every game to end', 15_000);
    const totals = await auditAll(world);
    expect(totals).toMatchObject({ finished: 6, audited: 6, ...NOTHING_LOST });
    expect(running.logLines.some((l) => l.includes('is full and refused the login'))).toBe(true);
  });
});
