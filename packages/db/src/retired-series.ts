import { type RetiredSeries, retiredSeriesAction, retirementOutcome, retirementRuns } from "@tidemark/alerts";
import type pg from "pg";
import { type ApplyEvaluationsOptions, loadAlertMemory, planRunsNotifications } from "./alert-state.ts";
import { type Database, poolOf } from "./database.ts";
import { addForgetEvaluators, beginOrganizationEvaluation } from "./evaluation.ts";
import { organizationParam, WriteStatement } from "./write-statement.ts";

/**
 * Series the configuration stopped evaluating (retired_series): what to retire is the deployment's
 * and the revocation's to say, in their own transactions; the worker closes the alerts left open
 * on them (closeRetiredAlerts). What a retired series' alert does is @tidemark/alerts' retirement.
 */

/**
 * Retires the organisation's series of these keys (those that exist), in the caller's
 * transaction, and makes the organisation's evaluators forget what they remember when any was:
 * their next batch reads the alert memory again, which leaves retired series out.
 */
export async function retireSeries(client: pg.ClientBase, organizationId: string, keys: readonly string[], reason: string): Promise<void> {
  if (keys.length === 0) return;
  const statement = new WriteStatement();
  const organization = organizationParam(statement, organizationId);
  statement.with(
    "retired",
    `INSERT INTO retired_series (organization_id, series_id, reason)
     SELECT ${organization}, s.id, ${statement.param(reason, "text")} FROM series s
     WHERE s.organization_id = ${organization} AND s.key = ANY(${statement.param(keys, "text[]")})
     ON CONFLICT (organization_id, series_id) DO UPDATE SET reason = excluded.reason, retired_at = excluded.retired_at
     RETURNING 1`,
  );
  addForgetEvaluators(statement, organizationId, "retired");
  await statement.run(client);
}

/**
 * The worker's look at the retired series of every organisation: their open alerts closed (with
 * the resolution queued for the receivers their firing went to), the series deployed again or
 * retired long enough (RETIRED_SERIES_KEPT_MS) forgotten. Cheap when nothing is retired (one read
 * of an empty table). The alerts are closed under the organisation's evaluation lock, as the
 * evaluator decides them. Returns how many were closed.
 */
export async function closeRetiredAlerts(
  db: Database,
  options: Pick<ApplyEvaluationsOptions, "externalUrl"> & { now?: Date } = {},
): Promise<number> {
  const now = options.now ?? new Date();
  const { rows } = await poolOf(db).query<{
    organization_id: string;
    series_id: number;
    retired_at: Date;
    watched: boolean;
    alert_open: boolean;
  }>(
    `SELECT r.organization_id, r.series_id::float8 AS series_id, r.retired_at,
            EXISTS (SELECT 1 FROM deployed_items d WHERE d.organization_id = r.organization_id AND d.series_key = s.key) AS watched,
            EXISTS (SELECT 1 FROM alerts a WHERE a.series_id = r.series_id AND a.closed_at IS NULL) AS alert_open
     FROM retired_series r JOIN series s ON s.organization_id = r.organization_id AND s.id = r.series_id`,
  );
  const toClose = new Map<string, number[]>();
  const toForget: typeof rows = [];
  for (const r of rows) {
    const action = retiredSeriesAction({
      watched: r.watched,
      alertOpen: r.alert_open,
      retiredAt: r.retired_at.getTime(),
      now: now.getTime(),
    });
    if (action === "forget") toForget.push(r);
    else if (action === "close") {
      const ids = toClose.get(r.organization_id);
      if (ids) ids.push(r.series_id);
      else toClose.set(r.organization_id, [r.series_id]);
    }
  }
  let closed = 0;
  for (const [organizationId, seriesIds] of toClose)
    closed += await closeOrganizationRetiredAlerts(db, organizationId, seriesIds, now, options);
  if (toForget.length > 0) {
    // As read: a series retired again meanwhile (a later retired_at) stays.
    await poolOf(db).query(
      `DELETE FROM retired_series r USING unnest($1::uuid[], $2::bigint[], $3::float8[]) AS f(organization_id, series_id, retired_ms)
       WHERE r.organization_id = f.organization_id AND r.series_id = f.series_id
         AND r.retired_at <= to_timestamp(f.retired_ms / 1000)`,
      [toForget.map((r) => r.organization_id), toForget.map((r) => r.series_id), toForget.map((r) => r.retired_at.getTime())],
    );
  }
  return closed;
}

/** Closes the open alerts of the organisation's retired series among `seriesIds`, as they stand under the lock. */
async function closeOrganizationRetiredAlerts(
  db: Database,
  organizationId: string,
  seriesIds: number[],
  now: Date,
  options: Pick<ApplyEvaluationsOptions, "externalUrl">,
): Promise<number> {
  const writes = await beginOrganizationEvaluation(db, organizationId);
  try {
    const client = writes.transaction;
    const { rows } = await client.query<{ series_id: number; reason: string }>(
      `SELECT r.series_id::float8 AS series_id, r.reason FROM retired_series r JOIN series s ON s.organization_id = r.organization_id AND s.id = r.series_id
       WHERE r.organization_id = $1 AND r.series_id = ANY($2::bigint[])
         AND NOT EXISTS (SELECT 1 FROM deployed_items d WHERE d.organization_id = s.organization_id AND d.series_key = s.key)`,
      [organizationId, seriesIds],
    );
    const memory = await loadAlertMemory(
      client,
      organizationId,
      rows.map((r) => r.series_id),
      "include",
    );
    const retired: RetiredSeries[] = rows.flatMap((r) => {
      const before = memory.get(r.series_id);
      return before ? [{ memory: before, outcome: retirementOutcome(r.series_id, before.key, now, r.reason) }] : [];
    });
    const statement = new WriteStatement();
    const { summary } = await planRunsNotifications(client, organizationId, retirementRuns(retired), statement, options);
    addForgetEvaluators(statement, organizationId);
    writes.send(statement);
    await writes.commit();
    return summary.closed;
  } catch (error) {
    await writes.rollback();
    throw error;
  }
}
