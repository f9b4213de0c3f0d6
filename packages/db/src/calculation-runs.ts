import { arrayLiteral } from "./array-literal.ts";
import { type Database, poolOf } from "./database.ts";

/** The SQL behind bischeck:// calculations, which the worker runs on their schedules. */

export interface CalculationService {
  serviceId: string;
  organizationId: string;
  /** The organisation's time zone: cron schedules are read in it. */
  timeZone: string;
  host: string;
  service: string;
  schedules: string[];
  items: { name: string; seriesKey: string; execStatement: string }[];
}

/**
 * The bischeck:// calculations of every organisation's deployed version (schedules and
 * expressions as deployed; a saved edit runs once deployed). A run's lease is keyed by the
 * service's row, so a calculation whose service was deleted from the draft stops.
 */
export async function loadCalculationServices(db: Database): Promise<CalculationService[]> {
  // Two reads joined here rather than one SQL join by organisation, host and service name:
  // planned on statistics from before a new organisation's 30 000 hosts were imported, that join
  // ran for minutes in the worker (docs/scaling.md, "Eleventh round"), as a LATERAL probe per
  // item did too. Neither read below matches one table's names against another's; the second
  // reads only the services of organisations that run calculations.
  const deployed = await poolOf(db).query<{
    organization_id: string;
    time_zone: string;
    host: string;
    service: string;
    schedules: string[] | null;
    items: { name: string; seriesKey: string; execStatement: string }[];
  }>(
    `SELECT d.organization_id, o.time_zone, d.host, d.service, d.schedules,
            json_agg(json_build_object('name', d.item, 'seriesKey', d.series_key, 'execStatement', d.exec_statement) ORDER BY d.item) AS items
     FROM deployed_items d
     JOIN organizations o ON o.id = d.organization_id
     WHERE d.service_url LIKE 'bischeck://%'
     GROUP BY d.organization_id, o.time_zone, d.host, d.service, d.schedules`,
  );
  if (deployed.rows.length === 0) return [];
  const services = await poolOf(db).query<{ id: string; organization_id: string; host: string; service: string }>(
    `SELECT s.id, s.organization_id, h.name AS host, s.name AS service
     FROM services s JOIN hosts h ON h.id = s.host_id
     WHERE s.organization_id = ANY($1::uuid[])`,
    [[...new Set(deployed.rows.map((r) => r.organization_id))]],
  );
  const named = (r: { organization_id: string; host: string; service: string }) => `${r.organization_id}\0${r.host}\0${r.service}`;
  const serviceIds = new Map(services.rows.map((r) => [named(r), r.id]));
  return deployed.rows.flatMap((r) => {
    const serviceId = serviceIds.get(named(r));
    // A service deleted from the draft since it was deployed: its calculations stop.
    if (serviceId === undefined) return [];
    return [
      {
        serviceId,
        organizationId: r.organization_id,
        timeZone: r.time_zone,
        host: r.host,
        service: r.service,
        schedules: r.schedules ?? [],
        items: r.items,
      },
    ];
  });
}

export interface DueRun {
  organizationId: string;
  serviceId: string;
  dueAt: Date;
  /**
   * What the claiming worker read the organisation's calculations as (a digest): workers that read
   * the same share a due instant's claim; one that read a deployment another has not yet claims
   * the instant for its own calculations.
   */
  revision: string;
}

/**
 * How long a claim is kept: a claim of its organisation due that much later deletes it (counted
 * from due instants, not the database's clock, which a replayed history's instants are far from).
 */
const CLAIMS_KEPT = "1 hour";

/**
 * Claims due runs in one statement, as one claim per organisation, due instant and revision;
 * returns the runs of the claims won, as given. A claim is won by the first worker to make it,
 * and taken over only from a worker whose claim lapsed before it finished it. The organisation's
 * claims due an hour before the earliest of these are deleted on the way (never one of these: no
 * conflict with them), skipping those another worker is deleting. Claims are inserted in one
 * order (organisation, due instant, revision), so that two workers claiming the same instants
 * wait on each other, never in a cycle.
 *
 * A claim per run (a lease per service) wrote every run twice a tick, the claim and its finish:
 * at 3 000 jobs 3 000 rows each (docs/scaling.md, "Fifteenth round"). Across workers a run now
 * goes forward only as far as their clocks agree: a worker whose clock is behind by more than a
 * schedule's interval could make an earlier instant after another worker made a later one (a late
 * point), which a lease per service refused.
 */
export async function claimCalculationRuns<Run extends DueRun>(db: Database, runs: Run[], leaseMs: number): Promise<Run[]> {
  if (runs.length === 0) return [];
  const claims = claimsOf(runs);
  const { rows } = await poolOf(db).query<{ organization_id: string; due_ms: number; revision: string }>(
    `WITH input AS (SELECT o, d, r FROM unnest($1::uuid[], $2::float8[], $3::text[]) AS c(o, d, r)),
     expired AS (
       DELETE FROM calculation_claims WHERE ctid IN (
         SELECT c.ctid FROM calculation_claims c JOIN (SELECT o, min(d) AS d FROM input GROUP BY o) i
           ON c.organization_id = i.o AND c.due_at < to_timestamp(i.d / 1000) - interval '${CLAIMS_KEPT}'
         FOR UPDATE OF c SKIP LOCKED)
     ),
     won AS (
       INSERT INTO calculation_claims AS c (organization_id, due_at, revision, claimed_until)
       SELECT o, to_timestamp(d / 1000), r, now() + make_interval(secs => $4::float8 / 1000) FROM input ORDER BY o, d, r
       ON CONFLICT (organization_id, due_at, revision) DO UPDATE SET claimed_until = excluded.claimed_until
         WHERE c.finished_at IS NULL AND c.claimed_until < now()
       RETURNING organization_id, due_at, revision
     )
     SELECT i.o AS organization_id, i.d AS due_ms, i.r AS revision FROM input i
     WHERE NOT EXISTS (SELECT 1 FROM won w WHERE w.organization_id = i.o AND w.due_at = to_timestamp(i.d / 1000) AND w.revision = i.r)`,
    [...claimParams(claims), leaseMs],
  );
  if (rows.length === 0) return runs;
  const lost = new Set(rows.map((r) => claimKey(r.organization_id, r.due_ms, r.revision)));
  return runs.filter((r) => !lost.has(claimKey(r.organizationId, r.dueAt.getTime(), r.revision)));
}

interface Claim {
  organizationId: string;
  dueMs: number;
  revision: string;
}

const claimKey = (organizationId: string, dueMs: number, revision: string) => `${organizationId}@${dueMs}@${revision}`;
const keyOfRun = (r: DueRun) => claimKey(r.organizationId, r.dueAt.getTime(), r.revision);

/**
 * The distinct claims of `runs`, each with its key. A tick's runs come one organisation and due
 * instant after another (a few claims for thousands of runs): a run of the same claim as the one
 * before it is skipped without writing its key, which at 3 000 runs was a string and an object a run.
 */
function claimsOf(runs: DueRun[]): Map<string, Claim> {
  const claims = new Map<string, Claim>();
  let previous: DueRun | undefined;
  for (const r of runs) {
    const same =
      previous !== undefined &&
      r.organizationId === previous.organizationId &&
      r.revision === previous.revision &&
      r.dueAt.getTime() === previous.dueAt.getTime();
    previous = r;
    if (same) continue;
    const key = keyOfRun(r);
    if (!claims.has(key)) claims.set(key, { organizationId: r.organizationId, dueMs: r.dueAt.getTime(), revision: r.revision });
  }
  return claims;
}

/** The claims' organisations, due instants and revisions as three array parameters. */
function claimParams(claims: Map<string, Claim>): unknown[] {
  const list = [...claims.values()];
  return [
    arrayLiteral(list.map((c) => c.organizationId)),
    arrayLiteral(list.map((c) => c.dueMs)),
    arrayLiteral(list.map((c) => c.revision)),
  ];
}

/** A claimed run as it ended: error null when it was computed and its results stored. */
export type FinishedRun = DueRun & { error: string | null };

/** Records that the claims of `runs` ended, with the errors of the runs that failed: one statement, a row per claim. */
export async function finishCalculationRuns(db: Database, runs: FinishedRun[]): Promise<void> {
  if (runs.length === 0) return;
  const claims = claimsOf(runs);
  // By claim (in claims' order), its runs' errors by service.
  const errors = new Map<string, Record<string, string>>([...claims.keys()].map((key) => [key, {}]));
  for (const r of runs) if (r.error !== null) errors.get(keyOfRun(r))![r.serviceId] = r.error;
  await poolOf(db).query(
    `UPDATE calculation_claims c SET finished_at = now(), errors = f.e
     FROM unnest($1::uuid[], $2::float8[], $3::text[], $4::jsonb[]) AS f(o, d, r, e)
     WHERE c.organization_id = f.o AND c.due_at = to_timestamp(f.d / 1000) AND c.revision = f.r`,
    [
      ...claimParams(claims),
      arrayLiteral([...errors.values()].map((failed) => (Object.keys(failed).length > 0 ? JSON.stringify(failed) : null))),
    ],
  );
}
