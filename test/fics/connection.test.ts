// One connection on its own: lasker's observe toggle, and what it forwards.
import { describe, expect, it } from 'vitest';
import { DEFAULT_BACKOFF } from '../../src/backoff.js';
import { systemClock } from '../../src/fics/clock.js';
import { ObserverConnection } from '../../src/fics/connection.js';
import { orThrow, parseGameNumber, parseHandle } from '../../src/fics/validate.js';
import type { ServerEvent } from '../../src/protocol/events.js';
import { fixture, RecordingLogger, scriptOf, startFake } from './harness.js';

async function connect(port: number): Promise<{ connection: ObserverConnection; events: ServerEvent[] }> {
  const connection = new ObserverConnection({
    name: 'test',
    host: '127.0.0.1',
    port,
    credentials: null,
    interfaceName: 'Kibitz test',
    logger: new RecordingLogger(),
    clock: systemClock,
    backoff: { ...DEFAULT_BACKOFF, initialMs: 5 },
    random: () => 0.5,
    maxGames: 30,
    loginTimeoutMs: 3_000,
    commandTimeoutMs: 2_000,
    keepAliveMs: 60_000,
  });
  const events: ServerEvent[] = [];
  connection.on('event', (event) => events.push(event));
  await connection.start();
  return { connection, events };
}

describe('ObserverConnection', () => {
  it('on lasker, observing a player whose game it already observes turns observing back on', async () => {
    const fake = await startFake({ dialect: 'lasker' });
    const n = fake.addGame(scriptOf(fixture('lasker_flag#0'), { white: 'Alice', black: 'Bob' }));
    const { connection } = await connect(fake.port);
    try {
      await connection.observeGame(orThrow(parseGameNumber(n)));
      // lasker answers "Removing game N from observation list." to the second observe.
      expect(await connection.observePlayer(orThrow(parseHandle('Alice')))).toBe(n);
      expect(fake.observers(n)).toHaveLength(1);
      expect(fake.commands().slice(-4)).toEqual([
        `observe ${n}`,
        `moves ${n}`,
        'observe Alice',
        `observe ${n}`,
      ]);
    } finally {
      connection.close();
    }
  });

  it('forwards the events of its own games only, and every game creation notice', async () => {
    const fake = await startFake({ dialect: 'fatics' });
    const mine = fake.addGame(scriptOf(fixture('lasker_flag#0'), { white: 'Alice', black: 'Bob' }));
    const other = fake.addGame(scriptOf(fixture('lasker_flag#0'), { white: 'Carol', black: 'Dave' }));
    const { connection, events } = await connect(fake.port);
    try {
      await connection.setGameNotices(true);
      await connection.observeGame(orThrow(parseGameNumber(mine)));
      fake.playMoves(mine, 2);
      fake.playMoves(other, 2);
      fake.endGame(other, '1-0', 'Dave resigns');
      const third = fake.addGame(scriptOf(fixture('lasker_flag#0'), { white: 'Erin', black: 'Frank' }));
      await fake.waitFor(
        () => events.some((e) => e.kind === 'gameCreated' && e.game === third),
        'the notice',
      );
      const games = new Set(
        events.filter((e) => e.kind !== 'gameCreated').map((e) => ('game' in e ? e.game : null)),
      );
      expect(games).toEqual(new Set([mine]));
      expect(events.filter((e) => e.kind === 'delta')).toHaveLength(2);
    } finally {
      connection.close();
    }
  });
});
