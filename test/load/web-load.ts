// npm run webload [-- --games 300 --viewers 1000 --ply-ms 8000 --measure-s 60 --json]
// The live web page under load: the whole bot (its own process, as main.ts runs it) relaying
// `games` games of a fake FICS server into the fake Discord as `npm run loadtest` does, with
// `viewers` live pages open on those games (push streams, spread evenly, held by a child process
// of their own so that the measuring does not load the bot's or the fakes' event loop). Measures
// the time from the fake FICS writing a board line to the move's event reaching a page, the bot's
// memory per idle viewer (garbage collected before and after the viewers connect), and the bot's
// total with every viewer connected.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { SseClient } from '../web/sse.js';
import { BotChild } from './bot-child.js';
import { MB, machine, round, summarize, table } from './stats.js';
import { LoadWorld, sleep } from './world.js';

/** What the viewers' process reports: each move event's game, ply and arrival time. */
interface Arrival {
  game: number;
  ply: number;
  at: number;
}

type ViewerMessage =
  { type: 'ready'; connected: number; refused: number } | { type: 'arrivals'; arrivals: Arrival[] };

const now = (): number => performance.timeOrigin + performance.now();

if (process.argv[2] === 'viewers') await runViewers();
else await main();

/** The viewers' process: opens the streams, then records every move event until asked. */
async function runViewers(): Promise<void> {
  const { urls } = await new Promise<{ urls: string[] }>((resolve) =>
    process.once('message', (m) => resolve(m as { urls: string[] })),
  );
  const arrivals: Arrival[] = [];
  let refused = 0;
  const clients: SseClient[] = [];
  // A few at a time: a thousand connections at once would only measure the accept queue.
  for (let i = 0; i < urls.length; i += 50) {
    const opened = await Promise.all(
      urls.slice(i, i + 50).map((url) => {
        let game = 0;
        return SseClient.open(url, (event) => {
          if (event.type === 'state') game = (event.data as { board: { game: number } }).board.game;
          else if (event.type === 'move')
            arrivals.push({ game, ply: (event.data as { ply: number }).ply, at: event.at });
        });
      }),
    );
    for (const client of opened) {
      if (client.status === 200) clients.push(client);
      else refused++;
    }
  }
  await Promise.all(clients.map((c) => c.waitForEvents(1, 30_000)));
  process.send!({ type: 'ready', connected: clients.length, refused } satisfies ViewerMessage);
  await new Promise((resolve) => process.once('message', resolve));
  for (const client of clients) client.close();
  // Disconnecting before the report is flushed would lose it: after, in send's callback.
  process.send!({ type: 'arrivals', arrivals } satisfies ViewerMessage, undefined, {}, () =>
    process.disconnect(),
  );
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function main(): Promise<void> {
  const { values: args } = parseArgs({
    options: {
      games: { type: 'string', default: '300' },
      viewers: { type: 'string', default: '1000' },
      'ply-ms': { type: 'string', default: '8000' },
      'warmup-s': { type: 'string', default: '15' },
      'measure-s': { type: 'string', default: '60' },
      seed: { type: 'string', default: '1' },
      json: { type: 'boolean', default: false },
    },
  });
  const games = Number(args.games);
  const viewers = Number(args.viewers);
  const say = (text: string): void => void process.stderr.write(`${text}\n`);
  const dir = mkdtempSync(join(tmpdir(), 'kibitz-webload-'));
  const world = await LoadWorld.start({
    channels: games,
    plyMs: Number(args['ply-ms']),
    nextGameAfterMs: 3_000,
    joinMidGame: true,
    seed: Number(args.seed),
  });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = await BotChild.start({
    env: world.botEnv(join(dir, 'kibitz.db'), {
      KIBITZ_WEB_PORT: String(port),
      KIBITZ_WEB_MAX_VIEWERS: String(viewers * 2),
      KIBITZ_WEB_MAX_VIEWERS_PER_GAME: String(viewers),
    }),
    logFile: join(dir, 'bot.log'),
  });
  // When each board line left the fake FICS: `<game>:<ply>` -> time.
  const sentAt = new Map<string, number>();
  const playMove = world.fics.playMove.bind(world.fics);
  world.fics.playMove = (number: number): string => {
    sentAt.set(`${number}:${world.fics.game(number)!.ply + 1}`, now());
    return playMove(number);
  };
  const viewersProcess = fork(fileURLToPath(import.meta.url), ['viewers'], { execArgv: ['--import', 'tsx'] });
  try {
    await world.commandsRegistered();
    say(`bot up (pid ${child.pid}); observing ${games} games...`);
    await world.observeAll(20);
    const ids = [
      ...(await (await fetch(`${base}/`)).text()).matchAll(/href="\/g\/([A-Za-z0-9_-]{22})"/g),
    ].map((m) => m[1]!);
    say(`${ids.length} games on the front page; opening ${viewers} pages...`);
    const idle = await child.metrics({ gc: true });
    const next = async (): Promise<ViewerMessage> =>
      (await once(viewersProcess, 'message'))[0] as ViewerMessage;
    viewersProcess.send({
      urls: Array.from({ length: viewers }, (_, i) => `${base}/g/${ids[i % ids.length]}/events`),
    });
    const ready = await next();
    if (ready.type !== 'ready') throw new Error('the viewers did not connect');
    const watched = await child.metrics({ gc: true });
    say(`${ready.connected} pages open (${ready.refused} refused); playing...`);

    world.startPacing();
    const stopHousekeeping = world.startHousekeeping();
    await sleep(Number(args['warmup-s']) * 1000);
    await child.metrics({ reset: true });
    const from = now();
    await sleep(Number(args['measure-s']) * 1000);
    const bot = await child.metrics();
    viewersProcess.send({ type: 'report' });
    const report = await Promise.race([
      next(),
      once(viewersProcess, 'exit').then(() => {
        throw new Error('the viewers process ended without its report');
      }),
    ]);
    stopHousekeeping();
    if (report.type !== 'arrivals') throw new Error('the viewers sent no report');
    const latencies: number[] = [];
    for (const arrival of report.arrivals) {
      const sent = sentAt.get(`${arrival.game}:${arrival.ply}`);
      if (sent !== undefined && sent >= from) latencies.push(arrival.at - sent);
    }
    const latency = summarize(latencies);
    const turn = summarize(bot.updateTurnMs);
    const perViewer = (after: number, before: number): number =>
      round((after - before) / ready.connected / 1024);
    const figures = {
      date: new Date().toISOString(),
      machine: machine(),
      games,
      viewers: ready.connected,
      refused: ready.refused,
      moveEvents: latency.count,
      latencyP50Ms: round(latency.p50),
      latencyP99Ms: round(latency.p99),
      latencyMaxMs: round(latency.max),
      updateTurnP50Ms: round(turn.p50),
      updateTurnP99Ms: round(turn.p99),
      heapPerViewerKiB: perViewer(watched.heapUsedBytes, idle.heapUsedBytes),
      rssPerViewerKiB: perViewer(watched.rssBytes, idle.rssBytes),
      rssWithoutViewersMB: round(idle.rssBytes / MB),
      rssWithViewersMB: round(watched.rssBytes / MB),
      rssMaxMeasuringMB: round(bot.rssMaxBytes / MB),
      botCpuPercent: round((bot.cpuMs / bot.wallMs) * 100),
      loopDelayP99Ms: round(bot.loop.p99),
    };
    if (args.json) process.stdout.write(`${JSON.stringify(figures)}\n`);
    else
      process.stdout.write(
        `${table(
          ['figure', 'measured', 'goal'],
          [
            ['machine', figures.machine, ''],
            ['live games / open pages (refused)', `${games} / ${figures.viewers} (${figures.refused})`, ''],
            ['move events received', figures.moveEvents, ''],
            [
              'board line from FICS -> move event at a page, p50 / p99 / max ms',
              `${figures.latencyP50Ms} / ${figures.latencyP99Ms} / ${figures.latencyMaxMs}`,
              `p99 < 50: ${figures.latencyP99Ms < 50 ? 'met' : 'NOT met'}`,
            ],
            [
              "one update's turn in the bot (relay's listener, then every page's write), p50 / p99 ms",
              `${figures.updateTurnP50Ms} / ${figures.updateTurnP99Ms}`,
              '',
            ],
            [
              'bot memory per idle page: heap / resident KiB',
              `${figures.heapPerViewerKiB} / ${figures.rssPerViewerKiB}`,
              '',
            ],
            [
              'bot resident memory: no pages / all pages open / max while playing MB',
              `${figures.rssWithoutViewersMB} / ${figures.rssWithViewersMB} / ${figures.rssMaxMeasuringMB}`,
              '',
            ],
            ['bot CPU (% of one core)', figures.botCpuPercent, ''],
            ['bot event-loop delay p99 ms', figures.loopDelayP99Ms, ''],
          ],
        )}\n`,
      );
  } finally {
    viewersProcess.kill();
    await child.stop();
    await world.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
