import { shownLanes, stateOfLetter, type Timeline, timelineLanes } from "@tidemark/alerts";
import type { State } from "@tidemark/thresholds";
import { type Database, poolOf } from "./database.ts";

export interface TimelineFilters {
  /** Peak severities to show; all when empty. */
  severities: State[];
  status: "any" | "open" | "closed";
  /** Glob on the host name; text without `*` matches anywhere in the name. */
  host: string | null;
  service: string | null;
  acknowledged: boolean | null;
  flapping: boolean | null;
}

/** Columns of the alerts query; each is null when no alert matched. */
interface AlertColumns {
  id: string[] | null;
  series: number[];
  severity: string;
  peak: string;
  opened: number[];
  closed: (number | null)[];
  acknowledged: string;
  flapping: string;
}

/** Columns of the state changes query; each is null when there were none. */
interface ChangeColumns {
  series: number[] | null;
  ts: number[];
  state: string;
  hard: string;
}

/**
 * Alerts overlapping [from, to) with the filters applied, one lane per series that has any, and
 * those series' state changes in the window (plus the state each lane entered the window with),
 * as numbers rather than objects of dates: this is the payload that must stay fast at 10 000 alerts.
 */
export async function alertTimeline(
  db: Database,
  organizationId: string,
  window: { from: Date; to: Date },
  filters: TimelineFilters,
  opts: { maxAlerts?: number; maxChanges?: number } = {},
): Promise<Timeline> {
  const maxAlerts = opts.maxAlerts ?? 20_000;
  const maxChanges = opts.maxChanges ?? 200_000;
  // The window's series first (few), so that host and service filters cut the alerts fetched.
  const { rows: seriesRows } = await poolOf(db).query<{ id: string; key: string }>(
    `SELECT s.id, s.key FROM series s
     WHERE s.organization_id = $1 AND EXISTS (
       SELECT 1 FROM alerts a WHERE a.series_id = s.id AND a.opened_at < $3 AND (a.closed_at IS NULL OR a.closed_at > $2))`,
    [organizationId, window.from, window.to],
  );
  const candidates = timelineLanes(
    seriesRows.map((r) => ({ seriesId: Number(r.id), key: r.key })),
    filters,
  );
  if (candidates.size === 0) return { lanes: [], alerts: [], changes: [], truncated: false };
  // Each query answers one JSON object of columns (times as epoch milliseconds, states as their
  // first letter), not a row or a JSON array per alert: at 10 000 alerts and 25 000 changes,
  // building and shipping per-row values costs twice what finding them does. The aggregates read
  // the ordered, limited subquery in one pass, so the columns line up and keep its order.
  const { rows: alertRows } = await poolOf(db).query<{ columns: AlertColumns }>(
    `SELECT json_build_object(
       'id', json_agg(id), 'series', json_agg(series_id),
       'severity', string_agg(left(severity::text, 1), ''), 'peak', string_agg(left(peak_severity::text, 1), ''),
       'opened', json_agg(opened_ms), 'closed', json_agg(closed_ms),
       'acknowledged', string_agg(CASE WHEN acknowledged THEN '1' ELSE '0' END, ''),
       'flapping', string_agg(CASE WHEN flapping THEN '1' ELSE '0' END, '')) AS columns
     FROM (SELECT a.id, a.series_id, a.severity, a.peak_severity,
                  (extract(epoch FROM a.opened_at) * 1000)::bigint AS opened_ms, (extract(epoch FROM a.closed_at) * 1000)::bigint AS closed_ms,
                  a.acknowledged_at IS NOT NULL AS acknowledged, a.flapping
           FROM alerts a
           WHERE a.organization_id = $1 AND a.series_id = ANY($9::bigint[]) AND a.opened_at < $3 AND (a.closed_at IS NULL OR a.closed_at > $2)
             AND (cardinality($4::check_state[]) = 0 OR a.peak_severity = ANY($4::check_state[]))
             AND ($5::text = 'any' OR ($5 = 'open') = (a.closed_at IS NULL))
             AND ($6::bool IS NULL OR (a.acknowledged_at IS NOT NULL) = $6)
             AND ($7::bool IS NULL OR a.flapping = $7)
           ORDER BY a.opened_at DESC
           LIMIT $8) a`,
    [
      organizationId,
      window.from,
      window.to,
      filters.severities,
      filters.status,
      filters.acknowledged,
      filters.flapping,
      maxAlerts + 1,
      [...candidates.keys()],
    ],
  );
  const a = alertRows[0]?.columns;
  const matched = a?.id?.length ?? 0;
  const alerts = a?.id
    ? a.id.slice(0, maxAlerts).map((id, i) => ({
        id,
        seriesId: Number(a.series[i]),
        severity: stateOfLetter(a.severity[i] as string),
        peakSeverity: stateOfLetter(a.peak[i] as string),
        openedAt: a.opened[i] as number,
        closedAt: a.closed[i] ?? null,
        acknowledged: a.acknowledged[i] === "1",
        flapping: a.flapping[i] === "1",
      }))
    : [];
  const laneList = shownLanes(candidates, alerts);
  if (laneList.length === 0) return { lanes: [], alerts: [], changes: [], truncated: false };
  const { rows: changeRows } = await poolOf(db).query<{ columns: ChangeColumns }>(
    `SELECT json_build_object(
       'series', json_agg(series_id), 'ts', json_agg((extract(epoch FROM ts) * 1000)::bigint),
       'state', string_agg(left(state::text, 1), ''), 'hard', string_agg(CASE WHEN hard THEN '1' ELSE '0' END, '')) AS columns
     FROM (
       SELECT series_id, ts, state, hard FROM (
         SELECT c.series_id, c.ts, c.state, c.hard FROM state_changes c
         WHERE c.series_id = ANY($1::bigint[]) AND c.ts >= $2 AND c.ts < $3
         UNION ALL
         SELECT p.series_id, p.ts, p.state, p.hard FROM unnest($1::bigint[]) AS l(id)
         CROSS JOIN LATERAL (SELECT series_id, ts, state, hard FROM state_changes
                             WHERE series_id = l.id AND ts < $2 ORDER BY ts DESC LIMIT 1) p
       ) c ORDER BY series_id, ts LIMIT $4) c`,
    [laneList.map((l) => l.seriesId), window.from, window.to, maxChanges],
  );
  const c = changeRows[0]?.columns;
  return {
    lanes: laneList,
    alerts,
    changes: c?.series
      ? c.series.map((seriesId, i) => ({
          seriesId: Number(seriesId),
          ts: c.ts[i] as number,
          state: stateOfLetter(c.state[i] as string),
          hard: c.hard[i] === "1",
        }))
      : [],
    truncated: matched > maxAlerts,
  };
}
