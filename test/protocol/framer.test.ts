import { describe, expect, it } from 'vitest';
import { Framer, type Frame } from '../../src/protocol/framer.js';
import { Dice } from '../load/random.js';

const bytes = (...parts: (string | number[])[]): Buffer =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

function lines(frames: Frame[]): string[] {
  return frames.flatMap((f) => (f.type === 'line' ? [f.text] : []));
}

function pushAll(chunks: Buffer[]): Frame[] {
  const framer = new Framer();
  return [...chunks.flatMap((c) => framer.push(c)), ...framer.flush()];
}

describe('Framer', () => {
  it('normalises lasker "\\n\\r" and FatICS "\\r\\n" line ends to the same lines', () => {
    expect(lines(pushAll([bytes('a\n\rb\n\r')]))).toEqual(['a', 'b']);
    expect(lines(pushAll([bytes('a\r\nb\r\n')]))).toEqual(['a', 'b']);
  });

  it('strips telnet commands anywhere, even split across reads', () => {
    // Press-return prompt with IAC WONT ECHO, as lasker sends it, split inside the IAC sequence.
    const raw = bytes('Press return:', [0xff], [0xfc, 0x01], '\n\r**** Starting ****\n\r');
    const chunks = [raw.subarray(0, 14), raw.subarray(14, 15), raw.subarray(15)];
    expect(lines(pushAll(chunks))).toEqual(['Press return:', '**** Starting ****']);
    expect(lines(pushAll([bytes('x', [0xff, 0xfa, 0x18, 0x01, 0xff, 0xf0], 'y\n')]))).toEqual(['xy']);
    expect(lines(pushAll([bytes('x', [0xff, 0xff], '\n')]))[0]).toHaveLength(2);
  });

  it('keeps an unterminated prompt as partial text for the login', () => {
    const framer = new Framer();
    expect(framer.push(bytes('If you are not registered...\n\rlogin: '))).toHaveLength(1);
    expect(framer.partial).toBe('login: ');
  });

  it('removes prompts glued to lines and bell characters', () => {
    expect(lines(pushAll([bytes('fics% fics% <d1> 1 2 e5 e7e5 0 1000 0\r\n', [7], 'text\r\n')]))).toEqual([
      '<d1> 1 2 e5 e7e5 0 1000 0',
      'text',
    ]);
  });

  it('joins "\\   " continuation lines, also inside block replies', () => {
    expect(lines(pushAll([bytes('<12> a b W \r\n\\   -1 1\r\n\\   (0:00) none\r\n')]))).toEqual([
      '<12> a b W -1 1(0:00) none',
    ]);
  });

  it('frames block-mode replies and tags their lines, with async lines outside blocks', () => {
    const raw = bytes(
      'fics% ',
      [0x15],
      '8',
      [0x16],
      '80',
      [0x16],
      'You are now observing game 16.\r\nGame 16: A (++++) B (++++) unrated blitz 5 2\r\n',
      [0x17],
      '\r\nfics% <d1> 16 1 a4 a2a4 0 300000 0\r\n',
    );
    for (const split of [raw.length, 1, 5]) {
      const chunks: Buffer[] = [];
      for (let i = 0; i < raw.length; i += split) chunks.push(raw.subarray(i, i + split));
      const frames = pushAll(chunks);
      expect(frames.filter((f) => f.type === 'reply')).toEqual([
        {
          type: 'reply',
          id: 8,
          code: 80,
          text: 'You are now observing game 16.\nGame 16: A (++++) B (++++) unrated blitz 5 2',
        },
      ]);
      const tagged = frames.filter((f) => f.type === 'line' && f.blockId === 8);
      expect(tagged).toHaveLength(2);
      expect(lines(frames)).toContain('<d1> 16 1 a4 a2a4 0 300000 0');
    }
  });

  it('ignores pose frames but keeps their lines', () => {
    expect(lines(pushAll([bytes([0x18], 'posed text\n\r', [0x19])]))).toEqual(['posed text']);
  });
});

describe('Framer limits', () => {
  const KIB = 1024;
  const limits = { maxLineBytes: 64 * KIB, maxReplyBytes: 256 * KIB, maxSubnegotiationBytes: 64 };
  const read = (framer: Framer, raw: Buffer, size = 64 * KIB): Frame[] => {
    const frames: Frame[] = [];
    for (let at = 0; at < raw.length; at += size) frames.push(...framer.push(raw.subarray(at, at + size)));
    return frames;
  };
  const discarded = (frames: Frame[]): Frame[] => frames.filter((f) => f.type === 'discarded');

  it('drops a 1 MiB line with one report and frames the next line', () => {
    const framer = new Framer(limits);
    const frames = read(framer, bytes('before\r\n', 'x'.repeat(1024 * KIB), '\r\nafter\r\n'));
    expect(lines(frames)).toEqual(['before', 'after']);
    expect(discarded(frames)).toEqual([
      { type: 'discarded', what: 'line', limit: 64 * KIB, head: 'x'.repeat(64), blockId: null },
    ]);
  });

  it('keeps dropping a line over the limit that has not ended yet, and reports it once', () => {
    const framer = new Framer(limits);
    const frames = read(framer, bytes('y'.repeat(512 * KIB)));
    expect(discarded(frames)).toHaveLength(1);
    expect(framer.partial).toBe('');
    expect(lines([...framer.push(bytes('y'.repeat(KIB), '\nlogin: ')), ...framer.flush()])).toEqual([
      'login: ',
    ]);
  });

  it('bounds lines joined from continuations', () => {
    const framer = new Framer(limits);
    const continuation = `\\   ${'z'.repeat(KIB)}\r\n`;
    const frames = read(framer, bytes('<12> start\r\n', continuation.repeat(100), 'next\r\n'), 1 << 20);
    expect(discarded(frames)).toHaveLength(1);
    expect(lines(frames)).toEqual(['next']);
  });

  it('drops a reply over the limit, reports it with its id and frames what follows', () => {
    const framer = new Framer(limits);
    const row = `${'r'.repeat(99)}\r\n`;
    const raw = bytes(
      [0x15],
      '7',
      [0x16],
      '43',
      [0x16],
      row.repeat(10 * KIB),
      [0x17],
      'fics% <d1> 16 1 a4 a2a4 0 300000 0\r\n',
      [0x15],
      '8',
      [0x16],
      '80',
      [0x16],
      'small\r\n',
      [0x17],
    );
    const frames = read(framer, raw);
    expect(discarded(frames)).toEqual([
      { type: 'discarded', what: 'reply', limit: 256 * KIB, head: 'r'.repeat(64), blockId: 7 },
    ]);
    expect(frames.filter((f) => f.type === 'reply')).toEqual([
      { type: 'reply', id: 8, code: 80, text: 'small' },
    ]);
    expect(lines(frames)).toContain('<d1> 16 1 a4 a2a4 0 300000 0');
    // Only the lines within the limit went out.
    expect(lines(frames).filter((l) => l.startsWith('r')).length).toBeLessThan((256 * KIB) / 100 + 1);
  });

  it('drops a reply holding a line over the line limit as a whole', () => {
    const framer = new Framer(limits);
    const raw = bytes(
      [0x15],
      '9',
      [0x16],
      '77',
      [0x16],
      'ok\r\n',
      'q'.repeat(100 * KIB),
      '\r\n',
      [0x17],
      'after\r\n',
    );
    const frames = read(framer, raw);
    expect(discarded(frames).map((f) => f.type === 'discarded' && [f.what, f.blockId])).toEqual([
      ['reply', 9],
    ]);
    expect(frames.filter((f) => f.type === 'reply')).toEqual([]);
    expect(lines(frames)).toEqual(['ok', 'after']);
  });

  it('gives up a telnet subnegotiation that never ends instead of swallowing the rest', () => {
    const framer = new Framer(limits);
    // 0x18 and 63 n fill the 64 bytes; the 64th n is data again.
    const frames = read(framer, bytes('a\r\n', [0xff, 0xfa, 0x18], 'n'.repeat(64), '\r\n<12> board\r\n'));
    expect(discarded(frames).map((f) => f.type === 'discarded' && f.what)).toEqual(['subnegotiation']);
    expect(lines(frames)).toEqual(['a', 'n', '<12> board']);
  });

  it('gives the end of a long unterminated text as the partial line, at most a kilobyte', () => {
    const framer = new Framer(limits);
    read(framer, bytes('b'.repeat(40 * KIB), ' login: '), 1);
    expect(framer.partial).toHaveLength(KIB);
    expect(framer.partial.endsWith('bbb login: ')).toBe(true);
  });
});

describe('Framer chunking', () => {
  // Text is taken a run at a time: runs cut by a read, by the line limit or by framing bytes must
  // frame as the same bytes read whole do. Small limits, so that lines and replies go over them.
  // No `\` (a continuation line joins only within one read) and no telnet subnegotiation (one
  // dropped for its size is reported before a line still held for a continuation).
  const limits = { maxLineBytes: 8, maxReplyBytes: 32, maxSubnegotiationBytes: 4 };
  const alphabet = [
    ...Buffer.from('abc 12%fics% '),
    0x0d,
    0x0a,
    0x0a,
    0x07,
    0x15,
    0x16,
    0x17,
    0x18,
    0x19,
    0xff,
    0xfb,
  ];
  const framed = (raw: Buffer, cuts: number[]): Frame[] => {
    const framer = new Framer(limits);
    const frames: Frame[] = [];
    let at = 0;
    for (const cut of [...cuts, raw.length]) {
      frames.push(...framer.push(raw.subarray(at, cut)));
      at = cut;
    }
    return [...frames, ...framer.flush()];
  };

  it('frames bytes alike whether they come whole, one at a time or in random reads', () => {
    const dice = new Dice(28);
    for (let run = 0; run < 300; run++) {
      const raw = Buffer.from(Array.from({ length: 1 + dice.int(200) }, () => dice.pick(alphabet)));
      const whole = framed(raw, []);
      expect(
        framed(
          raw,
          Array.from({ length: raw.length - 1 }, (_, i) => i + 1),
        ),
      ).toEqual(whole);
      const cuts = Array.from({ length: dice.int(8) }, () => dice.int(raw.length)).sort((a, b) => a - b);
      expect(framed(raw, cuts), raw.toString('hex')).toEqual(whole);
    }
  });
});
