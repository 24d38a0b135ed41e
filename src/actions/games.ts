// /games: the server's current games matching a filter, highest-rated player first.
import type { GamesListRow, GamesListType } from '../fics/games-list.js';

/** The `games` list's types, what `/games type:` filters by. */
export { GAMES_LIST_TYPES, type GamesListType } from '../fics/games-list.js';
import type { Handle } from '../protocol/handle.js';
import { err, ok, type Result } from '../result.js';
import { ficsDown, type FicsDown, type FicsFailed, type FicsServices } from './fics.js';
import type { Services } from './services.js';

/** Games shown at most (a Discord select menu takes 25 options; 20 rows fit an embed). */
export const SHOWN_GAMES = 20;

export interface GamesInput {
  readonly type: GamesListType | null;
  readonly rated: boolean | null;
  readonly player: Handle | null;
}

export interface GamesShown {
  /** At most SHOWN_GAMES, highest-rated player first. */
  readonly rows: readonly GamesListRow[];
  /** How many games matched. */
  readonly total: number;
}

export type GamesError = FicsDown | FicsFailed | { readonly kind: 'no-games' };

export type GamesServices = FicsServices & { readonly fics: Pick<Services['fics'], 'listGames'> };

/** Higher of the two ratings; unrated players count as 0. */
function topRating(row: GamesListRow): number {
  return Math.max(Number(row.whiteRating) || 0, Number(row.blackRating) || 0);
}

export async function listGames(
  input: GamesInput,
  services: GamesServices,
): Promise<Result<GamesShown, GamesError>> {
  const down = await ficsDown(services);
  if (down !== null) return err(down);
  let rows: GamesListRow[];
  try {
    rows = await services.fics.listGames({
      ...(input.type === null ? {} : { types: [input.type] }),
      ...(input.rated === null ? {} : { rated: input.rated }),
      ...(input.player === null ? {} : { player: input.player }),
    });
  } catch (error) {
    return err({ kind: 'fics-failed', error });
  }
  if (rows.length === 0) return err({ kind: 'no-games' });
  const shown = [...rows].sort((a, b) => topRating(b) - topRating(a)).slice(0, SHOWN_GAMES);
  return ok({ rows: shown, total: rows.length });
}
