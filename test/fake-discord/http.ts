// HTTP plumbing for the fake REST API: body parsing (JSON, and multipart/form-data with
// payload_json + files[n] as discord.js uploads them), route templates, recorded requests.
import type { IncomingMessage } from 'node:http';

export interface UploadedFile {
  /** Form field name, e.g. `files[0]`. */
  field: string;
  /** n of `files[n]`: what `attachments[].id` refers to in the payload. */
  index: number | null;
  filename: string;
  contentType: string | null;
  bytes: Buffer;
}

export interface RecordedRequest {
  /** Order of arrival, from 1. */
  seq: number;
  at: number;
  method: string;
  /** Path after `/api/v10`, segments decoded (`@original`, not `%40original`), no query. */
  path: string;
  /** The matched template, e.g. `/channels/:channel_id/messages/:message_id`; null if none. */
  route: string | null;
  params: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** JSON body, or the multipart payload_json; null without one. */
  body: unknown;
  files: UploadedFile[];
  /** HTTP status answered (0 until answered). */
  status: number;
  /** JSON answered, or null for 204 / binary. */
  response: unknown;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly errors?: unknown,
  ) {
    super(message);
  }

  toJSON(): Record<string, unknown> {
    return {
      message: this.message,
      code: this.code,
      ...(this.errors !== undefined ? { errors: this.errors } : {}),
    };
  }
}

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Parses a request body as discord.js sends it: JSON, or multipart with payload_json and files. */
export async function parseBody(
  contentType: string | undefined,
  raw: Buffer,
): Promise<{ body: unknown; files: UploadedFile[] }> {
  if (raw.length === 0) return { body: null, files: [] };
  const type = (contentType ?? '').toLowerCase();
  if (type.startsWith('application/json')) {
    try {
      return { body: JSON.parse(raw.toString('utf8')) as unknown, files: [] };
    } catch {
      throw new ApiError(400, 50109, 'The request body contains invalid JSON.');
    }
  }
  if (type.startsWith('multipart/form-data')) {
    // The platform's own multipart parser (undici, via Response#formData). Deprecated for servers
    // because it holds whole bodies in memory; here the body is already whole in `raw`, it is the
    // bot's own upload, and a streaming parser would be a new dependency.
    // eslint-disable-next-line @typescript-eslint/no-deprecated
    const form = await new Response(raw, { headers: { 'content-type': contentType ?? '' } }).formData();
    let body: unknown = null;
    const files: UploadedFile[] = [];
    for (const [field, value] of form) {
      if (typeof value === 'string') {
        if (field === 'payload_json') body = JSON.parse(value) as unknown;
        continue;
      }
      const index = /^files\[(\d+)\]$/.exec(field)?.[1];
      files.push({
        field,
        index: index === undefined ? null : Number(index),
        filename: value.name,
        contentType: value.type === '' ? null : value.type,
        bytes: Buffer.from(await value.arrayBuffer()),
      });
    }
    return { body, files };
  }
  return { body: raw.toString('utf8'), files: [] };
}

export interface CompiledRoute {
  template: string;
  segments: string[];
}

export function compileRoute(template: string): CompiledRoute {
  return { template, segments: template.split('/').filter((s) => s !== '') };
}

/** Matches decoded path segments against a template; returns the `:params` or null. */
export function matchRoute(route: CompiledRoute, segments: readonly string[]): Record<string, string> | null {
  if (route.segments.length !== segments.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const pattern = route.segments[i] as string;
    const actual = segments[i] as string;
    if (pattern.startsWith(':')) params[pattern.slice(1)] = actual;
    else if (pattern !== actual) return null;
  }
  return params;
}

/** Splits and decodes a path (discord.js percent-encodes `@original` as `%40original`). */
export function pathSegments(path: string): string[] {
  return path
    .split('/')
    .filter((s) => s !== '')
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    });
}
