// The nonce a live post is sent with (enforce_nonce), one for every try of one post. Discord
// remembers it for a few minutes per author, in any channel: a second message with the same nonce
// gets the first one back and is never made. Every process of the bot is the same author, so the
// nonce is random (64 bits), not a snowflake: a snowflake is the time plus a counter each process
// starts at 0, the same in two processes posting in the same millisecond.
import { randomBytes } from 'node:crypto';

/** Digits, as a snowflake's: at most 20, within Discord's 25 characters. */
export function postNonce(): string {
  return randomBytes(8).readBigUInt64BE().toString();
}
