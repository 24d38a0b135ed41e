// Which failures of a Discord request may pass: worth one more try, after a wait (client.ts: discord.js
// resends none by itself).
import { DiscordAPIError, DiscordjsError, HTTPError } from 'discord.js';

/** Discord's 5xx, or the connection cut, reset or timed out (not a refusal: those are for good). */
export function passingFailure(error: unknown): boolean {
  if (error instanceof HTTPError) return error.status >= 500;
  if (!(error instanceof Error) || error instanceof DiscordAPIError || error instanceof DiscordjsError)
    return false;
  // undici and node:net errors carry a string code: UND_ERR_SOCKET, ECONNRESET, EPIPE...
  const code = (error as { code?: unknown }).code;
  return error.name === 'AbortError' || (typeof code === 'string' && /^(UND_ERR_|E[A-Z]+$)/.test(code));
}
