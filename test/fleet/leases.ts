// Leases run on the database's clock: a test moves a lease's end instead of waiting for it.
import type { Pool } from 'pg';

/**
 * Moves the end of a game's lease, or of every lease of a holder, to `ms` from now on the
 * database's clock (by default just past: ended).
 */
export function moveLeaseEnd(
  db: Pool,
  lease: { game: number } | { holder: string },
  ms = -1,
): Promise<unknown> {
  const [column, value] = 'game' in lease ? ['game', lease.game] : ['holder', lease.holder];
  return db.query(
    `UPDATE fleet_leases SET expires_at = clock_timestamp() + $2 * interval '1 millisecond' WHERE ${column} = $1`,
    [value, ms],
  );
}
