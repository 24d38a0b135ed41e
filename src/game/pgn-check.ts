// Finds PGN text that chessops' parser would skip without a word. parsePgn reads any text as PGN
// and drops what it cannot tokenise, so `2. Nf9` would silently end a game early; this scan uses
// the same token pattern and reports the first word that nothing in it accounts for.

/** chessops' movetext token pattern (pgn.js), plus move numbers, which it skips as noise. */
const TOKENS =
  /(?:[NBKRQ]?[a-h]?[1-8]?[-x]?[a-h][1-8](?:=?[nbrqkNBRQK])?|[pnbrqkPNBRQK]?@[a-h][1-8]|[O0o][-–—][O0o](?:[-–—][O0o])?)[+#]?|--|Z0|0000|@@@@|\$\d{1,4}|[?!]{1,2}|\(|\)|\*|1[-–—]0|0[-–—]1|1\/2[-–—]1\/2|\d+\.+/g;

const HEADER_LINE = /^\s*(?:\[[A-Za-z0-9][A-Za-z0-9_+#=:-]*\s+"(?:[^"\\]|\\"|\\\\)*"\]\s*)+$/;
const RESULT_HEADER = /\[Result\s+"([^"]*)"\]/;
const RESULTS = new Set(['1-0', '0-1', '1/2-1/2', '*']);

/** The first thing in a PGN text that would be skipped, as `line N: ...`, or null. */
export function findUnreadPgn(text: string): string | null {
  let inComment = false;
  for (const [i, line] of text.split(/\r?\n/).entries()) {
    const at = `line ${i + 1}`;
    if (!inComment && line.startsWith('%')) continue;
    if (!inComment && /^\s*\[/.test(line)) {
      if (!HEADER_LINE.test(line))
        return `${at}: "${clip(line.trim())}" is not a PGN header ([Name "value"])`;
      const result = RESULT_HEADER.exec(line)?.[1];
      if (result !== undefined && !RESULTS.has(result)) {
        return `${at}: Result "${result}" is not 1-0, 0-1, 1/2-1/2 or *`;
      }
      continue;
    }
    let movetext = '';
    for (let c = 0; c < line.length; c++) {
      const ch = line[c]!;
      if (inComment) inComment = ch !== '}';
      else if (ch === '{') inComment = true;
      else if (ch === ';') break;
      else movetext += ch;
    }
    for (const word of movetext.split(/\s+/)) {
      if (word.replace(TOKENS, '') !== '') return `${at}: "${clip(word)}" is not a move, comment or result`;
    }
  }
  return null;
}

/** Error messages are one line: long words are cut. */
function clip(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
