// Decoder throughput on real lines from the transcripts, one core.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { decodeDelta } from '../../src/protocol/delta.js';
import { decodeStyle12 } from '../../src/protocol/style12.js';
import { decodeTranscript } from '../../src/game/transcript.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/fics/', import.meta.url));

function linesOf(file: string, tag: string): string[] {
  return (
    readFileSync(FIXTURES + file, 'latin1')
      .split(/[\r\n]+/)
      .map((l) => l.replace(/^(fics% )+/, ''))
      .filter((l) => l.startsWith(tag))
      // Flat strings, as the framer makes them (Buffer#toString), not slices of the whole file.
      .map((l) => Buffer.from(l, 'latin1').toString('latin1'))
  );
}

/** Lines per second over at least `minMs` of work. */
function throughput(lines: string[], decode: (line: string) => { kind: string }, minMs = 1000): number {
  let count = 0;
  let sink = 0;
  const start = process.hrtime.bigint();
  let elapsed = 0;
  while (elapsed < minMs) {
    for (const line of lines) sink += decode(line).kind.length;
    count += lines.length;
    elapsed = Number(process.hrtime.bigint() - start) / 1e6;
  }
  if (sink === 0) throw new Error('nothing decoded');
  return Math.round((count / elapsed) * 1000);
}

export function benchDecode(): Record<string, number> {
  const style12 = linesOf('fatics_special/obs_plain.raw', '<12>');
  const deltas = linesOf('fatics_master_seq/obs_start.raw', '<d1>');
  // Warm up the JIT before measuring.
  throughput(style12, decodeStyle12, 200);
  throughput(deltas, decodeDelta, 200);
  const transcript = readFileSync(FIXTURES + 'fatics_master_seq/obs_plain.raw');
  const start = process.hrtime.bigint();
  const runs = 20;
  for (let i = 0; i < runs; i++) decodeTranscript(transcript);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return {
    decode_style12_lines_per_s: throughput(style12, decodeStyle12),
    decode_delta_lines_per_s: throughput(deltas, decodeDelta),
    transcript_to_state_mb_per_s: Math.round(((transcript.length * runs) / seconds / 1e6) * 100) / 100,
  };
}
