// npm run loadtest -- --faults: the load test's world (hundreds of games at blitz pace) with every
// fault in turn: FICS connections cut, logins refused for a while, Discord answering 500 and 429,
// the gateway dropped (resumable, then not), and the bot killed with SIGKILL and started again on
// its database. Counts what was lost and how long each recovery took. Games here end whenever
// their script does, observed or not: a game that ends while no connection of the bot observes it
// is counted apart (FICS keeps no record an observer could fetch afterwards).
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { BotChild } from './bot-child.js';
import { machine, round, table } from './stats.js';
import { LoadWorld, sleep, type PlayedGame } from './world.js';

export interface FaultLoadOptions {
  games: number;
  plyMs: number;
  warmupS: number;
  seed: number;
  json: boolean;
}

interface Recovery {
  fault: string;
  /** From the fault's end to every running game observed again (or edits flowing), ms. */
  recoveryMs: number | null;
  detail: string;
}

export async function runFaultLoad(o: FaultLoadOptions): Promise<void> {
  const say = (text: string): void => void process.stderr.write(`${text}\n`);
  const dir = mkdtempSync(join(tmpdir(), 'kibitz-faults-'));
  const ficsOptions = { full: false };
  const world = await LoadWorld.start({
    channels: o.games,
    plyMs: o.plyMs,
    nextGameAfterMs: 3_000,
    joinMidGame: true,
    seed: o.seed,
    fics: ficsOptions,
  });
  const env = world.botEnv(join(dir, 'kibitz.db'));
  // The production back-off (first retry after 0.5 to 1 s): recovery times are the real ones.
  let child = await BotChild.start({ env, logFile: join(dir, 'bot.log') });
  const recoveries: Recovery[] = [];
  /** When each game was observed again after the latest fault (performance clock). */
  const reobservedAt = new Map<PlayedGame, number>();
  const observedAgain = async (what: string, since: number, detail: string): Promise<void> => {
    const deadline = Date.now() + 120_000;
    const waiting = new Set(
      world.slots.map((s) => s.game).filter((g): g is PlayedGame => g?.posted === true),
    );
    while (waiting.size > 0 && Date.now() < deadline) {
      for (const game of waiting) {
        if (game.ended || world.fics.observers(game.number).length === 0) continue;
        reobservedAt.set(game, performance.now());
        waiting.delete(game);
      }
      if (world.allObserved()) break;
      await sleep(20);
    }
    recoveries.push({ fault: what, recoveryMs: world.allObserved() ? Date.now() - since : null, detail });
    for (const slot of world.slots.filter(
      (x) => x.game?.posted === true && world.fics.observers(x.game.number).length === 0,
    ))
      say(
        `not observed again: game ${slot.game!.number} in channel ${slot.channelId}, ${slot.game!.played.length} plies`,
      );
    say(`${what}: ${JSON.stringify(recoveries.at(-1))}`);
  };
  try {
    await world.commandsRegistered();
    say(`bot up; observing ${o.games} games...`);
    await world.observeAll(20);
    world.startPacing();
    const stopHousekeeping = world.startHousekeeping();
    await sleep(o.warmupS * 1000);

    // 1. FICS connections cut: three at random, at once.
    const sessions = world.fics.loggedIn();
    const cut = [0, 1, 2].map((i) => sessions[(i * 7) % sessions.length]!.id);
    const cutAt = Date.now();
    for (const id of cut) world.fics.drop(id);
    // The fake sees its sockets close a moment later; until then the games still count as observed.
    while (world.fics.loggedIn().some((s) => cut.includes(s.id))) await sleep(1);
    await observedAgain('FICS: 3 connections cut', cutAt, `${sessions.length} connections before`);
    await sleep(10_000);

    // 2. Every login refused for 10 s, after every connection dropped.
    ficsOptions.full = true;
    world.fics.drop();
    await sleep(10_000);
    ficsOptions.full = false;
    await observedAgain(
      'FICS: all dropped, logins refused 10 s',
      Date.now(),
      'measured from logins allowed again',
    );
    await sleep(10_000);

    // 3. Discord: 200 edits answered 500 and 100 answered 429 (1 s), over about 10 s.
    const edits = { method: 'PATCH', route: '/channels/:channel_id/messages/:message_id' };
    const before = world.counts.edits;
    world.discord.failNext(edits, { kind: 'error', status: 500 }, 200);
    world.discord.failNext(edits, { kind: 'rateLimit', retryAfterMs: 1_000 }, 100);
    world.discord.failNext(edits, { kind: 'reset' }, 20);
    const faultStart = Date.now();
    while (world.counts.edits - before < 400 && Date.now() - faultStart < 60_000) await sleep(100);
    recoveries.push({
      fault: 'Discord: 200 x 500, 100 x 429, 20 connections reset on edits',
      recoveryMs: null,
      detail: `took ${Math.round((Date.now() - faultStart) / 1000)} s of edits to pass`,
    });
    await sleep(10_000);

    // 4. Gateway dropped: resumable, then not (a new session must IDENTIFY).
    world.discord.dropGateway();
    await sleep(5_000);
    world.discord.dropGateway({ resumable: false });
    const dropped = Date.now();
    await world.discord.waitFor(
      () => (world.discord.connected ? true : undefined),
      'a new gateway session',
      60_000,
    );
    recoveries.push({
      fault: 'gateway dropped (resumable, then not)',
      recoveryMs: Date.now() - dropped,
      detail: '',
    });
    await sleep(10_000);

    // 5. SIGKILL, then the bot started again on the same database.
    const killedAt = Date.now();
    await child.kill();
    child = await BotChild.start({ env, logFile: join(dir, 'bot.log') });
    await observedAgain('SIGKILL and restart', killedAt, `bot up again after ${Date.now() - killedAt} ms`);
    await sleep(15_000);
    stopHousekeeping();

    const audit = await world.endAllAndAudit({ healMs: 30_000, auditMs: 90_000 });
    const figures = {
      date: new Date().toISOString(),
      machine: machine(),
      loadAverageEnd: round(loadavg()[0]!),
      games: o.games,
      ...Object.fromEntries(Object.entries(audit).map(([k, v]) => [`audit_${k}`, v])),
      endedUnobserved: world.endedUnobserved,
      observeRefused: world.observeFailures.length,
      recoveries,
    };
    if (o.json) process.stdout.write(`${JSON.stringify(figures)}\n`);
    else {
      process.stdout.write(
        `${table(
          ['fault', 'recovery', 'detail'],
          recoveries.map((r) => [r.fault, r.recoveryMs === null ? '-' : `${r.recoveryMs} ms`, r.detail]),
        )}\n\n${table(
          ['figure', 'measured', 'goal'],
          [
            ['machine / load average at the end', `${figures.machine} / ${figures.loadAverageEnd}`, ''],
            ['games finished (all audited)', `${audit.finished} (${audit.audited})`, ''],
            [
              'lost (games observed at their end): final / PGN / duplicate posts',
              `${audit.finalMissing} / ${audit.pgnMissing} / ${audit.duplicates}`,
              '0 / 0 / 0',
            ],
            [
              'games that ended while no connection observed them / their end lost',
              `${world.endedUnobserved} / ${audit.lostUnobserved}`,
              '',
            ],
            ['games never posted (/observe refused or unanswered)', `${audit.unposted}`, ''],
          ],
        )}\n`,
      );
      for (const line of world.lostReport((g) => {
        const back = reobservedAt.get(g);
        return back === undefined
          ? 'away from faults'
          : `${Math.round(g.lastPlyAt - back)} ms after observed again`;
      }))
        say(line);
      if (world.observeFailures.length > 0)
        say(`refused, e.g.: ${[...new Set(world.observeFailures)].slice(0, 3).join(' | ')}`);
    }
  } finally {
    await child.stop();
    await world.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
