// A message with files as Discord takes it ("Uploading files": a multipart/form-data body with the
// JSON in `payload_json` and one `files[n]` part per file), built as one Buffer. discord.js builds
// a FormData of Blobs that undici streams part by part, a socket write per chunk: at 40 edits a
// second that was a fifth of the bot's main-thread time (docs/performance.md). One buffer is one write.
import { randomBytes } from 'node:crypto';

export interface UploadFile {
  /** The name Discord shows and `attachment://` refers to. */
  name: string;
  data: Uint8Array;
}

export interface MultipartBody {
  body: Buffer;
  /** The request's Content-Type, with the boundary. */
  contentType: string;
}

/** A file part's type by its name: pictures as such, anything else as bytes (as discord.js sent them). */
export function contentTypeOf(name: string): string {
  const extension = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  if (extension === 'png') return 'image/png';
  if (extension === 'gif') return 'image/gif';
  return 'application/octet-stream';
}

/**
 * `payload` (already JSON) and `files` as one multipart/form-data body, written into one buffer.
 * The boundary is 32 hex digits, new for each body, unless given (tests); names are escaped as the
 * WHATWG form encoder does (`"`, CR, LF).
 */
export function makeMultipart(
  payload: string,
  files: readonly UploadFile[],
  boundary: string = nextBoundary(),
): MultipartBody {
  const dash = `--${boundary}`;
  const heads = files.map(
    (file, index) =>
      `${dash}\r\nContent-Disposition: form-data; name="files[${index}]"; filename="${escapeName(file.name)}"\r\n` +
      `Content-Type: ${contentTypeOf(file.name)}\r\n\r\n`,
  );
  const first = `${dash}\r\nContent-Disposition: form-data; name="payload_json"\r\nContent-Type: application/json\r\n\r\n${payload}\r\n`;
  const last = `${dash}--\r\n`;
  let length = Buffer.byteLength(first) + last.length;
  files.forEach((file, index) => (length += Buffer.byteLength(heads[index]!) + file.data.byteLength + 2));
  const body = Buffer.allocUnsafe(length);
  let at = body.write(first);
  files.forEach((file, index) => {
    at += body.write(heads[index]!, at);
    body.set(file.data, at);
    at += file.data.byteLength;
    at += body.write('\r\n', at, 'latin1');
  });
  body.write(last, at, 'latin1');
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * A boundary no part contains: 16 random hex digits drawn once per process, then a count. As
 * unlikely to appear in a picture as 32 random digits, without asking the system for randomness
 * on every edit.
 */
const BOUNDARY_PREFIX = randomBytes(8).toString('hex');
let boundaries = 0;

function nextBoundary(): string {
  return `${BOUNDARY_PREFIX}${(boundaries++).toString(16).padStart(16, '0')}`;
}

function escapeName(name: string): string {
  return name.replace(/\n/g, '%0A').replace(/\r/g, '%0D').replace(/"/g, '%22');
}
