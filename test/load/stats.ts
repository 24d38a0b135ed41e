// Small figures helpers for the load, soak and fault runs: percentiles of samples, a table, the
// machine's name and what a bot's log holds.
import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';

/** The machine the figures were measured on. */
export function machine(): string {
  return `${cpus().length} x ${cpus()[0]?.model ?? '?'}, Node ${process.version}`;
}

/** Warnings and errors in a bot's log file (pino JSON lines). */
export function logCounts(file: string): { warnings: number; errors: number } {
  const lines = readFileSync(file, 'utf8').split('\n');
  return {
    warnings: lines.filter((l) => l.includes('"level":40')).length,
    errors: lines.filter((l) => /"level":(50|60)/.test(l)).length,
  };
}

/** The value below which `p` (0..1) of the samples fall; NaN without samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1));
  return sorted[index]!;
}

export interface Summary {
  count: number;
  p50: number;
  p99: number;
  max: number;
}

export function summarize(samples: readonly number[]): Summary {
  return {
    count: samples.length,
    p50: percentile(samples, 0.5),
    p99: percentile(samples, 0.99),
    max: samples.length === 0 ? Number.NaN : Math.max(...samples),
  };
}

/** Rounds for printing: two decimals under 10, one under 100, none above. */
export function round(value: number): number {
  if (!Number.isFinite(value)) return value;
  const digits = Math.abs(value) < 10 ? 2 : Math.abs(value) < 100 ? 1 : 0;
  return Number(value.toFixed(digits));
}

export const MB = 1024 * 1024;

/** A Markdown table from rows of cells. */
export function table(header: string[], rows: (string | number)[][]): string {
  const cells = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]): string => `| ${r.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [
    line(header),
    `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`,
    ...cells.slice(1).map(line),
  ].join('\n');
}

/**
 * CPU time of each thread of process `pid` so far, ms by thread id (Linux `/proc/<pid>/task/<tid>/stat`,
 * utime + stime in clock ticks of 10 ms); empty where /proc is not there or the process is gone.
 * The main thread's id is the pid; node names every thread "node", so the others are told apart by
 * their ids (created in order: V8's helpers, then the render workers) and their use.
 */
export function threadCpuMs(pid: number): Map<number, number> {
  const times = new Map<number, number>();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return times;
  }
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      times.set(Number(tid), (Number(fields[11]) + Number(fields[12])) * 10);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return times;
}

/** ms of CPU a second of each thread between two `threadCpuMs` readings, by thread id. */
export function threadCpuRates(
  before: Map<number, number>,
  after: Map<number, number>,
  seconds: number,
): Map<number, number> {
  const rates = new Map<number, number>();
  for (const [tid, ms] of after) rates.set(tid, (ms - (before.get(tid) ?? 0)) / seconds);
  return rates;
}
