// npm run limits [-- --line-mib 520 --reply-mib 560 --banner-mib 40 --body-mib 1024
//   --source-kib 1024 --moves 100 --poll-ms 100]
// Measures what the input bounds hold, each in a child process of its own (limits-child.ts) with
// the default limits: resident memory while a FICS line of 520 MiB without a line end, or a
// block-mode reply of 560 MiB, arrives from the fake FICS server; time and CPU to log in past a
// 40 MiB banner without a line end; resident memory while a ChessLive! URL answers a 1 GiB body
// (with and without a Content-Length); event-loop delay while a 1 MiB ChessLive! move file grows
// one move per poll.
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fixture, scriptOf } from '../fake-fics/fixture-games.js';
import { FakeFics } from '../fake-fics/server.js';
import type { ChildReport, Scenario } from './limits-child.js';
import { machine, MB, round, table } from './stats.js';

const { values: args } = parseArgs({
  options: {
    'line-mib': { type: 'string', default: '520' },
    'reply-mib': { type: 'string', default: '560' },
    'banner-mib': { type: 'string', default: '40' },
    'body-mib': { type: 'string', default: '1024' },
    'source-kib': { type: 'string', default: '1024' },
    moves: { type: 'string', default: '100' },
    'poll-ms': { type: 'string', default: '100' },
  },
});
const CHILD = new URL('./limits-child.ts', import.meta.url).pathname;

/** Runs a scenario in a child; `drive` does the sending once the child is ready. */
async function measure(
  scenario: Scenario,
  drive: (child: ChildProcess) => Promise<void>,
): Promise<ChildReport & { type: 'done' }> {
  const child = fork(CHILD, [], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    env: { PATH: process.env.PATH ?? '', KIBITZ_LIMITS_SCENARIO: JSON.stringify(scenario) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = once(child, 'exit');
  const reports: ChildReport[] = [];
  const next = (): Promise<ChildReport> =>
    new Promise((resolve, reject) => {
      const ready = reports.shift();
      if (ready !== undefined) return resolve(ready);
      child.once('message', () => resolve(reports.shift()!));
      child.once('exit', (code) => reject(new Error(`the measured process exited with ${String(code)}`)));
    });
  child.on('message', (report: ChildReport) => reports.push(report));
  const ready = await next();
  if (ready.type !== 'ready') throw new Error('the measured process did not get ready');
  await drive(child);
  const done = await next();
  if (done.type !== 'done') throw new Error('the measured process gave no figures');
  await exited;
  return done;
}

/** A line of `mib` MiB without a line end, or a block-mode reply of `mib` MiB of short lines. */
async function lineScenario(mib: number, reply: boolean): Promise<(string | number)[]> {
  const fake = await FakeFics.start({ dialect: 'fatics' });
  const game = fake.addGame(scriptOf(fixture('fatics_master_seq#0')));
  fake.playMove(game);
  try {
    const done = await measure({ kind: 'line', port: fake.port, game }, async () => {
      fake.sendRaw(reply ? '\r\n\x15999\x1643\x16' : '\r\n<12> ');
      const piece = reply ? Buffer.from(`${'r'.repeat(79)}\r\n`.repeat(MB / 81 + 1)) : Buffer.alloc(MB, 'x');
      for (let i = 0; i < mib; i++) {
        fake.sendRaw(piece);
        // Let the socket drain: the sender's memory is not what is measured.
        if (i % 8 === 7) await new Promise((resolve) => setTimeout(resolve, 1));
      }
      fake.sendRaw(reply ? '\x17\r\nfics% ' : '\r\nfics% ');
      fake.playMove(game);
    });
    const what = reply
      ? `FICS block-mode reply of ${mib} MiB (80-byte lines)`
      : `FICS line of ${mib} MiB without a line end`;
    return row(`${what}, then a move`, done);
  } finally {
    await fake.close();
  }
}

async function bannerScenario(mib: number): Promise<(string | number)[]> {
  const fake = await FakeFics.start({ dialect: 'lasker', preamble: Buffer.alloc(mib * MB, 'Welcome! ') });
  try {
    const done = await measure({ kind: 'banner', port: fake.port }, async (child) => {
      child.send('go');
    });
    return row(`FICS login banner of ${mib} MiB without a line end`, done);
  } finally {
    await fake.close();
  }
}

async function bodyScenario(mib: number, withLength: boolean): Promise<(string | number)[]> {
  let sent = 0;
  const server = createServer((_request, response: ServerResponse) => {
    response.writeHead(200, withLength ? { 'content-length': String(mib * MB) } : {});
    const piece = Buffer.alloc(64 * 1024, 'a');
    let left = (mib * MB) / piece.length;
    const more = (): void => {
      while (left > 0 && !response.destroyed) {
        left--;
        sent += piece.length;
        if (!response.write(piece)) return void response.once('drain', more);
      }
      response.end();
    };
    response.on('error', () => undefined);
    more();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening');
  try {
    const done = await measure(
      { kind: 'body', url: `http://127.0.0.1:${address.port}/big` },
      async (child) => {
        child.send('go');
      },
    );
    const label = `ChessLive! URL with a ${mib} MiB body, ${withLength ? 'with' : 'without'} Content-Length`;
    return row(label, done, `sent ${round(sent / MB)} MiB before the hang-up`);
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

/** Knight moves back and forth from the start: as long a legal game as wanted. */
const SHUFFLE = ['g1:f3', 'g8:f6', 'f3:g1', 'f6:g8'];

async function growScenario(kib: number, moves: number, pollMs: number, maxPlies: number, padding: number) {
  const dir = mkdtempSync(join(tmpdir(), 'kibitz-limits-'));
  const path = join(dir, 'grow.txt');
  const spec = (ply: number): string =>
    `${SHUFFLE[ply % 4]}/20/0/${5400 - (ply % 100)}${' '.repeat(padding)}\n;`;
  let text = 'Carlsen;Nepomniachtchi;';
  let plies = 0;
  // It ends just under the size (and the default read limit) after the moves added.
  while (text.length < kib * 1024 - (moves + 2) * spec(0).length) text += spec(plies++);
  writeFileSync(path, text);
  try {
    const finalPlies = plies + moves;
    const done = await measure({ kind: 'grow', path, pollMs, maxPlies, finalPlies }, async () => {
      for (let ply = plies; ply < finalPlies; ply++) {
        await new Promise((resolve) => setTimeout(resolve, pollMs));
        appendFileSync(path, spec(ply));
      }
    });
    const { initialPlies, observeMs, p50, p99, max } = done.detail as Record<
      'initialPlies' | 'observeMs' | 'p50' | 'p99' | 'max',
      number
    >;
    return [
      `${round(text.length / 1024)} KiB file of ${initialPlies} plies (KIBITZ_MAX_PLIES ${maxPlies}) + ${moves} moves, one per ${pollMs} ms poll`,
      round(observeMs),
      round(p50),
      round(p99),
      round(max),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function row(label: string, done: ChildReport & { type: 'done' }, note = ''): (string | number)[] {
  const detail = Object.entries(done.detail)
    .map(([k, v]) => `${k} ${typeof v === 'number' ? round(v) : v}`)
    .join('; ');
  return [
    label,
    round(done.idleRss / MB),
    round(done.peakRss / MB),
    round((done.peakRss - done.idleRss) / MB),
    [note, detail].filter((t) => t !== '').join('; '),
  ];
}

const memory = [
  await lineScenario(Number(args['line-mib']), false),
  await lineScenario(Number(args['reply-mib']), true),
  await bannerScenario(Number(args['banner-mib'])),
  await bodyScenario(Number(args['body-mib']), false),
  await bodyScenario(Number(args['body-mib']), true),
];
const pollMs = Number(args['poll-ms']);
const moves = Number(args.moves);
const delay = [
  // Under the default ply limit: a long game's moves, padded with white space to the size.
  await growScenario(Number(args['source-kib']), moves, pollMs, 2_000, 600),
  // The ply limit at its highest: some 70,000 plies in the same size, the parser's worst case.
  await growScenario(Number(args['source-kib']), moves, pollMs, 100_000, 0),
];
process.stdout.write(
  `${table(['input', 'idle RSS MB', 'peak RSS MB', 'above idle MB', 'notes'], memory)}\n\n` +
    `${table(['growing ChessLive! source', 'first read ms', 'loop delay p50 ms', 'p99 ms', 'max ms'], delay)}\n\n` +
    `${machine()}\n`,
);
