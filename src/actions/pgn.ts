// The moves of a game Kibitz observed, as a file: the live game while it is on (or when it ended
// but was not stored), else the stored finished game.
import { makeChessLive } from '../chesslive/index.js';
import { makeSnapshotPgn, parsePgn } from '../game/pgn.js';
import { err, ok, type Result } from '../result.js';
import type { Services } from './services.js';
import type { GameId } from '../game/game-id.js';

export const GAME_FILE_FORMATS = ['pgn', 'chesslive'] as const;
export type GameFileFormat = (typeof GAME_FILE_FORMATS)[number];

export interface PgnInput {
  readonly game: GameId;
  readonly format: GameFileFormat;
}

/** A file to hand to the user. */
export interface GameFile {
  readonly name: string;
  readonly text: string;
}

export type PgnError =
  /** Neither observed now nor among the finished games kept. */
  | { readonly kind: 'unknown-game'; readonly game: GameId }
  /** The game has no ChessLive! form; `reason` when the writer said why. */
  | { readonly kind: 'no-chesslive'; readonly game: GameId; readonly reason?: string };

export interface PgnServices {
  readonly relay: Pick<Services['relay'], 'snapshot'>;
  readonly storage: { readonly finishedGames: Pick<Services['storage']['finishedGames'], 'recent'> };
}

export async function gameFile(input: PgnInput, services: PgnServices): Promise<Result<GameFile, PgnError>> {
  const { game, format } = input;
  const live = services.relay.snapshot(game);
  const [finished] = await services.storage.finishedGames.recent({ game, limit: 1 });
  const name = `game-${game}.${format === 'pgn' ? 'pgn' : 'clv'}`;
  if (live !== undefined && (!live.ended || finished === undefined)) {
    if (format === 'pgn') return ok({ name, text: makeSnapshotPgn(live) });
    const written = makeChessLive(live);
    return written.ok
      ? ok({ name, text: written.value })
      : err({ kind: 'no-chesslive', game, reason: written.error });
  }
  if (finished === undefined) return err({ kind: 'unknown-game', game });
  if (format === 'pgn') return ok({ name, text: finished.pgn });
  const parsed = parsePgn(finished.pgn);
  const written = parsed.ok && parsed.value[0] ? makeChessLive(parsed.value[0]) : null;
  return written === null || !written.ok
    ? err({ kind: 'no-chesslive', game })
    : ok({ name, text: written.value });
}

/** The PGN button of a live post: the game's PGN, or null once Kibitz no longer has the game. */
export async function livePgn(
  postId: number,
  services: Pick<PgnServices, 'relay'> & {
    readonly storage: { readonly livePosts: Pick<Services['storage']['livePosts'], 'get'> };
  },
): Promise<GameFile | null> {
  const post = Number.isSafeInteger(postId) ? await services.storage.livePosts.get(postId) : null;
  const snapshot = post === null ? undefined : services.relay.snapshot(post.game);
  return snapshot === undefined
    ? null
    : { name: `game-${snapshot.game}.pgn`, text: makeSnapshotPgn(snapshot) };
}
