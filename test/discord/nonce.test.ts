// A post's nonce across processes. Discord keeps a nonce sent with enforce_nonce for a few
// minutes per author, not per channel: "If another message was created by the same author with
// the same nonce, that message will be returned and no new message will be created". Every
// process of a fleet (or of one bot split over machines) is the same author, so two processes
// must never make the same nonce, even started together and posting in the same millisecond:
// the second post would get the first one's message, in another channel, and never be made
// (issue 22: a mirror post of the fleet test with no message).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { built } from '../support/processes.js';

const run = promisify(execFile);

/** A new process's first nonces, made with its clock stopped at `at` (ms since the epoch). */
async function firstNonces(at: number, count: number): Promise<string[]> {
  const module = pathToFileURL(built('src/discord/nonce.ts')).href;
  const script = [
    `Date.now = () => ${at};`,
    `const { postNonce } = await import(${JSON.stringify(module)});`,
    `process.stdout.write(JSON.stringify(Array.from({ length: ${count} }, () => postNonce())));`,
  ].join('\n');
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script]);
  return JSON.parse(stdout) as string[];
}

describe('postNonce', () => {
  it('differs between two processes started together, at the same millisecond', async () => {
    const at = Date.now();
    const [first, second] = await Promise.all([firstNonces(at, 3), firstNonces(at, 3)]);
    expect(new Set([...first!, ...second!]).size).toBe(6);
    // Within Discord's bounds (a string of at most 25 characters).
    for (const nonce of [...first!, ...second!]) expect(nonce).toMatch(/^\d{1,25}$/);
  });
});
