// A replaced or closed engine process is gone whatever state it is in: a stopped (SIGSTOP) one
// too, which a polite SIGTERM would leave behind. A real process speaking just enough UCI.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { StockfishProcess } from '../../src/engine/stockfish.js';
import { waitFor } from '../support/wait.js';

const dir = mkdtempSync(join(tmpdir(), 'kibitz-engine-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Answers `isready` and every `go` at once; ignores SIGTERM, as a busy or wedged engine may. */
const FAKE_ENGINE = `
process.on('SIGTERM', () => undefined);
require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
  if (line === 'isready') process.stdout.write('readyok\\n');
  if (line.startsWith('go')) process.stdout.write('info depth 1 score cp 12 pv e2e4\\nbestmove e2e4\\n');
});
`;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The process state letter from /proc (T: stopped). */
function state(pid: number): string {
  return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.charAt(0);
}

describe('an engine process', () => {
  it('is killed on close even when stopped (SIGSTOP) and ignoring SIGTERM', async () => {
    const script = join(dir, 'engine.cjs');
    writeFileSync(script, FAKE_ENGINE);
    const engine = new StockfishProcess(
      { command: process.execPath, args: [script], kind: 'npm' },
      { movetimeMs: 10 },
    );
    const evaluation = await engine.analyse(
      { fen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', chess960: false },
      new AbortController().signal,
    );
    expect(evaluation?.bestMove).toBe('e2e4');
    const pid = engine.pid!;
    process.kill(pid, 'SIGSTOP');
    await waitFor(() => state(pid) === 'T', 'the engine to stop');
    engine.close();
    await waitFor(() => !alive(pid), 'the stopped engine to be gone', 5_000);
    expect(engine.pid).toBeUndefined();
  });
});
