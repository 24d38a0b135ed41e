import { describe, expect, it } from 'vitest';
import { Framer, type Frame } from '../../src/protocol/framer.js';

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
