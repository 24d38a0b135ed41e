// Observing real games (moves from the shared transcripts) through the fake server, on both
// dialects: from move 1, joined late, split at every byte, with garbage in between.
import { describe, expect, it } from 'vitest';
import { fixture, poolOn, scriptOf, startFake, withoutId } from './harness.js';
import { gameNumber } from '../support/fics-values.js';

describe.each(['fatics', 'lasker'] as const)('observing on a %s server', (dialect) => {
  it('a game observed from move 1 and one joined late both end with their whole history', async () => {
    const fake = await startFake({ dialect });
    const early = fixture('fatics_master_seq#0');
    const late = fixture('fatics_special#5');
    const a = fake.addGame(scriptOf(early));
    const b = fake.addGame(scriptOf(late));
    fake.playMoves(b, 61);
    const h = poolOn(fake);
    await h.pool.start();
    await Promise.all([h.pool.observeGame(gameNumber(a)), h.pool.observeGame(gameNumber(b))]);
    // Moves made while the move list is on its way are held until it has been merged.
    fake.playMoves(b, 3);
    fake.playMoves(a, 3);
    await h.snapshotWhen(b, (s) => s.complete && s.san.length === 64, 'the late joiner to be complete');
    // Interleave the two games the way a server would.
    while ((fake.game(a)?.remaining ?? 0) + (fake.game(b)?.remaining ?? 0) > 0) {
      if ((fake.game(a)?.remaining ?? 0) > 0) fake.playMove(a);
      if ((fake.game(b)?.remaining ?? 0) > 0) fake.playMove(b);
    }
    fake.endGame(a);
    fake.endGame(b);
    const [endA, endB] = await Promise.all([h.ended(a), h.ended(b)]);

    expect(endA.san).toEqual(early.san);
    expect(endA.complete).toBe(true);
    expect(endA.fen).toBe(early.fenFinal);
    expect([endA.result, endA.reason]).toEqual([early.result, early.reason]);
    expect(endB.san).toEqual(late.san);
    expect(endB.complete).toBe(true);
    expect(endB.fen).toBe(late.fenFinal);
    expect([endB.result, endB.reason]).toEqual([late.result, late.reason]);
    // Each move list was asked once, along with its observe (the late joiner's need shared it).
    const asked = fake.commands().map(withoutId);
    expect(asked.filter((c) => c.startsWith('moves')).sort()).toEqual([`moves ${a}`, `moves ${b}`].sort());
    expect(asked.indexOf(`moves ${b}`)).toBe(asked.indexOf(`observe ${b}`) + 1);
    expect(h.errors).toEqual([]);
  });

  it('a crazyhouse game joined late ends with its history and pockets', async () => {
    const fake = await startFake({ dialect });
    const zh = fixture('lasker_crazyhouse#1');
    const n = fake.addGame(scriptOf(zh));
    fake.playMoves(n, 20);
    const h = poolOn(fake);
    await h.pool.start();
    await h.pool.observeGame(gameNumber(n));
    fake.playMoves(n, 2);
    await h.snapshotWhen(n, (s) => s.complete && s.san.length === 22, 'the move list');
    fake.playAll(n);
    const end = await h.ended(n);
    expect(end.variant).toBe('crazyhouse');
    expect(end.san).toEqual(zh.san);
    expect(end.complete).toBe(true);
    expect(end.fen).toBe(zh.fenFinal);
  });

  it('reads output split at every byte, lines glued to prompts, and logs and skips garbage', async () => {
    const fake = await startFake({ dialect, chunkSize: 1, gluePrompts: true });
    const game = fixture('lasker_flag#0');
    const n = fake.addGame(scriptOf(game));
    const h = poolOn(fake);
    await h.pool.start();
    await h.pool.observeGame(gameNumber(n));
    fake.playMoves(n, 6);
    fake.sendRaw(`${dialect === 'lasker' ? '\n\r' : '\r\n'}<12> this is no board at all\r\nfics% `);
    fake.sendRaw(Buffer.from([0x00, 0x80, 0xfe, 0x0a]));
    fake.playAll(n);
    const end = await h.ended(n);
    expect(end.san).toEqual(game.san);
    expect(end.complete).toBe(true);
    const skipped = h.logger.records.filter((r) => r.level === 'warn' && r.fields.kind === 'style12');
    expect(skipped).toHaveLength(1);
    expect(skipped[0]!.fields).toMatchObject({ start: '<12> this is no board at all', length: 28 });
    expect(skipped[0]!.fields.reason).toEqual(expect.any(String));
  });
});

describe('interface variables', () => {
  it('FatICS accepts them all and answers in block mode', async () => {
    const fake = await startFake({ dialect: 'fatics' });
    const h = poolOn(fake);
    await h.pool.start();
    const sent = fake.commands();
    expect(sent[0]).toBe('iset block 1');
    // After `iset block 1` every command carries an id.
    expect(sent.slice(1).every((c) => /^\d+ /.test(c))).toBe(true);
    expect(sent.slice(1).map(withoutId)).toEqual(
      expect.arrayContaining([
        'set style 12',
        'iset ms 1',
        'iset nowrap 1',
        'iset compressmove 1',
        'iset gameinfo 1',
        'iset startpos 1',
        'iset defprompt 1',
        'set seek 0',
        'set interface Kibitz 0.1.0',
      ]),
    );
    expect(h.logger.records.find((r) => r.message === 'logged in to FICS')?.fields.capabilities).toEqual({
      block: true,
      compressmove: true,
      nowrap: true,
      ms: true,
      gameinfo: true,
      startpos: true,
      defprompt: true,
    });
  });

  it('lasker refuses block, nowrap, compressmove, gameinfo and defprompt; commands go unframed', async () => {
    const fake = await startFake({ dialect: 'lasker' });
    const h = poolOn(fake);
    await h.pool.start();
    expect(fake.commands().every((c) => !/^\d+ /.test(c))).toBe(true);
    expect(h.logger.records.find((r) => r.message === 'logged in to FICS')?.fields.capabilities).toEqual({
      block: false,
      compressmove: false,
      nowrap: false,
      ms: true,
      gameinfo: false,
      startpos: true,
      defprompt: false,
    });
  });
});

describe('repairs', () => {
  it('a first board that is no legal position makes the pool ask for the board again (refresh)', async () => {
    const fake = await startFake({ dialect: 'fatics' });
    const game = fixture('fatics_master_seq#0');
    const n = fake.addGame(scriptOf(game));
    fake.playMoves(n, 2);
    const h = poolOn(fake);
    await h.pool.start();
    const observed = h.pool.observeGame(gameNumber(n));
    // Well-formed but without kings, and ahead of the real board: no position comes from it.
    const empty = Array<string>(8).fill('--------').join(' ');
    const board = `<12> ${empty} W -1 1 1 1 1 0 ${n} ${game.white} ${game.black} 0 2 12 39 39 120000 120000 2 P/e7-e5 (0:00.000) e5 0 1 0`;
    fake.sendRaw(`\r\n${board}\r\nfics% `);
    await observed;
    await fake.waitFor(() => fake.commands().map(withoutId).includes(`refresh ${n}`), 'the refresh');
    await h.snapshotWhen(n, (s) => s.san.length === 2 && s.complete, 'the repaired game');
    fake.playAll(n);
    const end = await h.ended(n);
    expect(end.san).toEqual(game.san);
    expect(end.complete).toBe(true);
  });
});
