// What the fuzzer feeds: real server lines and real move files (the corpus), random text, and
// mutations of both that look like what broken servers, truncated reads and hostile input make.
import { gameFromSan } from '../chesslive/build-game.js';
import { makeChessLive } from '../../src/chesslive/index.js';
import type { FileVariant } from '../../src/game/variants.js';
import { allTranscripts } from '../support/fixtures.js';
import chessLiveGames from '../fixtures/chesslive/fics-games.json' with { type: 'json' };
import type { Dice } from './random.js';

/** Every line of every real FICS transcript (prompts removed), and the transcripts as bytes. */
export function ficsCorpus(): { lines: string[]; transcripts: Buffer[] } {
  const transcripts = allTranscripts().map((t) => t.bytes);
  const lines = new Set<string>();
  for (const bytes of transcripts) {
    for (const raw of bytes.toString('latin1').split(/\r?\n\r?/)) {
      // Block-mode framing bytes (0x15 to 0x19) are the framer's business, not a line's.
      const line = [...raw.replace(/^(fics% )+/, '')].filter((c) => c < '\x15' || c > '\x19').join('');
      if (line.trim() !== '') lines.add(line);
    }
  }
  return { lines: [...lines], transcripts };
}

/** Valid ChessLive! move files: the fixture's and one written from each real game. */
export function chessLiveCorpus(fixture: string): string[] {
  const files = [fixture];
  for (const game of chessLiveGames.games) {
    const variant = game.variant as FileVariant;
    if (variant !== 'chess' && variant !== 'crazyhouse') continue;
    const live = gameFromSan(variant, game.san);
    const written = makeChessLive({ ...live, white: game.white, black: game.black, result: '1-0' });
    if (written.ok) files.push(written.value);
  }
  return files;
}

/** Characters broken input is made of: controls, telnet and block-mode bytes, separators. */
const NASTY = [
  '\x00',
  '\x07',
  '\x08',
  '\t',
  '\r',
  '\n',
  '\n\r',
  '\x15',
  '\x16',
  '\x17',
  '\x18',
  '\x19',
  '\x1b',
  '\x7f',
  '\xff',
  '\xff\xfb\x01',
  '\xff\xfc\x01',
  ' ',
  '  ',
  '-',
  '--',
  '+',
  '=',
  '/',
  ':',
  ';',
  '(',
  ')',
  '{',
  '}',
  '[',
  ']',
  '<',
  '>',
  '@',
  '#',
  '$',
  '%',
  '\\',
  '"',
  "'",
  '.',
  ',',
  '0',
  '9',
  '-1',
  'é',
  '♞',
  '\u2028',
  '\ud800',
  '💥',
  '<12>',
  '<d1>',
  '<b1>',
  '<g1>',
  '{Game ',
  'Game ',
  'fics% ',
  'Movelist for game ',
  '{Still in progress} *',
] as const;

const EXTREME_NUMBERS = [
  '0',
  '-0',
  '-1',
  '007',
  '1e3',
  '1e309',
  '-1e309',
  'NaN',
  'Infinity',
  '0x10',
  '9007199254740993',
  '99999999999999999999',
  '-99999999999999999999',
  '2147483648',
  '4294967296',
  '1.5',
  '.5',
  '+1',
  '',
] as const;

/** Random text: printable, binary-ish, or a token soup of the corpus's own words. */
export function randomText(dice: Dice, words: readonly string[]): string {
  const length = dice.int(dice.chance(0.1) ? 600 : 80);
  let text = '';
  switch (dice.int(3)) {
    case 0:
      for (let i = 0; i < length; i++) text += String.fromCharCode(32 + dice.int(95));
      break;
    case 1:
      for (let i = 0; i < length; i++)
        text += dice.chance(0.3) ? dice.pick(NASTY) : String.fromCharCode(dice.int(256));
      break;
    default:
      for (let i = 0; i < length / 6; i++)
        text += `${dice.pick(words)}${dice.chance(0.8) ? ' ' : dice.pick(NASTY)}`;
  }
  return text;
}

/** One to three mutations of a line or file: cuts, splices, extreme numbers, stray bytes. */
/** Random text (a `randomShare` of the time) or a mutated real sample, from the same samples. */
export function randomOrMutated(dice: Dice, samples: readonly string[], randomShare: number): string {
  return dice.chance(randomShare) ? randomText(dice, samples) : mutate(dice, dice.pick(samples), samples);
}

export function mutate(dice: Dice, text: string, donors: readonly string[]): string {
  let out = text;
  for (let n = 1 + dice.int(3); n > 0; n--) out = mutateOnce(dice, out, donors);
  return out;
}

function mutateOnce(dice: Dice, text: string, donors: readonly string[]): string {
  const at = dice.int(text.length + 1);
  const span = 1 + dice.int(Math.max(1, Math.min(40, text.length)));
  switch (dice.int(11)) {
    case 0:
      return text.slice(0, at);
    case 1:
      return text.slice(0, at) + text.slice(at + span);
    case 2:
      return text.slice(0, at) + text.slice(at, at + span) + text.slice(at);
    case 3:
      return text.slice(0, at) + dice.pick(NASTY) + text.slice(at);
    case 4: {
      // A number replaced by an extreme one.
      const numbers = [...text.matchAll(/-?\d+/g)];
      if (numbers.length === 0) return text;
      const m = dice.pick(numbers);
      return text.slice(0, m.index) + dice.pick(EXTREME_NUMBERS) + text.slice(m.index + m[0].length);
    }
    case 5: {
      // Two tokens swapped.
      const tokens = text.split(' ');
      const [i, j] = [dice.int(tokens.length), dice.int(tokens.length)];
      [tokens[i], tokens[j]] = [tokens[j]!, tokens[i]!];
      return tokens.join(' ');
    }
    case 6: {
      // A token replaced by one of another line or file.
      const tokens = text.split(' ');
      const donor = dice.pick(donors).split(' ');
      tokens[dice.int(tokens.length)] = dice.pick(donor);
      return tokens.join(' ');
    }
    case 7: {
      // Spliced with another line or file.
      const donor = dice.pick(donors);
      return text.slice(0, at) + donor.slice(dice.int(donor.length + 1));
    }
    case 8:
      return dice.chance(0.5) ? text.toUpperCase() : text.toLowerCase();
    case 9:
      return text.replace(/ /g, () => (dice.chance(0.2) ? dice.pick(['', '  ', '\t']) : ' '));
    default: {
      // A character changed to any other.
      const chars = [...text];
      if (chars.length === 0) return String.fromCharCode(dice.int(0x3000));
      chars[dice.int(chars.length)] = String.fromCharCode(dice.int(0x3000));
      return chars.join('');
    }
  }
}

/** Bytes of a real transcript window with byte-level damage, to be fed in random chunks. */
export function damagedBytes(dice: Dice, transcripts: readonly Buffer[]): Buffer {
  const source = dice.pick(transcripts);
  const start = dice.int(source.length);
  const bytes = Buffer.from(source.subarray(start, start + 64 + dice.int(2048)));
  for (let n = dice.int(6); n > 0 && bytes.length > 0; n--) {
    const i = dice.int(bytes.length);
    switch (dice.int(4)) {
      case 0:
        bytes[i] = dice.int(256);
        break;
      case 1:
        bytes[i] = bytes[i]! ^ (1 << dice.int(8));
        break;
      case 2:
        bytes[i] = dice.pick([0xff, 0x15, 0x16, 0x17, 0x18, 0x19, 0x0d, 0x0a, 0x00, 0x07, 0x5c]);
        break;
      default:
        bytes.copyWithin(i, dice.int(bytes.length));
    }
  }
  return bytes;
}

/** Splits bytes at random places (a line may end up in several reads). */
export function chunks(dice: Dice, bytes: Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0; at < bytes.length;) {
    const size = 1 + dice.int(dice.chance(0.5) ? 8 : 512);
    out.push(bytes.subarray(at, at + size));
    at += size;
  }
  return out;
}

/** Small framing limits for the hostile-size inputs, so that a few kilobytes go over them. */
export const SMALL_FRAMING = { maxLineBytes: 2048, maxReplyBytes: 8192, maxSubnegotiationBytes: 64 } as const;

/**
 * The start of a real transcript with one oversized thing put in after a line end outside any
 * block reply: a line far over the line limit, a telnet subnegotiation never closed, a flood of
 * continuation lines, a reply over the reply limit, a block header of endless digits. Each ends
 * with a line end, so what follows it is real output that must still be read. `after` is where
 * that output starts.
 */
export function oversizedBytes(dice: Dice, transcripts: readonly Buffer[]): { bytes: Buffer; after: number } {
  const source = dice.pick(transcripts);
  const window = source.subarray(0, 2048 + dice.int(8192));
  const places: number[] = [0];
  let depth = 0;
  for (let i = 0; i < window.length; i++) {
    if (window[i] === 0x15) depth++;
    else if (window[i] === 0x17) depth = Math.max(0, depth - 1);
    else if (window[i] === 0x0a && depth === 0) places.push(i + 1);
  }
  const at = dice.pick(places);
  const junk = (length: number, avoid: readonly number[]): Buffer => {
    const bytes = Buffer.alloc(length);
    for (let i = 0; i < length; i++) {
      let b = dice.int(256);
      while (avoid.includes(b)) b = dice.int(256);
      bytes[i] = b;
    }
    return bytes;
  };
  const { maxLineBytes, maxReplyBytes } = SMALL_FRAMING;
  const framing = [0x0a, 0x15, 0x16, 0x17, 0xff];
  let injected: Buffer;
  switch (dice.int(5)) {
    case 0:
      injected = Buffer.concat([junk(maxLineBytes + dice.int(4 * maxLineBytes), framing), Buffer.from('\n')]);
      break;
    case 1:
      injected = Buffer.concat([
        Buffer.from([0xff, 0xfa]),
        junk(dice.int(300), framing),
        Buffer.alloc(64, 'x'),
        Buffer.from('\n'),
      ]);
      break;
    case 2:
      injected = Buffer.from(`<12> x\n${`\\   ${'y'.repeat(100)}\n`.repeat(20 + dice.int(100))}z\n`);
      break;
    case 3: {
      const row = `${'r'.repeat(60)} ${dice.int(1000)}\r\n`;
      const rows = row.repeat(Math.ceil((maxReplyBytes * (1 + dice.int(4))) / row.length));
      injected = Buffer.from(`\x15${1 + dice.int(9999)}\x16${dice.int(200)}\x16${rows}\x17\n`);
      break;
    }
    default:
      injected = Buffer.from(`\x15${'9'.repeat(20 + dice.int(100))}\x16\n`);
  }
  return {
    bytes: Buffer.concat([window.subarray(0, at), injected, window.subarray(at)]),
    after: at + injected.length,
  };
}
