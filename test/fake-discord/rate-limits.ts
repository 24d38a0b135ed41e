// Per-route rate-limit buckets as Discord announces them in X-RateLimit-* headers. A bucket is a
// fixed window that opens at its first request; its key is the bucket name plus the route's major
// parameter (channel, guild or webhook), so each channel has its own message-edit bucket.
import { createHash } from 'node:crypto';

export interface BucketSpec {
  /** Requests allowed per window. */
  limit: number;
  windowMs: number;
}

export interface RateLimitConfig {
  /** PATCH /channels/:id/messages/:id, per channel (Discord: about 5 per 5 s). */
  messageEdit: BucketSpec;
  /** POST /channels/:id/messages, per channel (Discord: 5 per 5 s). */
  messageCreate: BucketSpec;
  /** Every other route, per route and major parameter. */
  default: BucketSpec;
  /**
   * Per bot token, over every route that takes it and every connection using it (Discord: "All
   * bots can make up to 50 requests per second"); interaction endpoints do not count.
   */
  global: BucketSpec;
}

export const DEFAULT_RATE_LIMITS: RateLimitConfig = {
  messageEdit: { limit: 5, windowMs: 5000 },
  messageCreate: { limit: 5, windowMs: 5000 },
  default: { limit: 50, windowMs: 1000 },
  global: { limit: 50, windowMs: 1000 },
};

export interface BucketState {
  /** Opaque id sent as X-RateLimit-Bucket (same for every major parameter, as on Discord). */
  hash: string;
  limit: number;
  remaining: number;
  resetAt: number;
}

export type TakeResult =
  { allowed: true; bucket: BucketState } | { allowed: false; bucket: BucketState; retryAfterMs: number };

export class RateLimiter {
  readonly #buckets = new Map<string, BucketState>();

  /** Counts one request against bucket `name` for `major`. */
  take(name: string, spec: BucketSpec, major: string, now: number = Date.now()): TakeResult {
    const key = `${name}\u0000${major}`;
    let bucket = this.#buckets.get(key);
    if (!bucket || now >= bucket.resetAt) {
      bucket = {
        hash: bucketHash(name),
        limit: spec.limit,
        remaining: spec.limit,
        resetAt: now + spec.windowMs,
      };
      this.#buckets.set(key, bucket);
    }
    if (bucket.remaining <= 0) return { allowed: false, bucket, retryAfterMs: bucket.resetAt - now };
    bucket.remaining -= 1;
    return { allowed: true, bucket };
  }
}

export function bucketHash(name: string): string {
  return createHash('sha1').update(name).digest('hex').slice(0, 16);
}

/** The X-RateLimit-* headers for a bucket at `now`. */
export function rateLimitHeaders(bucket: BucketState, now: number = Date.now()): Record<string, string> {
  const resetAfterMs = Math.max(0, bucket.resetAt - now);
  return {
    'x-ratelimit-limit': String(bucket.limit),
    'x-ratelimit-remaining': String(bucket.remaining),
    'x-ratelimit-reset': (bucket.resetAt / 1000).toFixed(3),
    'x-ratelimit-reset-after': (resetAfterMs / 1000).toFixed(3),
    'x-ratelimit-bucket': bucket.hash,
  };
}
