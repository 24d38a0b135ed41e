// Turns the raw bytes of a FICS connection into logical lines and block-mode replies.
//
// Written here rather than taken from a telnet library: FICS uses only a handful of telnet
// commands (IAC WILL/WONT ECHO around the password prompt) and telnet-client queued every chunk
// and handed pushed board lines to the wrong caller. What this needs instead is one pass over
// the bytes that also knows FICS's own framing: block mode (0x15 id 0x16 code 0x16 text 0x17),
// pose frames (0x18/0x19), BEL, prompts glued to lines, both line endings ("\n\r" from lasker and
// freechess.org, "\r\n" from FatICS) and `\   ` continuation lines.

const IAC = 0xff;
const SB = 0xfa;
const SE = 0xf0;
const WILL = 0xfb;
const DONT = 0xfe;
const BLOCK_START = 0x15;
const BLOCK_SEPARATOR = 0x16;
const BLOCK_END = 0x17;
const POSE_START = 0x18;
const POSE_END = 0x19;
const BEL = 0x07;
const CR = 0x0d;
const LF = 0x0a;

export type Frame =
  /** One logical line: telnet bytes, prompts and line ends removed, continuations joined. */
  | { type: 'line'; text: string; blockId: number | null }
  /** A whole block-mode reply; its lines were emitted just before as `line` frames. */
  | { type: 'reply'; id: number; code: number; text: string }
  /** Something over its limit was dropped; framing goes on after it. */
  | Discarded;

/** What a limit dropped: `limit` is the limit (bytes) it went over, `head` its start. */
export interface Discarded {
  type: 'discarded';
  what: 'line' | 'reply' | 'subnegotiation';
  limit: number;
  head: string;
  /** The block a dropped reply or line belonged to. */
  blockId: number | null;
}

/**
 * Far above what FICS sends (a style 12 line is under 300 bytes, the longest move list some tens
 * of KB, the games list of a busy server under 100 KB) and far below what strains memory or the
 * longest string Node can make.
 */
export interface FramingLimits {
  /** Longest line kept (continuation lines joined count as one), in bytes. */
  maxLineBytes: number;
  /** Largest block-mode reply kept, in bytes. */
  maxReplyBytes: number;
  /** Longest telnet subnegotiation (`IAC SB ... IAC SE`) skipped; FICS sends none, telnet's are a few bytes. */
  maxSubnegotiationBytes: number;
}

export const FRAMING_LIMITS: FramingLimits = {
  maxLineBytes: 256 * 1024,
  maxReplyBytes: 4 * 1024 * 1024,
  maxSubnegotiationBytes: 64,
};

/** How much of a dropped line `Discarded.head` keeps. */
const HEAD_BYTES = 64;
/** How much of the unterminated text `partial` gives: prompts are short and end it. */
const PARTIAL_BYTES = 1024;
/** Block ids and codes have at most this many digits. */
const MAX_HEADER_DIGITS = 9;

/** Bytes the framing acts on; the others are text, copied a run at a time. */
const FRAMING_BYTES = new Uint8Array(256);
for (const b of [IAC, LF, CR, BEL, BLOCK_START, BLOCK_END, POSE_START, POSE_END]) FRAMING_BYTES[b] = 1;

const PROMPT_TEXT = 'fics% ';
const PROMPT = /^(?:fics% )+/;
const CONTINUATION = /^\\ +/;

/** Removes leading prompts (`fics% `), possibly several glued together. */
export function stripPrompt(text: string): string {
  return text.startsWith(PROMPT_TEXT) ? text.replace(PROMPT, '') : text;
}

type TelnetState = 'data' | 'iac' | 'option' | 'sub' | 'subIac';
/** `discard`: a reply over its limit, dropped up to its end. */
type BlockPhase = 'none' | 'id' | 'code' | 'text' | 'discard';

export class Framer {
  private readonly limits: FramingLimits;
  private telnet: TelnetState = 'data';
  private subnegotiation = 0;
  private bytes = new Uint8Array(256);
  private length = 0;
  /** The line being received went over the limit: its bytes are dropped up to its end. */
  private discardingLine = false;
  private held: string | null = null;
  /** The held line was dropped for length: its continuation lines are dropped too. */
  private discardingContinuations = false;
  private block: BlockPhase = 'none';
  private blockId = 0;
  private blockCode = 0;
  private headerDigits = 0;
  private blockLines: string[] = [];
  private blockBytes = 0;
  private out: Frame[] = [];
  /** A `fics% ` prompt came (glued to a line, or waiting unterminated) since `takePrompt`. */
  private prompted = false;

  constructor(limits: Partial<FramingLimits> = {}) {
    this.limits = { ...FRAMING_LIMITS, ...limits };
  }

  /**
   * The end of the line still being received (e.g. `login: `, which has no line end): at most
   * the last kilobyte, so that asking after every read stays cheap however long the line grows.
   */
  get partial(): string {
    const from = Math.max(0, this.length - PARTIAL_BYTES);
    return stripPrompt(Buffer.from(this.bytes.subarray(from, this.length)).toString('utf8'));
  }

  /**
   * Whether a `fics% ` prompt came since the last call: a server without a session line says the
   * login is over only this way.
   */
  takePrompt(): boolean {
    const seen =
      this.prompted || (this.length >= PROMPT_TEXT.length && this.head(PROMPT_TEXT.length) === PROMPT_TEXT);
    this.prompted = false;
    return seen;
  }

  /** True while inside a block-mode reply. */
  get inBlock(): boolean {
    return this.block !== 'none';
  }

  push(chunk: Uint8Array): Frame[] {
    for (let i = 0; i < chunk.length;) {
      const text = this.textRun(chunk, i);
      if (text > 0) i += text;
      else this.byte(chunk[i++]!);
    }
    // Outside a block a held line is released at the end of each read: a continuation of it
    // would have come in the same write.
    if (this.block === 'none') this.release();
    const frames = this.out;
    this.out = [];
    return frames;
  }

  /** Ends the stream: whatever is pending becomes a line. */
  flush(): Frame[] {
    if (this.length > 0) this.endLine();
    this.release();
    const frames = this.out;
    this.out = [];
    return frames;
  }

  /**
   * Takes the run of text bytes at `from` into the line at once (most of what FICS sends), where
   * byte() would take each alike; returns how many. None where a byte needs byte(): telnet, block
   * headers, a line being dropped, or one at its limit.
   */
  private textRun(chunk: Uint8Array, from: number): number {
    if (this.telnet !== 'data' || this.discardingLine || (this.block !== 'none' && this.block !== 'text'))
      return 0;
    const stop = Math.min(chunk.length, from + this.limits.maxLineBytes - this.length);
    let end = from;
    while (end < stop && FRAMING_BYTES[chunk[end]!] === 0) end++;
    const count = end - from;
    if (count === 0) return 0;
    if (this.length + count > this.bytes.length) {
      const grown = new Uint8Array(
        Math.min(Math.max(this.bytes.length * 2, this.length + count), this.limits.maxLineBytes),
      );
      grown.set(this.bytes.subarray(0, this.length));
      this.bytes = grown;
    }
    this.bytes.set(chunk.subarray(from, end), this.length);
    this.length += count;
    return count;
  }

  private byte(b: number): void {
    switch (this.telnet) {
      case 'iac':
        // IAC IAC is a literal 0xFF; WILL/WONT/DO/DONT take one option byte; SB runs to IAC SE.
        this.telnet = b >= WILL && b <= DONT ? 'option' : b === SB ? 'sub' : 'data';
        this.subnegotiation = 0;
        if (b === IAC) this.data(b);
        return;
      case 'option':
        this.telnet = 'data';
        return;
      case 'sub':
      case 'subIac':
        if (++this.subnegotiation > this.limits.maxSubnegotiationBytes) {
          // Never closed: what follows is data again rather than swallowed.
          this.discard('subnegotiation', this.limits.maxSubnegotiationBytes, '', null);
          this.telnet = 'data';
          this.data(b);
        } else if (this.telnet === 'sub') {
          if (b === IAC) this.telnet = 'subIac';
        } else this.telnet = b === SE ? 'data' : 'sub';
        return;
      case 'data':
        if (b === IAC) this.telnet = 'iac';
        else this.data(b);
    }
  }

  private data(b: number): void {
    if (this.block === 'id' || this.block === 'code') {
      this.header(b);
      return;
    }
    switch (b) {
      case LF:
        if (this.discardingLine) this.discardingLine = false;
        else if (this.block !== 'discard') this.endLine();
        return;
      case CR:
      case BEL:
      case POSE_START:
      case POSE_END:
        return;
      case BLOCK_START:
        this.startBlock();
        return;
      case BLOCK_END:
        if (this.block === 'text') this.endBlock();
        else if (this.block === 'discard') this.closeBlock();
        return;
      default:
        if (this.discardingLine || this.block === 'discard') return;
        if (this.length === this.limits.maxLineBytes) {
          this.release();
          // Releasing the held line may itself have put the reply over its limit.
          if ((this.block as BlockPhase) !== 'discard') this.overlong(this.head(this.length));
          this.length = 0;
          this.discardingLine = this.block === 'none';
          return;
        }
        if (this.length === this.bytes.length) {
          const grown = new Uint8Array(Math.min(this.bytes.length * 2, this.limits.maxLineBytes));
          grown.set(this.bytes);
          this.bytes = grown;
        }
        this.bytes[this.length++] = b;
    }
  }

  private header(b: number): void {
    if (b === BLOCK_SEPARATOR) {
      this.block = this.block === 'id' ? 'code' : 'text';
      this.headerDigits = 0;
    } else if (b >= 0x30 && b <= 0x39 && ++this.headerDigits <= MAX_HEADER_DIGITS) {
      if (this.block === 'id') this.blockId = this.blockId * 10 + (b - 0x30);
      else this.blockCode = this.blockCode * 10 + (b - 0x30);
    } else {
      // Not a block header after all: give up on the block, keep the byte as text.
      this.block = 'none';
      this.data(b);
    }
  }

  private startBlock(): void {
    // A prompt often runs straight into 0x15; anything else pending is a line of its own.
    if (this.length > 0) {
      const pending = this.take();
      if (stripPrompt(pending).trim() !== '') this.line(pending);
    }
    this.release();
    this.discardingLine = false;
    this.block = 'id';
    this.blockId = 0;
    this.blockCode = 0;
    this.headerDigits = 0;
    this.blockLines = [];
    this.blockBytes = 0;
  }

  private endBlock(): void {
    if (this.length > 0) this.endLine();
    this.release();
    if (this.block !== 'text') {
      // The reply went over its limit while its last line was released.
      this.closeBlock();
      return;
    }
    const id = this.blockId;
    // A trailing prompt inside the block is not part of the reply.
    while (this.blockLines.length > 0 && this.blockLines[this.blockLines.length - 1] === '') {
      this.blockLines.pop();
    }
    this.out.push({ type: 'reply', id, code: this.blockCode, text: this.blockLines.join('\n') });
    this.closeBlock();
  }

  private closeBlock(): void {
    this.block = 'none';
    this.blockLines = [];
    this.blockBytes = 0;
    this.length = 0;
    this.discardingLine = false;
  }

  private take(): string {
    // A view of the bytes, not a copy.
    const text = Buffer.from(this.bytes.buffer, this.bytes.byteOffset, this.length).toString('utf8');
    this.length = 0;
    return text;
  }

  private head(length: number): string {
    return Buffer.from(this.bytes.subarray(0, Math.min(length, HEAD_BYTES))).toString('utf8');
  }

  private endLine(): void {
    this.line(this.take());
  }

  private line(raw: string): void {
    const text = stripPrompt(raw);
    if (text.length !== raw.length) this.prompted = true;
    if (CONTINUATION.test(text)) {
      if (this.discardingContinuations) return;
      if (this.held !== null) {
        const rest = text.replace(CONTINUATION, '');
        if (this.held.length + rest.length > this.limits.maxLineBytes) {
          const head = this.held.slice(0, HEAD_BYTES);
          this.held = null;
          this.discardingContinuations = true;
          this.overlong(head);
        } else this.held += rest;
        return;
      }
    }
    this.discardingContinuations = false;
    this.release();
    this.held = text;
  }

  private release(): void {
    if (this.held === null) return;
    const text = this.held;
    this.held = null;
    const inBlock = this.block === 'text';
    if (inBlock) {
      this.blockBytes += text.length + 1;
      if (this.blockBytes > this.limits.maxReplyBytes) {
        // The lines already out stay out; the rest of the reply is dropped.
        this.blockBytes -= text.length + 1;
        this.overlong(text.slice(0, HEAD_BYTES));
        this.length = 0;
        return;
      }
      this.blockLines.push(text);
    }
    this.out.push({ type: 'line', text, blockId: inBlock ? this.blockId : null });
  }

  /** A line over the limit: dropped, and inside a reply the whole reply with it. */
  private overlong(head: string): void {
    if (this.block !== 'text') {
      this.discard('line', this.limits.maxLineBytes, head, null);
      return;
    }
    const first = this.blockLines[0]?.slice(0, HEAD_BYTES) ?? head;
    this.discard('reply', this.limits.maxReplyBytes, first, this.blockId);
    this.blockLines = [];
    this.block = 'discard';
  }

  private discard(what: Discarded['what'], limit: number, head: string, blockId: number | null): void {
    this.out.push({ type: 'discarded', what, limit, head, blockId });
  }
}
