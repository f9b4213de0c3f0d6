import type { Database } from "@tidemark/db/client";
import { queryRows } from "@tidemark/db/testing";

/**
 * How far PostgreSQL's write-ahead log has been written, in bytes from its start: the difference
 * between two readings is the WAL the statements between them wrote (the whole server's, so only
 * meaningful while nothing else writes). It says whether a pipeline writes more than the rows it
 * stores need, which CPU figures cannot tell apart from the work around the writes.
 * `pg_stat_wal` would count records too, but a backend reports to it at most once a second, so
 * readings around a 60-ms statement see nothing. Null on the embedded server (single-user, in
 * this process), as its CPU figures are.
 */
export async function walPosition(db: Database): Promise<number | null> {
  if (db.info.embedded) return null;
  const [row] = await queryRows<{ bytes: number }>(db, `SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), '0/0')::float8 AS bytes`);
  return row?.bytes ?? null;
}
