import { matchesGlob } from "@tidemark/alerts";
import { splitSeriesKey } from "@tidemark/expr";
import type { State } from "@tidemark/thresholds";
import type { Database } from "./database.ts";

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

export interface TimelineAlert {
  id: string;
  seriesId: number;
  severity: State;
  peakSeverity: State;
  openedAt: number;
  closedAt: number | null;
  acknowledged: boolean;
  flapping: boolean;
}

export interface TimelineLane {
  seriesId: number;
  key: string;
  host: string;
  service: string;
  item: string;
}

/** A state change: the lane has `state` from `ts` until the lane's next change. */
export interface TimelineChange {
  seriesId: number;
  ts: number;
  state: State;
  hard: boolean;
}

export interface Timeline {
  lanes: TimelineLane[];
  alerts: TimelineAlert[];
  changes: TimelineChange[];
  /** More alerts than `maxAlerts` matched: the newest were kept. */
  truncated: boolean;
}

const asPattern = (text: string | null) => (text === null || text === "" ? null : text.includes("*") ? text : `*${text}*`);

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
  const { rows: alertRows } = await db.pool.query<{
    id: string;
    series_id: string;
    key: string;
    severity: State;
    peak_severity: State;
    opened_at: Date;
    closed_at: Date | null;
    acknowledged: boolean;
    flapping: boolean;
  }>(
    `SELECT a.id, a.series_id, s.key, a.severity, a.peak_severity, a.opened_at, a.closed_at,
            a.acknowledged_at IS NOT NULL AS acknowledged, a.flapping
     FROM alerts a JOIN series s ON s.id = a.series_id
     WHERE a.organization_id = $1 AND a.opened_at < $3 AND (a.closed_at IS NULL OR a.closed_at > $2)
       AND (cardinality($4::check_state[]) = 0 OR a.peak_severity = ANY($4::check_state[]))
       AND ($5::text = 'any' OR ($5 = 'open') = (a.closed_at IS NULL))
       AND ($6::bool IS NULL OR (a.acknowledged_at IS NOT NULL) = $6)
       AND ($7::bool IS NULL OR a.flapping = $7)
     ORDER BY a.opened_at DESC
     LIMIT $8`,
    [organizationId, window.from, window.to, filters.severities, filters.status, filters.acknowledged, filters.flapping, maxAlerts + 1],
  );
  const hostPattern = asPattern(filters.host);
  const servicePattern = asPattern(filters.service);
  const lanes = new Map<number, TimelineLane>();
  const alerts: TimelineAlert[] = [];
  for (const r of alertRows.slice(0, maxAlerts)) {
    const seriesId = Number(r.series_id);
    let lane = lanes.get(seriesId);
    if (!lane) {
      const names = splitSeriesKey(r.key) ?? { host: r.key, service: "", item: "" };
      lane = { seriesId, key: r.key, ...names };
      lanes.set(seriesId, lane);
    }
    if (hostPattern && !matchesGlob(hostPattern, lane.host)) continue;
    if (servicePattern && !matchesGlob(servicePattern, lane.service)) continue;
    alerts.push({
      id: r.id,
      seriesId,
      severity: r.severity,
      peakSeverity: r.peak_severity,
      openedAt: r.opened_at.getTime(),
      closedAt: r.closed_at?.getTime() ?? null,
      acknowledged: r.acknowledged,
      flapping: r.flapping,
    });
  }
  const shown = new Set(alerts.map((a) => a.seriesId));
  const laneList = [...lanes.values()].filter((l) => shown.has(l.seriesId)).sort((a, b) => a.key.localeCompare(b.key));
  const ids = laneList.map((l) => l.seriesId);
  const { rows: changeRows } = ids.length
    ? await db.pool.query<{ series_id: string; ts: Date; state: State; hard: boolean }>(
        `SELECT series_id, ts, state, hard FROM (
           SELECT c.series_id, c.ts, c.state, c.hard FROM state_changes c
           WHERE c.series_id = ANY($1::bigint[]) AND c.ts >= $2 AND c.ts < $3
           UNION ALL
           SELECT p.series_id, p.ts, p.state, p.hard FROM unnest($1::bigint[]) AS l(id)
           CROSS JOIN LATERAL (SELECT series_id, ts, state, hard FROM state_changes
                               WHERE series_id = l.id AND ts < $2 ORDER BY ts DESC LIMIT 1) p
         ) c ORDER BY series_id, ts LIMIT $4`,
        [ids, window.from, window.to, maxChanges],
      )
    : { rows: [] };
  return {
    lanes: laneList,
    alerts,
    changes: changeRows.map((c) => ({ seriesId: Number(c.series_id), ts: c.ts.getTime(), state: c.state, hard: c.hard })),
    truncated: alertRows.length > maxAlerts,
  };
}
