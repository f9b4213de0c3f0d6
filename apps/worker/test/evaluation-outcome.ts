import type { Database } from "@tidemark/db/client";
import { queryRows } from "@tidemark/db/testing";

/** What evaluating an organisation's queued points left in the database, without ids (to compare two runs). */
export async function evaluationOutcome(db: Database, org: string) {
  const query = async (sql: string) => await queryRows(db, sql, [org]);
  return {
    states: await query(
      `SELECT s.key, i.ts, i.state, i.hard_state, i.soft_count FROM item_states i JOIN series s ON s.id = i.series_id
       WHERE s.organization_id = $1 ORDER BY s.key`,
    ),
    changes: await query(
      `SELECT s.key, c.ts, c.state, c.hard, c.explanation FROM state_changes c JOIN series s ON s.id = c.series_id
       WHERE s.organization_id = $1 ORDER BY s.key, c.ts`,
    ),
    alerts: await query(
      `SELECT s.key, a.severity, a.peak_severity, a.opened_at, a.closed_at, a.explanation FROM alerts a JOIN series s ON s.id = a.series_id
       WHERE a.organization_id = $1 ORDER BY s.key, a.opened_at`,
    ),
    events: await query(
      `SELECT s.key, e.ts, e.kind, e.severity, e.detail FROM alert_events e JOIN alerts a ON a.id = e.alert_id JOIN series s ON s.id = a.series_id
       WHERE a.organization_id = $1 ORDER BY s.key, e.ts, e.kind`,
    ),
    queued: await query(`SELECT coalesce(sum(cardinality(series_ids)), 0)::int AS n FROM evaluation_queue WHERE organization_id = $1`),
  };
}
