// From bytes or lines to typed events: the one entry point the connection and the CLIs use.
import type { MoveList, ServerEvent, Undecoded } from './events.js';
import { Framer, type Discarded, type FramingLimits } from './framer.js';
import { decodeDelta } from './delta.js';
import { decodeGameInfo } from './gameinfo.js';
import { HANDLE } from './handle.js';
import { decodeHoldings } from './holdings.js';
import { parseKibitz } from './kibitz.js';
import {
  decodeGameCreated,
  decodeGameEnd,
  decodeGameHeader,
  decodeObserving,
  decodeStoppedObserving,
} from './lines.js';
import { MoveListAssembler } from './movelist.js';
import { decodeStyle12 } from './style12.js';
import { undecoded } from './undecoded.js';

/** A braced game notice without a result (e.g. a courtesy note): it carries no state. */
const BRACED_NOTICE = new RegExp(String.raw`^\{Game \d+ \(${HANDLE} vs\. ${HANDLE}\) [^}]*\}\s*$`);

/** Decodes one complete line (prompt already stripped). Never throws. */
export function decodeLine(line: string): ServerEvent {
  switch (line.slice(0, 4)) {
    case '<12>':
      return decodeStyle12(line);
    case '<d1>':
      return decodeDelta(line);
    case '<b1>':
      return decodeHoldings(line);
    case '<g1>':
      return decodeGameInfo(line);
  }
  if (line.startsWith('{Game ')) {
    const event = decodeGameEnd(line) ?? decodeGameCreated(line);
    if (event !== null) return event;
    if (BRACED_NOTICE.test(line)) return { kind: 'other', line };
    return undecoded('gameEnd', 'braced game line of no known form', line);
  }
  if (line.startsWith('Game ')) {
    const event = decodeGameHeader(line) ?? decodeGameEnd(line);
    if (event !== null) return event;
    return { kind: 'other', line };
  }
  if (line.startsWith('You are ') || line.startsWith('Removing game')) {
    const event = decodeObserving(line) ?? decodeStoppedObserving(line);
    if (event !== null) return event;
  }
  if (line.includes('] kibitzes: ') || line.includes('] whispers: ')) {
    const event = parseKibitz(line);
    if (event !== null) return event;
  }
  return { kind: 'other', line };
}

/** A block-mode reply, for the command queue of the connection. */
export interface BlockReply {
  kind: 'reply';
  id: number;
  code: number;
  text: string;
  /** The reply went over its limit and was dropped: `text` is empty. */
  dropped?: true;
}

export type Decoded = ServerEvent | BlockReply;

/** The kinds of undecodable lines the framing limits produce (the text is only the start). */
const DROPPED_KINDS: ReadonlySet<string> = new Set<Discarded['what']>(['line', 'reply', 'subnegotiation']);

/** An undecodable "line" that is what the framing dropped for its size. */
export function droppedForSize(event: Undecoded): boolean {
  return DROPPED_KINDS.has(event.lineKind);
}

/**
 * Everything an observer connection receives, in order: bytes in, events out.
 * Keeps only what must span reads: the framer's partial line and an unfinished move list.
 */
export class ObserverDecoder {
  private readonly framer: Framer;
  private readonly moveList = new MoveListAssembler();

  constructor(limits: Partial<FramingLimits> = {}) {
    this.framer = new Framer(limits);
  }

  /** Text received after the last line end (login prompts have none). */
  get partial(): string {
    return this.framer.partial;
  }

  /** Whether a `fics% ` prompt came since the last call (Framer.takePrompt). */
  takePrompt(): boolean {
    return this.framer.takePrompt();
  }

  push(chunk: Uint8Array): Decoded[] {
    return this.frames(this.framer.push(chunk));
  }

  /** End of stream: the last unterminated line is decoded too. */
  end(): Decoded[] {
    return this.frames(this.framer.flush());
  }

  /** Decodes already-split lines (for tests and replays that have text, not bytes). */
  lines(lines: readonly string[]): Decoded[] {
    const out: Decoded[] = [];
    for (const line of lines) this.line(line, out);
    return out;
  }

  private frames(frames: ReturnType<Framer['push']>): Decoded[] {
    const out: Decoded[] = [];
    for (const frame of frames) {
      if (frame.type === 'reply')
        out.push({ kind: 'reply', id: frame.id, code: frame.code, text: frame.text });
      else if (frame.type === 'discarded') this.discarded(frame, out);
      else this.line(frame.text, out);
    }
    return out;
  }

  /** Reported as an undecodable line (its start only); a dropped reply also answers its command. */
  private discarded(frame: Discarded, out: Decoded[]): void {
    const what = frame.what === 'subnegotiation' ? 'telnet subnegotiation' : frame.what;
    out.push(undecoded(frame.what, `a ${what} over the limit of ${frame.limit} bytes: dropped`, frame.head));
    if (frame.what === 'reply' && frame.blockId !== null)
      out.push({ kind: 'reply', id: frame.blockId, code: 0, text: '', dropped: true });
  }

  private line(line: string, out: Decoded[]): void {
    const offer = this.moveList.offer(line);
    if (offer.error !== undefined) out.push(undecoded('moveList', offer.error, line));
    if (offer.list !== undefined) out.push(offer.list satisfies MoveList);
    if (!offer.consumed) out.push(decodeLine(line));
  }
}

export type { Undecoded };
