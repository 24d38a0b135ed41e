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
 * `payload` (already JSON) and `files` as one multipart/form-data body. The boundary is 32 random
 * hex digits unless given (tests); names are escaped as the WHATWG form encoder does (`"`, CR, LF).
 */
export function makeMultipart(
  payload: string,
  files: readonly UploadFile[],
  boundary: string = randomBytes(16).toString('hex'),
): MultipartBody {
  const dash = `--${boundary}`;
  const parts: Buffer[] = [
    Buffer.from(
      `${dash}\r\nContent-Disposition: form-data; name="payload_json"\r\n` +
        `Content-Type: application/json\r\n\r\n${payload}\r\n`,
    ),
  ];
  files.forEach((file, index) => {
    parts.push(
      Buffer.from(
        `${dash}\r\nContent-Disposition: form-data; name="files[${index}]"; filename="${escapeName(file.name)}"\r\n` +
          `Content-Type: ${contentTypeOf(file.name)}\r\n\r\n`,
      ),
      Buffer.from(file.data.buffer, file.data.byteOffset, file.data.byteLength),
      CRLF,
    );
  });
  parts.push(Buffer.from(`${dash}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

const CRLF = Buffer.from('\r\n');

function escapeName(name: string): string {
  return name.replace(/\n/g, '%0A').replace(/\r/g, '%0D').replace(/"/g, '%22');
}
