import { type Database, poolOf } from "./database.ts";

/**
 * Revisions of the configuration the worker holds: it reads its evaluated items, calculations and
 * freshness items again only when one changed. Each is a count of configuration changes, kept by
 * triggers (migration 20261128200000_configuration_changes): every statement that adds, edits or
 * removes a host, service, item, deployed item, an agent (its name or revocation) or an
 * organisation (its time zone) adds one row to `configuration_changes` for each organisation it
 * touched. A count only grows, whatever order the changes commit in, so an edit is never missed;
 * a look reads one small table instead of hashing every configuration row (it did until issue 22's
 * sixteenth round: 23-62 ms of PostgreSQL a look at 30 000 jobs).
 */

/** The number of configuration changes an organisation has committed, as text. */
export function configurationRevision(db: Database, organizationId: string): Promise<string> {
  return committedChanges(db, organizationId);
}

/** The number of configuration changes every organisation has committed, as text: the worker's calculations and freshness watch serve them all. */
export function deployedConfigurationRevision(db: Database): Promise<string> {
  return committedChanges(db, null);
}

/**
 * SQL for the revision as text: of the organisation whose id is the parameter `organization`
 * (e.g. `$1`), or of all (null). Statements that must only write while a revision holds (the
 * ingest of series resolved under it) compare with it in their own snapshot.
 */
export function revisionSql(organization: string | null): string {
  const where = organization === null ? "" : ` WHERE organization_id = ${organization}`;
  return `(coalesce((SELECT sum(changes) FROM configuration_change_counts${where}), 0)
             + (SELECT count(*) FROM configuration_changes${where}))::text`;
}

/** The changes folded into the counts plus those not folded yet: of one organisation, or of all (null). */
async function committedChanges(db: Database, organizationId: string | null): Promise<string> {
  const { rows } = await poolOf(db).query<{ rev: string }>(
    `SELECT ${revisionSql(organizationId === null ? null : "$1")} AS rev`,
    organizationId === null ? [] : [organizationId],
  );
  return rows[0]?.rev ?? "";
}

/** Rows of `configuration_changes` older than this are folded into their organisation's count. */
export const CONFIGURATION_CHANGES_KEPT_MS = 60_000;

/**
 * Folds the changes older than `keptMs` into `configuration_change_counts`, one statement that
 * deletes the rows and adds them to the counts, so every revision reads the same before and after.
 * One worker folds at a time (the others skip): two deleting the same rows in different orders
 * could deadlock. Returns the number of rows folded.
 */
export async function foldConfigurationChanges(db: Database, keptMs = CONFIGURATION_CHANGES_KEPT_MS): Promise<number> {
  if (!Number.isSafeInteger(keptMs) || keptMs < 0) throw new Error(`not a duration: ${keptMs}`);
  const { rows } = await poolOf(db).query<{ folded: string }>(
    `WITH folding AS (
       SELECT pg_try_advisory_xact_lock(hashtextextended('tidemark.configuration_changes.fold', 0)) AS mine
     ), folded AS (
       DELETE FROM configuration_changes
       WHERE (SELECT mine FROM folding) AND changed_at < now() - make_interval(secs => $1::float8 / 1000)
       RETURNING organization_id
     ), counted AS (
       INSERT INTO configuration_change_counts (organization_id, changes)
       SELECT organization_id, count(*) FROM folded GROUP BY organization_id
       ON CONFLICT (organization_id) DO UPDATE SET changes = configuration_change_counts.changes + excluded.changes
     )
     SELECT count(*)::text AS folded FROM folded`,
    [keptMs],
  );
  return Number(rows[0]?.folded ?? 0);
}
