import type { IngestResponse } from "@tidemark/protocol";
import { arrayLiteral } from "./array-literal.ts";
import { type Database, poolOf } from "./database.ts";
import { type IngestInput, storeBatch } from "./ingest.ts";

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
}

/**
 * Claims due runs in one statement. A service's lease row holds its latest run: a later due
 * instant replaces it, and the same instant is taken over only from a worker whose lease lapsed
 * before it finished; so the first worker to claim a (service, due) runs it, and a run never
 * goes back to an earlier instant. A service given twice keeps its latest instant. Returns the
 * runs won, as given.
 *
 * The statement returns the runs lost instead of those won: none while one worker runs the
 * calculations. Sending every claimed run back (3 000 rows a tick at 3 000 jobs) had the worker
 * parse and match them all while its calculations waited.
 */
export async function claimCalculationRuns<Run extends DueRun>(db: Database, runs: Run[], leaseMs: number): Promise<Run[]> {
  if (runs.length === 0) return [];
  const { rows } = await poolOf(db).query<{ service_id: string; due_ms: number }>(
    `WITH input AS (SELECT o, s, d FROM unnest($1::uuid[], $2::uuid[], $3::float8[]) AS r(o, s, d)),
     won AS (
       INSERT INTO calculation_leases AS l (organization_id, service_id, due_at, claimed_until)
       SELECT DISTINCT ON (s) o, s, to_timestamp(d / 1000), now() + make_interval(secs => $4::float8 / 1000)
       FROM input ORDER BY s, d DESC
       ON CONFLICT (organization_id, service_id) DO UPDATE SET due_at = excluded.due_at, claimed_until = excluded.claimed_until, finished_at = NULL, error = NULL
         WHERE excluded.due_at > l.due_at OR (excluded.due_at = l.due_at AND l.finished_at IS NULL AND l.claimed_until < now())
       RETURNING service_id, due_at
     )
     SELECT i.s AS service_id, i.d AS due_ms FROM input i
     WHERE NOT EXISTS (SELECT 1 FROM won w WHERE w.service_id = i.s AND w.due_at = to_timestamp(i.d / 1000))`,
    [...runParams(runs), leaseMs],
  );
  if (rows.length === 0) return runs;
  const lost = new Set(rows.map((r) => `${r.service_id}@${r.due_ms}`));
  return runs.filter((r) => !lost.has(`${r.serviceId}@${r.dueAt.getTime()}`));
}

/**
 * A run's organisation, service and due instant as three array parameters: literals built in one
 * pass, instants as epoch milliseconds. node-postgres escaped each of a 3 000-run tick's elements
 * with two regular expressions and each instant went through toISOString; with the ingest's keys,
 * its array encoding was 6 of the 52 MB a 3 000-job cycle of the bench allocated.
 */
function runParams(runs: DueRun[]): unknown[] {
  return [
    arrayLiteral(runs.map((r) => r.organizationId)),
    arrayLiteral(runs.map((r) => r.serviceId)),
    arrayLiteral(runs.map((r) => r.dueAt.getTime())),
  ];
}

/** A claimed run as it ended: error null when its results were stored. */
export type FinishedRun = DueRun & { error: string | null };

/** The lease update recording how runs ended; a run already replaced by a later one is left alone. */
function finishStatement(param: (index: number) => string, condition = ""): string {
  return `UPDATE calculation_leases l SET finished_at = now(), error = r.e
     FROM unnest(${param(0)}::uuid[], ${param(1)}::uuid[], ${param(2)}::float8[], ${param(3)}::text[]) AS r(o, s, d, e)
     WHERE l.organization_id = r.o AND l.service_id = r.s AND l.due_at = to_timestamp(r.d / 1000) ${condition}`;
}

function finishParams(runs: FinishedRun[]): unknown[] {
  return [...runParams(runs), arrayLiteral(runs.map((r) => r.error))];
}

/** Records how claimed runs ended (error null: stored); a run already replaced by a later one is left alone. */
export async function finishCalculationRuns(db: Database, runs: FinishedRun[]): Promise<void> {
  if (runs.length === 0) return;
  await poolOf(db).query(
    finishStatement((index) => `$${index + 1}`),
    finishParams(runs),
  );
}

/**
 * Stores calculations' results through ingest (evaluated like any point) and records how their
 * runs ended in the same statement: one round trip, and a run is finished exactly when its
 * results are stored (a batch whose series did not resolve yet finishes nothing and goes again).
 */
export async function storeCalculationResults(db: Database, input: IngestInput, runs: FinishedRun[]): Promise<IngestResponse> {
  if (runs.length === 0) return storeBatch(db, input);
  return storeBatch(db, input, {
    name: "runs_finished",
    params: finishParams(runs),
    sql: (param) => finishStatement(param, "AND NOT EXISTS (SELECT 1 FROM unresolved)"),
  });
}
