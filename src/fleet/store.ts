// The fleet's statements on PostgreSQL: leases (who observes a game on FICS), the state of each
// game (its latest snapshot), and the notices that tell the other machines a game moved. Every
// method is one statement, one round trip.
import type pg from 'pg';
import type { FicsSnapshot, GameSnapshot } from '../game/snapshot.js';
import { parseGameNumber } from '../fics/validate.js';
import type { GameNumber } from '../protocol/game-number.js';

/** The channel of every notice; a payload is `<game> <seq> <server>`, far under the 8,000-byte limit. */
export const FLEET_CHANNEL = 'kibitz_fleet';

export interface FleetNotice {
  server: string;
  game: GameNumber;
  seq: number;
}

/** The other live processes of the bot's shared rate: how many, and their sums. */
export interface OtherRates {
  processes: number;
  /** Their static shares (each one's shards' part of the budget). */
  shares: number;
  /** Their demands (posts waiting for an edit, smoothed). */
  demand: number;
  /** What they pace at now, at most. */
  granted: number;
}

/** Serialises the rate share's renewals (any number; pg_advisory_xact_lock takes a bigint). */
const RATE_SHARE_LOCK = 0x72617465;

/**
 * A game's state as stored for the other machines. `saidList`: the stored key of the state whose
 * lines its own continue (a new holder carries them over: said-list.ts); absent, its lines are a
 * list of its own.
 */
export type StoredSnapshot = FicsSnapshot & { saidList?: string };

/**
 * A game's state as stored: under a key of its holder's. A tracker's key is the game's number and
 * a count of that process's games, so a new holder's first game under a number has the old
 * holder's key; a list of lines is named by its stored key, so a holder that did not continue the
 * old list is a new list to the readers (said-list.ts), not the old list cut short and grown again.
 */
function storedState(snapshot: GameSnapshot, holder: string): string {
  return JSON.stringify({ ...snapshot, key: `${snapshot.key}@${holder}` });
}

export interface GameRow {
  seq: number;
  snapshot: StoredSnapshot;
}

export class FleetStore {
  constructor(
    private readonly pool: pg.Pool,
    /** The FICS server the games are on (`host:port`): game numbers are per server. */
    readonly server: string,
    /** This process's name in the lease table. */
    readonly holder: string,
    /**
     * Connections for the lease statements alone: a renewal must not wait behind a burst of
     * moves being published, or the leases would expire under load.
     */
    private readonly leasePool: pg.Pool = pool,
  ) {}

  /**
   * Takes or renews the lease of each game for `ms`, in one statement: a lease is taken when it
   * is free, expired, or ours already (compare-and-set under the row's lock, so two machines never
   * both win). `unlessEnded` (a takeover, a post resumed after a restart): only games whose stored
   * state has not ended (a holder gives an ended game's lease back; nobody must observe the number
   * again for it). Resolves with the games held now.
   */
  async lease(games: readonly GameNumber[], ms: number, unlessEnded = false): Promise<Set<GameNumber>> {
    if (games.length === 0) return new Set();
    const result = await this.query<{ game: number }>(
      this.leasePool,
      `INSERT INTO fleet_leases AS l (server, game, holder, expires_at)
         SELECT $1, g, $2, clock_timestamp() + $3 * interval '1 millisecond' FROM unnest($4::int[]) AS g
         WHERE NOT $5 OR NOT EXISTS (SELECT 1 FROM fleet_games f WHERE f.server = $1 AND f.game = g AND f.ended)
       ON CONFLICT (server, game) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
         WHERE l.holder = EXCLUDED.holder OR l.expires_at < clock_timestamp()
       RETURNING game`,
      [this.server, this.holder, ms, games, unlessEnded],
    );
    // Numbers read back are checked again: only a game number reaches the pool.
    return new Set(
      result.rows.flatMap((row) => {
        const game = parseGameNumber(row.game);
        return game.ok ? [game.value] : [];
      }),
    );
  }

  /** Gives a lease back at once (the game is no longer wanted here, or is over). */
  async release(game: GameNumber): Promise<void> {
    await this.query(
      this.leasePool,
      'DELETE FROM fleet_leases WHERE server = $1 AND game = $2 AND holder = $3',
      [this.server, game, this.holder],
    );
  }

  /** Gives every lease of this process back (a clean stop: the others need not wait). */
  async releaseAll(): Promise<void> {
    await this.query(this.leasePool, 'DELETE FROM fleet_leases WHERE server = $1 AND holder = $2', [
      this.server,
      this.holder,
    ]);
  }

  /**
   * Stores a game's latest snapshot and tells every machine, in one statement, while this process
   * holds its lease; resolves with the new sequence number, or null when the lease is lost (another
   * machine took the game over: this one must stop publishing it).
   */
  async publish(snapshot: GameSnapshot): Promise<number | null> {
    const result = await this.query<{ seq: string }>(
      this.pool,
      `WITH held AS (
         SELECT 1 FROM fleet_leases WHERE server = $1 AND game = $2 AND holder = $3 FOR SHARE
       ), saved AS (
         INSERT INTO fleet_games AS s (server, game, seq, snapshot, ended)
           SELECT $1, $2, 1, $4::jsonb, $5 FROM held
         ON CONFLICT (server, game) DO UPDATE
           SET seq = s.seq + 1, snapshot = EXCLUDED.snapshot, ended = EXCLUDED.ended, updated_at = now()
         RETURNING seq
       )
       SELECT seq, pg_notify($6, $2 || ' ' || seq || ' ' || $1) FROM saved`,
      [
        this.server,
        snapshot.game,
        this.holder,
        storedState(snapshot, this.holder),
        snapshot.ended,
        FLEET_CHANNEL,
      ],
    );
    const row = result.rows[0];
    return row === undefined ? null : Number(row.seq);
  }

  /**
   * Stores the end of a game this process observed after its lease went to another process (it
   * was too late to renew): the end is kept unless the state shows another game or an end already.
   * Nobody observes a game after its end, so nothing can mix with it. Resolves with the sequence
   * number, or null when the state was not this game's any more.
   */
  async publishEnd(snapshot: GameSnapshot): Promise<number | null> {
    const result = await this.query<{ seq: string }>(
      this.pool,
      `WITH saved AS (
         UPDATE fleet_games SET seq = seq + 1, snapshot = $3::jsonb, ended = TRUE, updated_at = now()
         WHERE server = $1 AND game = $2 AND NOT ended
           AND snapshot->>'white' = $4 AND snapshot->>'black' = $5
         RETURNING seq
       )
       SELECT seq, pg_notify($6, $2 || ' ' || seq || ' ' || $1) FROM saved`,
      [
        this.server,
        snapshot.game,
        storedState(snapshot, this.holder),
        snapshot.white,
        snapshot.black,
        FLEET_CHANNEL,
      ],
    );
    const row = result.rows[0];
    return row === undefined ? null : Number(row.seq);
  }

  /**
   * Renews this process's row of the bot's shared rate until `now + ms` (`now`: the caller's
   * clock, ms since the epoch, so that expiry follows the clock the rate share runs on). Under one
   * lock for every process's renewal: reads the others' live rows, asks `decide` for this process's
   * grant, writes it and commits. `decide` runs before the commit, so a process that takes less
   * has slowed down before any other can read that it did.
   */
  async shareRate(
    mine: { demand: number; share: number },
    now: number,
    ms: number,
    decide: (others: OtherRates) => number,
  ): Promise<number> {
    const client = await this.leasePool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1)', [RATE_SHARE_LOCK]);
      const others = await client.query<{
        processes: string;
        shares: number;
        demand: number;
        granted: number;
      }>(
        `SELECT count(*) AS processes, coalesce(sum(share), 0) AS shares, coalesce(sum(demand), 0) AS demand,
           coalesce(sum(granted), 0) AS granted
         FROM rate_shares WHERE holder <> $1 AND expires_at > to_timestamp($2::float8 / 1000)`,
        [this.holder, now],
      );
      const row = others.rows[0]!;
      const granted = decide({
        processes: Number(row.processes),
        shares: Number(row.shares),
        demand: Number(row.demand),
        granted: Number(row.granted),
      });
      await client.query(
        `INSERT INTO rate_shares (holder, demand, share, granted, expires_at)
           VALUES ($1, $2::float8, $3::float8, $4::float8, to_timestamp(($5::float8 + $6::float8) / 1000))
         ON CONFLICT (holder) DO UPDATE SET demand = EXCLUDED.demand, share = EXCLUDED.share,
           granted = EXCLUDED.granted, expires_at = EXCLUDED.expires_at`,
        [this.holder, mine.demand, mine.share, granted, now, ms],
      );
      await client.query('COMMIT');
      return granted;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /** Takes this process's demand row away (a clean stop: the others share at once). */
  async dropDemand(): Promise<void> {
    await this.query(this.leasePool, 'DELETE FROM rate_shares WHERE holder = $1', [this.holder]);
  }

  /** A game's latest state, as published by whoever observed it last. */
  async read(game: GameNumber): Promise<GameRow | null> {
    const result = await this.query<{ seq: string; snapshot: StoredSnapshot }>(
      this.pool,
      'SELECT seq, snapshot FROM fleet_games WHERE server = $1 AND game = $2',
      [this.server, game],
    );
    const row = result.rows[0];
    return row === undefined ? null : { seq: Number(row.seq), snapshot: row.snapshot };
  }

  /** Forgets the state of games over for longer than `ms` (their posts had their final edit). */
  async prune(ms: number): Promise<void> {
    await this.query(
      this.pool,
      `DELETE FROM fleet_games WHERE server = $1 AND ended AND updated_at < now() - $2 * interval '1 millisecond'`,
      [this.server, ms],
    );
  }

  private query<R extends pg.QueryResultRow>(
    pool: pg.Pool,
    text: string,
    values: unknown[],
  ): Promise<pg.QueryResult<R>> {
    return pool.query<R>(text, values);
  }
}

/** Reads a notice's payload; null for anything else on the channel. */
export function parseNotice(payload: string | undefined): FleetNotice | null {
  const match = /^(\d{1,10}) (\d{1,18}) (\S{1,300})$/.exec(payload ?? '');
  const game = match === null ? null : parseGameNumber(match[1]);
  if (match === null || game === null || !game.ok) return null;
  return { game: game.value, seq: Number(match[2]), server: match[3]! };
}
