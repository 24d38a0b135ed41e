// npm run decode -- <file>: one JSON line per game in a raw observer transcript.
import { readFileSync } from 'node:fs';
import { decodeTranscript } from '../game/transcript.js';
import { gameJson } from './game-json.js';

const file = process.argv[2];
if (file === undefined || process.argv.length > 3) {
  process.stderr.write('usage: npm run decode -- <transcript file>\n');
  process.exit(2);
}
let bytes: Buffer;
try {
  bytes = readFileSync(file);
} catch (error) {
  process.stderr.write(
    `decode: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}\n`,
  );
  process.exit(1);
}
const { games, undecoded } = decodeTranscript(bytes);
for (const line of undecoded) {
  process.stderr.write(`decode: undecoded ${line.lineKind} line (${line.reason}): ${line.line}\n`);
}
for (const game of games) process.stdout.write(JSON.stringify(gameJson(game, undecoded.length)) + '\n');
