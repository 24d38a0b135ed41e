// A FICS server sending what no real one does (lines, replies and banners far too long, a telnet
// subnegotiation never closed), at small limits: each is dropped with one shortened warning and
// the games observed go on. Against the fake server on 127.0.0.1, with real games' moves.
import { describe, expect, it } from 'vitest';
import type { ReconnectReport } from '../../src/fics/connection.js';
import { fixture, poolOn, scriptOf, startFake, type Harness } from './harness.js';
import { gameNumber } from '../support/fics-values.js';

const KIB = 1024;
const FRAMING = { maxLineBytes: 64 * KIB, maxReplyBytes: 8 * KIB, maxSubnegotiationBytes: 64 };

function warnings(h: Harness, kind: string): Record<string, unknown>[] {
  return h.logger.records.filter((r) => r.level === 'warn' && r.fields.kind === kind).map((r) => r.fields);
}

describe.each(['fatics', 'lasker'] as const)('a hostile %s server', (dialect) => {
  const eol = dialect === 'lasker' ? '\n\r' : '\r\n';

  it('a 1 MiB line is dropped with one short warning and the game goes on', async () => {
    const fake = await startFake({ dialect, chunkSize: 16 * KIB });
    const game = fixture('lasker_flag#0');
    const n = fake.addGame(scriptOf(game));
    const h = poolOn(fake, { framing: FRAMING });
    await h.pool.start();
    await h.pool.observeGame(gameNumber(n));
    fake.playMoves(n, 4);
    fake.sendRaw(`${eol}<12> ${'x'.repeat(1024 * KIB)}${eol}fics% `);
    fake.playAll(n);
    const end = await h.ended(n);
    expect(end.san).toEqual(game.san);
    const dropped = warnings(h, 'line');
    expect(dropped).toHaveLength(1);
    expect(dropped[0]!.reason).toMatch(/limit of 65536 bytes/);
    expect(JSON.stringify(dropped[0]).length).toBeLessThan(600);
    expect(h.errors).toEqual([]);
  });

  it('a flood of undecodable lines is logged ten at a time, shortened', async () => {
    const fake = await startFake({ dialect });
    const game = fixture('lasker_flag#0');
    const n = fake.addGame(scriptOf(game));
    const h = poolOn(fake);
    await h.pool.start();
    await h.pool.observeGame(gameNumber(n));
    fake.sendRaw(`${eol}<12> not a board ${'\u0001'.repeat(5_000)}`.repeat(200) + `${eol}fics% `);
    fake.playAll(n);
    expect((await h.ended(n)).san).toEqual(game.san);
    const logged = warnings(h, 'style12');
    expect(logged).toHaveLength(10);
    for (const fields of logged) expect(JSON.stringify(fields).length).toBeLessThan(600);
  });

  it('a telnet subnegotiation never closed does not swallow the game', async () => {
    const fake = await startFake({ dialect });
    const game = fixture('lasker_flag#0');
    const n = fake.addGame(scriptOf(game));
    const h = poolOn(fake, { framing: FRAMING });
    await h.pool.start();
    await h.pool.observeGame(gameNumber(n));
    fake.playMoves(n, 3);
    fake.sendRaw(Buffer.from([0xff, 0xfa, 0x18, 0x01]));
    // The next 60 bytes are lost with it: the move list fills the gap.
    fake.playMoves(n, game.san.length - 3);
    await h.snapshotWhen(n, (s) => s.complete && s.san.length === game.san.length, 'every move');
    fake.endGame(n);
    const end = await h.ended(n);
    expect(end.san).toEqual(game.san);
    expect(warnings(h, 'subnegotiation')).toHaveLength(1);
  });

  it('a 2 MiB banner without a line end is dropped and the login goes on', async () => {
    const fake = await startFake({ dialect, preamble: 'Welcome! '.repeat(233_017), chunkSize: 64 * KIB });
    const h = poolOn(fake, { framing: FRAMING });
    await h.pool.start();
    expect(fake.loggedIn()).toHaveLength(1);
    expect(warnings(h, 'line')).toHaveLength(1);
  });

  it('a game past the ply limit ends as not supported, and its later moves are not taken', async () => {
    const fake = await startFake({ dialect });
    const game = fixture('fatics_master_seq#0');
    const n = fake.addGame(scriptOf(game));
    const h = poolOn(fake, { maxPlies: 10 });
    await h.pool.start();
    await h.pool.observeGame(gameNumber(n));
    fake.playMoves(n, 11);
    const end = await h.ended(n);
    expect(end.san).toEqual(game.san.slice(0, 11));
    expect(end.reason).toBe('more than 10 moves (plies): Kibitz does not follow games that long');
    // FICS plays on: the game is let go there, so it no longer takes a place.
    await fake.waitFor(() => fake.observers(n).length === 0, 'the long game to be unobserved');
    const seen = h.updates.length;
    fake.playMoves(n, 4);
    const other = fake.addGame(scriptOf(fixture('lasker_flag#0')));
    await h.pool.observeGame(gameNumber(other));
    fake.playMove(other);
    // Waited for a later game's move: the long game's moves, sent before it, were dropped.
    await h.snapshotWhen(other, (s) => s.san.length >= 1, 'a move of the other game');
    expect(h.updates.slice(seen).filter((u) => 'snapshot' in u && u.snapshot.game === n)).toEqual([]);
  });

  it('an exception while reading drops the connection, which reconnects and goes on', async () => {
    const fake = await startFake({ dialect });
    const game = fixture('lasker_flag#0');
    const n = fake.addGame(scriptOf(game));
    const h = poolOn(fake);
    const reports: ReconnectReport[] = [];
    h.pool.on('reconnected', (r) => reports.push(r));
    let thrown = false;
    h.pool.on('update', (update) => {
      if (update.type === 'moved' && !thrown) {
        thrown = true;
        throw new RangeError('Invalid string length');
      }
    });
    await h.pool.start();
    await h.pool.observeGame(gameNumber(n));
    fake.playMoves(n, 2);
    await fake.waitFor(() => reports.length === 1, 'the reconnection');
    fake.playAll(n);
    const end = await h.ended(n);
    expect(end.san).toEqual(game.san);
    expect(reports[0]!.games).toEqual([n]);
    const failure = h.logger.records.find((r) => r.message.includes('failed while reading'));
    expect(failure?.fields.error).toBe('Invalid string length');
  });
});

// Block mode only (lasker has none: its replies are lines, each under the line limit).
it('a reply over the limit fails its command only', async () => {
  const fake = await startFake({ dialect: 'fatics' });
  const game = fixture('fatics_master_seq#0');
  for (let i = 0; i < 200; i++) fake.addGame(scriptOf(fixture('lasker_flag#0')));
  const n = fake.addGame(scriptOf(game));
  const h = poolOn(fake, { framing: FRAMING });
  await h.pool.start();
  await expect(h.pool.listGames()).rejects.toThrow(/too large/);
  expect(warnings(h, 'reply')).toHaveLength(1);
  await h.pool.observeGame(gameNumber(n));
  fake.playAll(n);
  expect((await h.ended(n)).san).toEqual(game.san);
});
