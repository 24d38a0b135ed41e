// Space-separated fields of a line as index ranges, read without splitting the line into strings.
// Board lines are the hot path: `String.split` alone costs more than the whole decode budget
// (about 0.8 µs for a 33-field `<12>` line), while most fields are numbers read in place.

const MINUS = 45;
const ZERO = 48;

export class Fields {
  line = '';
  count = 0;
  private readonly starts: Int32Array;
  private readonly ends: Int32Array;

  constructor(private readonly max: number) {
    this.starts = new Int32Array(max);
    this.ends = new Int32Array(max);
  }

  /** Finds the fields of `line` from `from` on, at most `max` (the rest are not looked at). */
  scan(line: string, from: number): this {
    this.line = line;
    let n = 0;
    let i = from;
    const length = line.length;
    while (n < this.max && i < length) {
      // indexOf is native: much faster than a charCodeAt loop over the whole line.
      let end = line.indexOf(' ', i);
      if (end === -1) end = length;
      if (end > i) {
        this.starts[n] = i;
        this.ends[n++] = end;
      }
      i = end + 1;
    }
    this.count = n;
    return this;
  }

  text(i: number): string {
    return this.line.slice(this.starts[i], this.ends[i]);
  }

  /** Fields `from` to the last found, as strings. */
  rest(from: number): string[] {
    const out: string[] = [];
    for (let i = from; i < this.count; i++) out.push(this.text(i));
    return out;
  }

  /** The field as a whole number (optionally negative), or NaN. */
  int(i: number): number {
    const line = this.line;
    let at = this.starts[i]!;
    const end = this.ends[i]!;
    const negative = line.charCodeAt(at) === MINUS;
    if (negative) at++;
    // More than 15 digits could lose precision: no server field holds such a number.
    if (at === end || end - at > 15) return NaN;
    let value = 0;
    for (; at < end; at++) {
      const digit = line.charCodeAt(at) - ZERO;
      if (digit < 0 || digit > 9) return NaN;
      value = value * 10 + digit;
    }
    return negative ? -value : value;
  }

  /** True when the field is exactly `text`. */
  is(i: number, text: string): boolean {
    const start = this.starts[i]!;
    return this.ends[i]! - start === text.length && this.line.startsWith(text, start);
  }
}
