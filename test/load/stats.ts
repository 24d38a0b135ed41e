// Small figures helpers for the load, soak and fault runs: percentiles of samples, a table, the
// machine's name and what a bot's log holds.
import { readFileSync } from 'node:fs';
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
