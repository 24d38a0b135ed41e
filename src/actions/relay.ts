// /relay chesslive: a ChessLive! move file the operator configured, relayed live like a FICS game.
import { err, ok, type Result } from '../result.js';
import type { Services } from './services.js';
import type { ChessLiveGame } from '../game/game-id.js';

export interface RelayInput {
  /** The source's name as typed (case and surrounding spaces ignored). */
  readonly name: string;
  readonly guildId: string;
  readonly channelId: string;
  readonly requestedBy: string;
  readonly flip: boolean;
  readonly thread: boolean;
}

export type RelayError =
  /** No source by that name; `names` are the configured ones (none: the operator set up none). */
  | { readonly kind: 'unknown-source'; readonly name: string; readonly names: readonly string[] }
  /** Reading the source failed. */
  | { readonly kind: 'unreadable'; readonly message: string }
  /** The source holds a game that has ended: nothing to relay live. */
  | { readonly kind: 'finished'; readonly white: string; readonly black: string; readonly result: string }
  /** The relay refused (the server's limit, say), in its words. */
  | { readonly kind: 'refused'; readonly message: string };

export interface RelayServices {
  readonly chesslive: Pick<Services['chesslive'], 'gameOf' | 'names' | 'observeGame' | 'snapshot'>;
  readonly relay: Pick<Services['relay'], 'watch' | 'releaseIfUnwanted'>;
}

/** The normalised source name: what `/relay` looks up. */
export function sourceName(typed: string): string {
  return typed.trim().toLowerCase();
}

/** The configured source's game, or the error naming the sources there are. */
export function chessLiveSource(
  name: string,
  services: Pick<RelayServices, 'chesslive'>,
): Result<ChessLiveGame, RelayError> {
  const game = services.chesslive.gameOf(name);
  return game === null ? err({ kind: 'unknown-source', name, names: services.chesslive.names() }) : ok(game);
}

export async function relayChessLive(
  input: RelayInput,
  services: RelayServices,
): Promise<Result<{ readonly white: string; readonly black: string }, RelayError>> {
  const source = chessLiveSource(input.name, services);
  if (!source.ok) return source;
  const game = source.value;
  try {
    await services.chesslive.observeGame(game);
  } catch (error) {
    return err({ kind: 'unreadable', message: (error as Error).message });
  }
  const now = services.chesslive.snapshot(game);
  if (now?.ended === true) {
    await services.relay.releaseIfUnwanted(game);
    return err({ kind: 'finished', white: now.white, black: now.black, result: now.result });
  }
  const result = await services.relay.watch({
    guildId: input.guildId,
    channelId: input.channelId,
    game,
    options: { flip: input.flip, thread: input.thread },
    requestedBy: input.requestedBy,
  });
  if (!result.ok) {
    // Read for nothing (the server's limit, say): stop reading unless another channel shows it.
    await services.relay.releaseIfUnwanted(game);
    return err({ kind: 'refused', message: result.error.message });
  }
  const { white, black } = result.value.snapshot;
  return ok({ white, black });
}
