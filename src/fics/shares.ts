// Who holds which observed game, and how much of the pool's capacity each holder may take. A
// holder is an opaque name (the bot uses Discord server ids); a game held by several holders is
// observed once and counts once for each of them. The rule, for a holder asking for one more:
//
//   limit = min(its own limit, max(1, floor(capacity / (active + 1))))
//
// where `active` counts the holders that hold or wait for a game, the one asking included. The
// `+ 1` keeps one share free for a holder that has none yet: a server that follows sixty players
// cannot take every place, and the next server to ask still finds one. Nothing is taken back from
// a holder above its share (a live post is never stopped to make room); it gets nothing more
// until it is under its share again, and places freed meanwhile go to the holders that wait.

export interface ShareOptions {
  /** A holder's own ceiling (the bot: the server's live-game limit); unlimited when omitted. */
  limitOf?: (holder: string) => number;
}

/** A place taken before its game is known; settling again does nothing. */
export interface Reservation {
  settle(game: number | null): void;
}

export class Shares {
  private readonly byGame = new Map<number, Set<string>>();
  private readonly byHolder = new Map<string, Set<number>>();
  /** Places taken for games not known yet (an observe by handle on its way). */
  private readonly reserved = new Map<string, number>();

  constructor(private readonly options: ShareOptions = {}) {}

  /** Games a holder holds, plus its reservations. */
  holdings(holder: string): number {
    return (this.byHolder.get(holder)?.size ?? 0) + (this.reserved.get(holder) ?? 0);
  }

  holds(holder: string, game: number): boolean {
    return this.byGame.get(game)?.has(holder) ?? false;
  }

  holders(game: number): string[] {
    return [...(this.byGame.get(game) ?? [])];
  }

  /** The most a holder may hold now; `waiting` = holders waiting for a place. */
  limit(holder: string, capacity: number, waiting: Iterable<string>): number {
    const active = new Set([holder, ...waiting]);
    for (const [other, games] of this.byHolder) if (games.size > 0) active.add(other);
    for (const [other, count] of this.reserved) if (count > 0) active.add(other);
    const share = Math.max(1, Math.floor(capacity / (active.size + 1)));
    return Math.min(this.options.limitOf?.(holder) ?? Infinity, share);
  }

  hasRoom(holder: string, capacity: number, waiting: Iterable<string>): boolean {
    return this.holdings(holder) < this.limit(holder, capacity, waiting);
  }

  claim(holder: string, game: number): void {
    let holders = this.byGame.get(game);
    if (holders === undefined) this.byGame.set(game, (holders = new Set()));
    holders.add(holder);
    let games = this.byHolder.get(holder);
    if (games === undefined) this.byHolder.set(holder, (games = new Set()));
    games.add(game);
  }

  /** Takes a place before the game is known; `settle` turns it into a claim, or gives it back. */
  reserve(holder: string): Reservation {
    this.reserved.set(holder, (this.reserved.get(holder) ?? 0) + 1);
    let settled = false;
    return {
      settle: (game) => {
        if (settled) return;
        settled = true;
        const left = (this.reserved.get(holder) ?? 1) - 1;
        if (left > 0) this.reserved.set(holder, left);
        else this.reserved.delete(holder);
        if (game !== null) this.claim(holder, game);
      },
    };
  }

  /** Drops one holder's claim; returns how many holders the game has left. */
  release(holder: string, game: number): number {
    const holders = this.byGame.get(game);
    holders?.delete(holder);
    const games = this.byHolder.get(holder);
    games?.delete(game);
    if (games?.size === 0) this.byHolder.delete(holder);
    if (holders?.size === 0) this.byGame.delete(game);
    return holders?.size ?? 0;
  }

  /** The game is no longer observed: nobody holds it. */
  drop(game: number): void {
    for (const holder of this.holders(game)) this.release(holder, game);
  }
}
