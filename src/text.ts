// Text from outside (a FICS server, a ChessLive! file, a user) on its way into anything with a
// line structure or a size limit: PGN tags, ChessLive! files, Discord messages, log lines.

/** C0 and C1 control characters, DEL and the Unicode line and paragraph separators. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;

/**
 * One line of plain text: every run of control characters (line breaks, tabs, escapes) becomes
 * one space and the ends are trimmed, so the text can no longer break the line it is put in.
 */
export function cleanText(text: string): string {
  return text.replace(CONTROL, ' ').trim();
}

/**
 * At most `max` UTF-16 code units (the unit of Discord's limits), ending in "…" when shortened.
 * A surrogate pair is never split.
 */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 0) return '';
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}
