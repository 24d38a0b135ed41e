// The multipart body of a message with files, read back by the platform's own form parser (undici's,
// the one the fake Discord uses): what Discord's "Uploading files" describes, byte for byte.
import { describe, expect, it } from 'vitest';
import { BOARD_IMAGE } from '../../src/relay/message.js';
import { makeMessageBody } from '../../src/discord/live-port.js';
import { contentTypeOf, makeMultipart } from '../../src/discord/multipart.js';

async function parse(body: Buffer, contentType: string): Promise<FormData> {
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- a whole body in memory, a test's own
  return new Response(body, { headers: { 'content-type': contentType } }).formData();
}

describe('makeMultipart', () => {
  it('carries the JSON as payload_json and each file as files[n], bytes unchanged', async () => {
    // Bytes that look like the form's own syntax: CR LF, dashes, a quote.
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 13, 10, 45, 45, 34, 0, 255, 13, 10]);
    const pgn = Buffer.from('[Event "x"]\r\n--\r\n1. e4 *\n');
    const payload = JSON.stringify({ embeds: [{ title: 'Game 1: a vs b' }], attachments: [{ id: '0' }] });
    const { body, contentType } = makeMultipart(payload, [
      { name: 'board.png', data: png },
      { name: 'game-1.pgn', data: pgn },
    ]);
    expect(contentType).toMatch(/^multipart\/form-data; boundary=[0-9a-f]{32}$/);
    const form = await parse(body, contentType);
    expect(form.get('payload_json')).toBe(payload);
    const board = form.get('files[0]') as File;
    expect(board.name).toBe('board.png');
    expect(board.type).toBe('image/png');
    expect(Buffer.from(await board.arrayBuffer())).toEqual(png);
    const text = form.get('files[1]') as File;
    expect(text.name).toBe('game-1.pgn');
    expect(text.type).toBe('application/octet-stream');
    expect(Buffer.from(await text.arrayBuffer())).toEqual(pgn);
    expect([...form.keys()]).toEqual(['payload_json', 'files[0]', 'files[1]']);
  });

  it('escapes quotes and line breaks in file names: the name reads back whole, no header broken', async () => {
    const { body, contentType } = makeMultipart('{}', [{ name: 'a"b\r\nc.gif', data: Buffer.from('GIF') }]);
    const file = (await parse(body, contentType)).get('files[0]') as File;
    expect(file.name).toBe('a"b\r\nc.gif');
    expect(file.type).toBe('image/gif');
  });

  it('uses a new boundary for each body unless one is given', () => {
    const a = makeMultipart('{}', []).contentType;
    expect(makeMultipart('{}', []).contentType).not.toBe(a);
    expect(makeMultipart('{}', [], 'b0undary').contentType).toBe('multipart/form-data; boundary=b0undary');
  });

  it('types files by their extension', () => {
    expect(['x.PNG', 'x.gif', 'x.pgn', 'x'].map(contentTypeOf)).toEqual([
      'image/png',
      'image/gif',
      'application/octet-stream',
      'application/octet-stream',
    ]);
  });
});

describe('makeMessageBody', () => {
  const message = {
    title: 'Game 7: a vs b',
    lines: ['1. e4'],
    image: { name: BOARD_IMAGE, data: Buffer.from('png'), description: 'White to move' },
    files: [{ name: 'game-7.pgn', data: Buffer.from('1. e4 *') }],
    live: false,
    footer: '1-0',
  };

  it('lists every file it sends as an attachment, by index, with its description', () => {
    const { json, files } = makeMessageBody(message, 3, 0);
    expect(files.map((f) => f.name)).toEqual([BOARD_IMAGE, 'game-7.pgn']);
    expect(json.attachments).toEqual([{ id: '0', description: 'White to move' }, { id: '1' }]);
    expect(json.embeds[0]!.image).toEqual({ url: `attachment://${BOARD_IMAGE}` });
  });

  it('sends no files and no attachments list without a new picture (Discord keeps the old one)', () => {
    const { json, files } = makeMessageBody({ ...message, image: null }, 3, 0);
    expect(files).toEqual([]);
    expect(json).not.toHaveProperty('attachments');
  });
});
