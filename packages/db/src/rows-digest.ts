/**
 * A digest of the rows a revision watches, as one SQL scalar subquery: how many there are and the
 * sum of a 64-bit hash of each row's uuid `id` seeded with its `version` column (the instant it
 * was last edited, in milliseconds; null counts as 0; none: the id alone). Any row added, removed
 * or edited changes it, whatever order the edits commit in.
 *
 * `max(updated_at)` in its place could miss an edit: `updated_at` is the time the editing
 * transaction started (or the editing process's clock), not when it committed, so a transaction
 * that began before another committed after the other was seen commits an older time, and the
 * count stays the same (packages/db/test/configuration-revision.int.test.ts). The hash and the sum
 * cost PostgreSQL 3.5 ms against 2.1 ms for an organisation's 6 000 items; hashing the id and the
 * instant as text cost 4.0 ms, whole rows as text 17–27 ms.
 */
export function rowsDigest(table: string, version: string | null, where?: string): string {
  const seed = version === null ? "0" : `coalesce((extract(epoch FROM ${version}) * 1000)::bigint, 0)`;
  return `(SELECT count(*) || '/' || coalesce(sum(uuid_hash_extended(id, ${seed})), 0) FROM ${table}${where ? ` WHERE ${where}` : ""})`;
}
