// PGN of a game snapshot: standard tags, the moves with clock comments, result. chessops writes
// the movetext (numbering, wrapping, escaping).
import { makeFen } from 'chessops/fen';
import { defaultGame, extend, makeComment, makePgn, type PgnNodeData } from 'chessops/pgn';
import { cleanText } from '../text.js';
import { startPosition } from './position.js';
import type { GameSnapshot } from './snapshot.js';
import { pgnVariantHeader } from './variants.js';

export interface PgnOptions {
  site?: string;
  /** Date the game was played (defaults to today). */
  date?: Date;
}

export function toPgn(game: GameSnapshot, options: PgnOptions = {}): string {
  const date = options.date ?? new Date();
  const headers = new Map<string, string>([
    [
      'Event',
      game.source === null
        ? `FICS ${game.rated ? 'rated' : 'unrated'} ${game.type ?? game.variant} game`
        : game.source,
    ],
    // The server actually used; `?` (PGN's unknown) for a transcript read from a file.
    ['Site', options.site ?? (game.source === null ? (game.server ?? '?') : 'ChessLive!')],
    ['Date', date.toISOString().slice(0, 10).replace(/-/g, '.')],
    ['Round', '-'],
    ['White', game.white],
    ['Black', game.black],
    ['Result', game.result],
  ]);
  if (game.whiteRating !== null && /^\d+$/.test(game.whiteRating)) headers.set('WhiteElo', game.whiteRating);
  if (game.blackRating !== null && /^\d+$/.test(game.blackRating)) headers.set('BlackElo', game.blackRating);
  if (game.initialMinutes !== null && game.incrementSec !== null) {
    headers.set('TimeControl', `${game.initialMinutes * 60}+${game.incrementSec}`);
  }
  const variant = pgnVariantHeader(game.variant);
  if (variant !== null) headers.set('Variant', variant);
  if (game.startFen !== makeFen(startPosition(game.variant).toSetup()) || !game.complete) {
    headers.set('SetUp', '1');
    headers.set('FEN', game.startFen);
  }
  if (game.reason !== null) headers.set('Termination', game.reason);
  // Names and reasons come from a server or a file: a line break in a tag would end the header.
  for (const [tag, value] of headers) headers.set(tag, cleanText(value));
  const pgn = defaultGame<PgnNodeData>(() => headers);
  extend(
    pgn.moves,
    game.san.map((san, i) => {
      const clock = game.clocksMs[i];
      return {
        san,
        comments: clock == null ? undefined : [makeComment({ clock: Math.max(0, clock) / 1000 })],
      };
    }),
  );
  return makePgn(pgn);
}
