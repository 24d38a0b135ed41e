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
  | { type: 'reply'; id: number; code: number; text: string };

const PROMPT = /^(?:fics% )+/;
const CONTINUATION = /^\\ +/;

/** Removes leading prompts (`fics% `), possibly several glued together. */
export function stripPrompt(text: string): string {
  return text.startsWith('fics% ') ? text.replace(PROMPT, '') : text;
}

type TelnetState = 'data' | 'iac' | 'option' | 'sub' | 'subIac';
type BlockPhase = 'none' | 'id' | 'code' | 'text';

export class Framer {
  private telnet: TelnetState = 'data';
  private bytes = new Uint8Array(256);
  private length = 0;
  private held: string | null = null;
  private block: BlockPhase = 'none';
  private blockId = 0;
  private blockCode = 0;
  private blockLines: string[] = [];
  private out: Frame[] = [];

  /** The text of the line still being received (e.g. `login: `, which has no line end). */
  get partial(): string {
    return stripPrompt(Buffer.from(this.bytes.subarray(0, this.length)).toString('utf8'));
  }

  /** True while inside a block-mode reply. */
  get inBlock(): boolean {
    return this.block !== 'none';
  }

  push(chunk: Uint8Array): Frame[] {
    for (let i = 0; i < chunk.length; i++) this.byte(chunk[i]!);
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

  private byte(b: number): void {
    switch (this.telnet) {
      case 'iac':
        // IAC IAC is a literal 0xFF; WILL/WONT/DO/DONT take one option byte; SB runs to IAC SE.
        this.telnet = b >= WILL && b <= DONT ? 'option' : b === SB ? 'sub' : 'data';
        if (b === IAC) this.data(b);
        return;
      case 'option':
        this.telnet = 'data';
        return;
      case 'sub':
        if (b === IAC) this.telnet = 'subIac';
        return;
      case 'subIac':
        this.telnet = b === SE ? 'data' : 'sub';
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
        this.endLine();
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
        return;
      default:
        if (this.length === this.bytes.length) {
          const grown = new Uint8Array(this.bytes.length * 2);
          grown.set(this.bytes);
          this.bytes = grown;
        }
        this.bytes[this.length++] = b;
    }
  }

  private header(b: number): void {
    if (b === BLOCK_SEPARATOR) {
      this.block = this.block === 'id' ? 'code' : 'text';
    } else if (b >= 0x30 && b <= 0x39) {
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
    this.block = 'id';
    this.blockId = 0;
    this.blockCode = 0;
    this.blockLines = [];
  }

  private endBlock(): void {
    if (this.length > 0) this.endLine();
    this.release();
    const id = this.blockId;
    this.block = 'none';
    // A trailing prompt inside the block is not part of the reply.
    while (this.blockLines.length > 0 && this.blockLines[this.blockLines.length - 1] === '') {
      this.blockLines.pop();
    }
    this.out.push({ type: 'reply', id, code: this.blockCode, text: this.blockLines.join('\n') });
    this.blockLines = [];
  }

  private take(): string {
    const text = Buffer.from(this.bytes.subarray(0, this.length)).toString('utf8');
    this.length = 0;
    return text;
  }

  private endLine(): void {
    this.line(this.take());
  }

  private line(raw: string): void {
    const text = stripPrompt(raw);
    if (this.held !== null && CONTINUATION.test(text)) {
      this.held += text.replace(CONTINUATION, '');
      return;
    }
    this.release();
    this.held = text;
  }

  private release(): void {
    if (this.held === null) return;
    const text = this.held;
    this.held = null;
    const inBlock = this.block === 'text';
    if (inBlock) this.blockLines.push(text);
    this.out.push({ type: 'line', text, blockId: inBlock ? this.blockId : null });
  }
}
