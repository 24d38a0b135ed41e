/**
 * A whole number written in decimal (optionally negative), or NaN. A hand loop rather than a
 * regex plus Number(): decoding boards is the hot path (see `npm run bench`).
 */
export function parseInteger(text: string | undefined): number {
  if (text === undefined) return NaN;
  const length = text.length;
  let i = text.charCodeAt(0) === 45 ? 1 : 0;
  // More than 15 digits could lose precision: not a number any server field holds.
  if (i === length || length - i > 15) return NaN;
  let value = 0;
  for (; i < length; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return NaN;
    value = value * 10 + digit;
  }
  return text.charCodeAt(0) === 45 ? -value : value;
}
