import { randomUUID } from "node:crypto";
import {
  type AlertSettings,
  type AlertStep,
  type AlertTrack,
  alertmanagerPayload,
  DEFAULT_ALERT_SETTINGS,
  EMPTY_TRACK,
  type EvaluationOutcome,
  runAlertMachine,
  type SilenceWindow,
  silenceCovers,
  silenceMatchersSchema,
} from "@tidemark/alerts";
import type { State } from "@tidemark/thresholds";
import type pg from "pg";
import type { Database } from "./database.ts";
import { beginUnderEvaluationLock } from "./evaluation.ts";

/**
 * From evaluated results to alerts and queued notifications, in a fixed number of statements
 * whatever the batch size: one read of every touched series' settings, track and open alert, one
 * of the silences and webhooks, then one statement per table written. Two workers never decide on
 * the same series at once: every caller holds the organisation's evaluation lock.
 */

const STATE_LETTER: Record<State, string> = { OK: "O", WARNING: "W", CRITICAL: "C", UNKNOWN: "U" };
const LETTER_STATE: Record<string, State> = { O: "OK", W: "WARNING", C: "CRITICAL", U: "UNKNOWN" };

interface SeriesRow {
  id: number;
  key: string;
  recovery_margin: number | null;
  min_duration_seconds: number | null;
  recent_states: string | null;
  flapping: boolean | null;
  recovering_since: Date | null;
  last_ts: Date | null;
  alert_id: string | null;
  severity: State | null;
  peak_severity: State | null;
  opened_at: Date | null;
  alert_flapping: boolean | null;
  acknowledged_at: Date | null;
  notified_at: Date | null;
}

/** An alert as it stands after the batch: inserted when new, updated otherwise. */
interface AlertRow {
  id: string;
  isNew: boolean;
  seriesId: number;
  key: string;
  severity: State;
  peakSeverity: State;
  openedAt: Date;
  closedAt: Date | null;
  flapping: boolean;
  acknowledged: boolean;
  notifiedAt: Date | null;
  opening: EvaluationOutcome | null;
}

interface EventRow {
  alertId: string;
  ts: Date;
  kind: string;
  severity: State;
  outcome: EvaluationOutcome | null;
  detail: string;
}

interface DeliveryRow {
  webhookId: string;
  alertId: string;
  payload: unknown;
}

export interface ApplyEvaluationsOptions {
  /** The dashboard's public URL, for the webhook payload's links. */
  externalUrl?: string;
}

export interface ApplyEvaluationsSummary {
  opened: number;
  closed: number;
  events: number;
  deliveries: number;
}

function trackFrom(row: SeriesRow): AlertTrack {
  const open =
    row.alert_id && row.severity && row.peak_severity && row.opened_at
      ? { severity: row.severity, peakSeverity: row.peak_severity, openedAt: row.opened_at, flapping: row.alert_flapping ?? false }
      : null;
  if (row.recent_states === null || row.last_ts === null) return { ...EMPTY_TRACK, open };
  return {
    recentStates: [...row.recent_states].map((c) => LETTER_STATE[c] ?? "UNKNOWN"),
    flapping: row.flapping ?? false,
    recoveringSince: row.recovering_since,
    lastTs: row.last_ts,
    open,
  };
}

function settingsFrom(row: SeriesRow): AlertSettings {
  return {
    ...DEFAULT_ALERT_SETTINGS,
    recoveryMarginPercent: row.recovery_margin ?? 0,
    minimumDurationMs: (row.min_duration_seconds ?? 0) * 1000,
  };
}

async function loadSeries(client: pg.ClientBase, organizationId: string, seriesIds: number[]): Promise<SeriesRow[]> {
  const { rows } = await client.query<SeriesRow>(
    `SELECT s.id, s.key, i.alert_recovery_margin AS recovery_margin, i.alert_min_duration_seconds AS min_duration_seconds,
            t.recent_states, t.flapping, t.recovering_since, t.last_ts,
            a.id AS alert_id, a.severity, a.peak_severity, a.opened_at, a.flapping AS alert_flapping, a.acknowledged_at, a.notified_at
     FROM series s
     LEFT JOIN service_items i ON i.organization_id = s.organization_id AND i.series_key = s.key
     LEFT JOIN alert_tracks t ON t.series_id = s.id
     LEFT JOIN alerts a ON a.series_id = s.id AND a.closed_at IS NULL
     WHERE s.organization_id = $1 AND s.id = ANY($2::bigint[])
     ORDER BY s.id`,
    [organizationId, seriesIds],
  );
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

async function loadNotificationTargets(client: pg.ClientBase, organizationId: string, from: Date, to: Date) {
  const { rows } = await client.query<{
    kind: "silence" | "webhook";
    id: string;
    name: string | null;
    matchers: unknown;
    starts_at: Date | null;
    ends_at: Date | null;
  }>(
    `SELECT 'silence' AS kind, id, NULL AS name, matchers, starts_at, ends_at FROM silences
       WHERE organization_id = $1 AND ends_at > $2 AND starts_at <= $3
     UNION ALL
     SELECT 'webhook', id, name, NULL, NULL, NULL FROM webhooks WHERE organization_id = $1 AND enabled`,
    [organizationId, from, to],
  );
  const silences: (SilenceWindow & { id: string })[] = [];
  const webhooks: { id: string; name: string }[] = [];
  for (const r of rows) {
    if (r.kind === "webhook") webhooks.push({ id: r.id, name: r.name ?? "" });
    else {
      const matchers = silenceMatchersSchema.safeParse(r.matchers);
      if (matchers.success && r.starts_at && r.ends_at)
        silences.push({ id: r.id, matchers: matchers.data, startsAt: r.starts_at, endsAt: r.ends_at });
    }
  }
  return { silences, webhooks };
}

/**
 * The worker's hand-over after writing item_states and state_changes: runs the results through
 * the alert state machine, writes alerts, their events and the state machine's memory, and queues
 * a delivery per enabled webhook for each notification that is neither silenced, acknowledged nor
 * held for flapping. Results of series outside the organisation are ignored.
 *
 * Given the Database it runs in a transaction of its own; given a client it runs inside the
 * caller's transaction (the worker's evaluation transaction: on the embedded server an open
 * transaction blocks every other connection, so a second connection there would wait forever).
 * Either way under the organisation's evaluation lock (beginUnderEvaluationLock), which serialises every
 * writer of the alert state machines: no row locks needed.
 */
export async function applyEvaluations(
  target: Database | pg.ClientBase,
  organizationId: string,
  outcomes: EvaluationOutcome[],
  options: ApplyEvaluationsOptions = {},
): Promise<ApplyEvaluationsSummary> {
  if (outcomes.length === 0) return { opened: 0, closed: 0, events: 0, deliveries: 0 };
  if (!("pool" in target)) return applyWithin(target, organizationId, outcomes, options);
  const client = await target.pool.connect();
  try {
    // Durable commit: unlike the worker's evaluation, nothing would replay these results.
    await beginUnderEvaluationLock(client, organizationId);
    const summary = await applyWithin(client, organizationId, outcomes, options);
    await client.query("COMMIT");
    return summary;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

async function applyWithin(
  client: pg.ClientBase,
  organizationId: string,
  outcomes: EvaluationOutcome[],
  options: ApplyEvaluationsOptions,
): Promise<ApplyEvaluationsSummary> {
  const summary: ApplyEvaluationsSummary = { opened: 0, closed: 0, events: 0, deliveries: 0 };
  const externalUrl = options.externalUrl ?? process.env.TIDEMARK_PUBLIC_URL ?? "http://localhost:3000";
  const bySeries = new Map<number, EvaluationOutcome[]>();
  let minTs = Number.POSITIVE_INFINITY;
  let maxTs = Number.NEGATIVE_INFINITY;
  for (const o of outcomes) {
    const list = bySeries.get(o.seriesId);
    if (list) list.push(o);
    else bySeries.set(o.seriesId, [o]);
    minTs = Math.min(minTs, o.ts.getTime());
    maxTs = Math.max(maxTs, o.ts.getTime());
  }

  const series = await loadSeries(client, organizationId, [...bySeries.keys()]);
  const { silences, webhooks } = await loadNotificationTargets(client, organizationId, new Date(minTs), new Date(maxTs));

  const tracks: { seriesId: number; track: AlertTrack; flapPercent: number }[] = [];
  const alerts = new Map<string, AlertRow>();
  const events: EventRow[] = [];
  const deliveries: DeliveryRow[] = [];

  for (const row of series) {
    const result = runAlertMachine(trackFrom(row), bySeries.get(row.id) ?? [], settingsFrom(row));
    if (result.steps.length === 0) continue;
    const last = result.steps[result.steps.length - 1] as AlertStep;
    tracks.push({ seriesId: row.id, track: result.track, flapPercent: last.flapPercent });

    let current: AlertRow | null = row.alert_id
      ? {
          id: row.alert_id,
          isNew: false,
          seriesId: row.id,
          key: row.key,
          severity: row.severity as State,
          peakSeverity: row.peak_severity as State,
          openedAt: row.opened_at as Date,
          closedAt: null,
          flapping: row.alert_flapping ?? false,
          acknowledged: row.acknowledged_at !== null,
          notifiedAt: row.notified_at,
          opening: null,
        }
      : null;
    for (const step of result.steps) {
      const { outcome } = step;
      for (const t of step.transitions) {
        if (t.kind === "opened") {
          current = {
            id: randomUUID(),
            isNew: true,
            seriesId: row.id,
            key: row.key,
            severity: t.severity,
            peakSeverity: t.severity,
            openedAt: t.at,
            closedAt: null,
            flapping: false,
            acknowledged: false,
            notifiedAt: null,
            opening: outcome,
          };
          alerts.set(current.id, current);
          summary.opened++;
        }
        if (!current) continue;
        alerts.set(current.id, current);
        const detail = t.kind.startsWith("flapping")
          ? `${step.flapPercent.toFixed(1)} % state change over the last 21 results`
          : outcome.explanation;
        events.push({
          alertId: current.id,
          ts: t.kind === "closed" ? t.at : outcome.ts,
          kind: t.kind,
          severity: t.severity,
          outcome,
          detail,
        });
      }
      if (!current || !step.alert) continue;
      const alert: AlertRow = current;
      alert.severity = step.alert.severity;
      alert.peakSeverity = step.alert.peakSeverity;
      alert.flapping = step.alert.flapping;
      alert.closedAt = step.alert.closedAt;

      const due = step.notify;
      const hold = (reason: string) =>
        events.push({
          alertId: alert.id,
          ts: outcome.ts,
          kind: "notification-held",
          severity: alert.severity,
          outcome,
          detail: `notification held: ${reason}`,
        });
      const silence = due ? silences.find((s) => silenceCovers(s, row.key, outcome.ts)) : undefined;
      if (step.heldForFlapping) hold("the series is flapping");
      else if (due && alert.acknowledged) hold("acknowledged");
      else if (due && silence) hold(`silenced by ${silence.id}`);
      // A resolution is only news to receivers that were told the alert fired.
      else if (due && (due === "firing" || alert.notifiedAt !== null)) {
        for (const w of webhooks) {
          deliveries.push({
            webhookId: w.id,
            alertId: alert.id,
            payload: alertmanagerPayload({
              receiver: w.name,
              externalUrl,
              alert: {
                id: alert.id,
                key: row.key,
                status: due,
                severity: alert.severity,
                openedAt: alert.openedAt,
                closedAt: alert.closedAt,
                value: outcome.value,
                threshold: outcome.threshold,
                warning: outcome.warning,
                critical: outcome.critical,
                explanation: outcome.explanation,
                flapping: alert.flapping,
              },
            }),
          });
        }
        if (due === "firing" && webhooks.length > 0) alert.notifiedAt ??= outcome.ts;
      }
      if (current.closedAt) {
        summary.closed++;
        current = null;
      }
    }
  }

  await writeTracks(client, tracks);
  await writeAlerts(client, organizationId, [...alerts.values()]);
  await writeEvents(client, events);
  await writeDeliveries(client, deliveries);
  summary.events = events.length;
  summary.deliveries = deliveries.length;
  return summary;
}

async function writeTracks(client: pg.ClientBase, tracks: { seriesId: number; track: AlertTrack; flapPercent: number }[]) {
  if (tracks.length === 0) return;
  await client.query(
    `INSERT INTO alert_tracks (series_id, recent_states, flapping, flap_percent, recovering_since, last_ts)
     SELECT * FROM unnest($1::bigint[], $2::text[], $3::bool[], $4::float8[], $5::timestamptz[], $6::timestamptz[])
     ON CONFLICT (series_id) DO UPDATE SET recent_states = excluded.recent_states, flapping = excluded.flapping,
       flap_percent = excluded.flap_percent, recovering_since = excluded.recovering_since, last_ts = excluded.last_ts`,
    [
      tracks.map((t) => t.seriesId),
      tracks.map((t) => t.track.recentStates.map((s) => STATE_LETTER[s]).join("")),
      tracks.map((t) => t.track.flapping),
      tracks.map((t) => t.flapPercent),
      tracks.map((t) => t.track.recoveringSince?.toISOString() ?? null),
      tracks.map((t) => t.track.lastTs?.toISOString() ?? null),
    ],
  );
}

async function writeAlerts(client: pg.ClientBase, organizationId: string, alerts: AlertRow[]) {
  const created = alerts.filter((a) => a.isNew);
  const updated = alerts.filter((a) => !a.isNew);
  const iso = (d: Date | null) => d?.toISOString() ?? null;
  // Existing alerts first: one closed here frees its series for an alert opened in the same batch.
  if (updated.length > 0) {
    await client.query(
      `UPDATE alerts a SET severity = u.severity, peak_severity = u.peak_severity, closed_at = u.closed_at,
                           flapping = u.flapping, notified_at = u.notified_at
       FROM unnest($2::uuid[], $3::check_state[], $4::check_state[], $5::timestamptz[], $6::bool[], $7::timestamptz[])
         AS u(id, severity, peak_severity, closed_at, flapping, notified_at)
       WHERE a.id = u.id AND a.organization_id = $1`,
      [
        organizationId,
        updated.map((a) => a.id),
        updated.map((a) => a.severity),
        updated.map((a) => a.peakSeverity),
        updated.map((a) => iso(a.closedAt)),
        updated.map((a) => a.flapping),
        updated.map((a) => iso(a.notifiedAt)),
      ],
    );
  }
  if (created.length > 0) {
    await client.query(
      `INSERT INTO alerts (id, organization_id, series_id, severity, peak_severity, opened_at, closed_at, flapping,
                           value, threshold, warning, critical, explanation, notified_at)
       SELECT id, $1, series_id, severity, peak_severity, opened_at, closed_at, flapping, value, threshold, warning, critical, explanation, notified_at
       FROM unnest($2::uuid[], $3::bigint[], $4::check_state[], $5::check_state[], $6::timestamptz[], $7::timestamptz[], $8::bool[],
                   $9::float8[], $10::float8[], $11::float8[], $12::float8[], $13::text[], $14::timestamptz[])
         AS u(id, series_id, severity, peak_severity, opened_at, closed_at, flapping, value, threshold, warning, critical, explanation, notified_at)`,
      [
        organizationId,
        created.map((a) => a.id),
        created.map((a) => a.seriesId),
        created.map((a) => a.severity),
        created.map((a) => a.peakSeverity),
        created.map((a) => a.openedAt.toISOString()),
        created.map((a) => iso(a.closedAt)),
        created.map((a) => a.flapping),
        created.map((a) => a.opening?.value ?? null),
        created.map((a) => a.opening?.threshold ?? null),
        created.map((a) => a.opening?.warning ?? null),
        created.map((a) => a.opening?.critical ?? null),
        created.map((a) => a.opening?.explanation ?? ""),
        created.map((a) => iso(a.notifiedAt)),
      ],
    );
  }
}

async function writeEvents(client: pg.ClientBase, events: EventRow[]) {
  if (events.length === 0) return;
  await client.query(
    `INSERT INTO alert_events (alert_id, ts, kind, severity, value, threshold, warning, critical, detail)
     SELECT * FROM unnest($1::uuid[], $2::timestamptz[], $3::text[], $4::check_state[], $5::float8[], $6::float8[], $7::float8[], $8::float8[], $9::text[])`,
    [
      events.map((e) => e.alertId),
      events.map((e) => e.ts.toISOString()),
      events.map((e) => e.kind),
      events.map((e) => e.severity),
      events.map((e) => e.outcome?.value ?? null),
      events.map((e) => e.outcome?.threshold ?? null),
      events.map((e) => e.outcome?.warning ?? null),
      events.map((e) => e.outcome?.critical ?? null),
      events.map((e) => e.detail),
    ],
  );
}

async function writeDeliveries(client: pg.ClientBase, deliveries: DeliveryRow[]) {
  if (deliveries.length === 0) return;
  await client.query(
    `INSERT INTO notification_deliveries (webhook_id, alert_id, payload, status)
     SELECT webhook_id, alert_id, payload, 'pending' FROM unnest($1::uuid[], $2::uuid[], $3::jsonb[]) AS u(webhook_id, alert_id, payload)`,
    [deliveries.map((d) => d.webhookId), deliveries.map((d) => d.alertId), deliveries.map((d) => JSON.stringify(d.payload))],
  );
}
