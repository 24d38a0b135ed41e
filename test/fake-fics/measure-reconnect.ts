// Measures how long a dropped connection takes to come back: from the drop to logged in again
// (downMs) and to every game observed again with its move list merged (reconciledMs).
//   npx tsx test/fake-fics/measure-reconnect.ts [runs] [games]
// Runs once with the production back-off (first retry after 0.5 to 1 s) and once with no wait, so
// the second figure is the cost of the protocol itself (login, ivars, observe, moves).
import type { ReconnectReport } from '../../src/fics/connection.js';
import { FicsPool } from '../../src/fics/pool.js';
import fixtures from '../fixtures/fics-games/games.json' with { type: 'json' };
import { FakeFics } from './server.js';
import { gameId, gameNumber } from '../support/fics-values.js';

const runs = Number(process.argv[2] ?? 10);
const gameCount = Number(process.argv[3] ?? 10);

async function measure(label: string, initialMs: number): Promise<void> {
  const fake = await FakeFics.start({ dialect: 'fatics' });
  const source = fixtures.games[0]!;
  const numbers = Array.from({ length: gameCount }, (_, i) =>
    fake.addGame({ white: `White${String.fromCharCode(65 + i)}`, black: 'Black', san: source.san }),
  );
  const pool = new FicsPool({ host: '127.0.0.1', port: fake.port, backoff: { initialMs, jitter: 0.5 } });
  const reports: ReconnectReport[] = [];
  pool.on('reconnected', (r) => reports.push(r));
  await pool.start();
  await Promise.all(numbers.map((n) => pool.observeGame(gameNumber(n))));
  for (let run = 0; run < runs; run++) {
    for (const n of numbers) fake.playMoves(n, 1);
    const before = fake.loggedIn().map((s) => s.id);
    fake.drop();
    await fake.waitFor(() => !fake.loggedIn().some((s) => before.includes(s.id)), 'the drop');
    // Moves made while the connection is down: the move list has to bring them back.
    for (const n of numbers) fake.playMoves(n, 2);
    await fake.waitFor(() => reports.length === run + 1, 'the reconnection', 10_000);
    const ply = fake.game(numbers[0]!)!.ply;
    await fake.waitFor(
      () =>
        numbers.every(
          (n) => pool.snapshot(gameId(n))?.complete === true && pool.snapshot(gameId(n))!.san.length === ply,
        ),
      'complete histories',
    );
  }
  const stat = (key: 'downMs' | 'reconciledMs'): string => {
    const values = reports.map((r) => r[key]).sort((a, b) => a - b);
    const median = values[Math.floor(values.length / 2)]!;
    return `median ${median} ms, max ${values[values.length - 1]} ms`;
  };
  process.stdout.write(
    `${label} (${gameCount} games, ${runs} drops): down ${stat('downMs')}; reconciled ${stat('reconciledMs')}\n`,
  );
  pool.close();
  await fake.close();
}

await measure('default back-off (1 s, jitter 0.5)', 1_000);
await measure('no back-off wait (protocol cost only)', 0);
