import { randomUUID } from "node:crypto";
import {
  type AlertSettings,
  type AlertStep,
  type AlertTrack,
  alertmanagerPayload,
  DEFAULT_ALERT_SETTINGS,
  EMPTY_TRACK,
  type EvaluationOutcome,
  notificationAction,
  type ReceiverPolicy,
  receiverKindSchema,
  receiverMatchersSchema,
  receiverWants,
  runAlertMachine,
  type SilenceWindow,
  silenceCovers,
  silenceMatchersSchema,
} from "@tidemark/alerts";
import type { State } from "@tidemark/thresholds";
import type pg from "pg";
import type { Database } from "./database.ts";
import { beginUnderEvaluationLock } from "./evaluation.ts";
import { WriteStatement } from "./write-statement.ts";

/**
 * From evaluated results to alerts and queued notifications. What the state machine needs per
 * series (its track and the open alert) is read once for the series not already known — a
 * worker remembers it between batches — and silences, webhooks and acknowledgements only when a
 * notification is due; everything written goes into the caller's one write statement. Two
 * deciders never work on the same series at once: every caller holds the organisation's
 * evaluation lock.
 */

const STATE_LETTER: Record<State, string> = { OK: "O", WARNING: "W", CRITICAL: "C", UNKNOWN: "U" };
const LETTER_STATE: Record<string, State> = { O: "OK", W: "WARNING", C: "CRITICAL", U: "UNKNOWN" };

/** What deciding a series' alerts needs from before the batch. */
export interface SeriesAlertMemory {
  key: string;
  settings: AlertSettings;
  /** The state machine's memory, `open` included. */
  track: AlertTrack;
  /** The row of the open alert (`track.open`), when there is one. */
  openAlert: { id: string; notifiedAt: Date | null } | null;
}

/** Alert memories by series id, as planAlerts looks them up. */
export type AlertMemoryLookup = Pick<ReadonlyMap<number, SeriesAlertMemory>, "get" | "has">;

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

interface TrackRow {
  seriesId: number;
  track: AlertTrack;
  flapPercent: number;
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

export interface AlertPlan {
  summary: ApplyEvaluationsSummary;
  /** The memory of every series the batch touched, as it stands once the statement commits. */
  memory: Map<number, SeriesAlertMemory>;
}

function memoryFrom(row: SeriesRow): SeriesAlertMemory {
  const open =
    row.alert_id && row.severity && row.peak_severity && row.opened_at
      ? { severity: row.severity, peakSeverity: row.peak_severity, openedAt: row.opened_at, flapping: row.alert_flapping ?? false }
      : null;
  const track: AlertTrack =
    row.recent_states === null || row.last_ts === null
      ? { ...EMPTY_TRACK, open }
      : {
          recentStates: [...row.recent_states].map((c) => LETTER_STATE[c] ?? "UNKNOWN"),
          flapping: row.flapping ?? false,
          recoveringSince: row.recovering_since,
          lastTs: row.last_ts,
          open,
        };
  return {
    key: row.key,
    settings: {
      ...DEFAULT_ALERT_SETTINGS,
      recoveryMarginPercent: row.recovery_margin ?? 0,
      minimumDurationMs: (row.min_duration_seconds ?? 0) * 1000,
    },
    track,
    openAlert: open && row.alert_id ? { id: row.alert_id, notifiedAt: row.notified_at } : null,
  };
}

/** The alert memory of the organisation's series among `seriesIds` (others are left out). */
async function loadAlertMemory(
  client: pg.ClientBase,
  organizationId: string,
  seriesIds: number[],
): Promise<Map<number, SeriesAlertMemory>> {
  const { rows } = await client.query<SeriesRow>(
    `SELECT s.id::float8 AS id, s.key, i.alert_recovery_margin AS recovery_margin, i.alert_min_duration_seconds AS min_duration_seconds,
            t.recent_states, t.flapping, t.recovering_since, t.last_ts,
            a.id AS alert_id, a.severity, a.peak_severity, a.opened_at, a.flapping AS alert_flapping, a.notified_at
     FROM series s
     LEFT JOIN deployed_items i ON i.organization_id = s.organization_id AND i.series_key = s.key
     LEFT JOIN alert_tracks t ON t.series_id = s.id
     LEFT JOIN alerts a ON a.series_id = s.id AND a.closed_at IS NULL
     WHERE s.organization_id = $1 AND s.id = ANY($2::bigint[])`,
    [organizationId, seriesIds],
  );
  return new Map(rows.map((r) => [r.id, memoryFrom(r)]));
}

interface NotificationContext {
  silences: (SilenceWindow & { id: string })[];
  receivers: ReceiverPolicy[];
  acknowledged: Set<string>;
  /** The organisation's slug, Alertmanager's `organization` label. */
  organization: string | undefined;
  /** Item ids by series key, for the preview link. */
  items: Map<string, string>;
}

const NO_NOTIFICATIONS: NotificationContext = {
  silences: [],
  receivers: [],
  acknowledged: new Set(),
  organization: undefined,
  items: new Map(),
};

/** Receiver rows as the routing decisions take them; a row with unreadable matchers matches nothing rather than everything. */
export function receiverPolicy(row: {
  id: string;
  name: string;
  kind: string;
  matchers: unknown;
  repeatIntervalSeconds: number | null;
}): ReceiverPolicy {
  const matchers = receiverMatchersSchema.safeParse(row.matchers ?? {});
  return {
    id: row.id,
    name: row.name,
    kind: receiverKindSchema.catch("webhook").parse(row.kind),
    matchers: matchers.success ? matchers.data : { severities: [] as never },
    repeatIntervalSeconds: row.repeatIntervalSeconds,
  };
}

/** Silences in force over the batch, enabled receivers, which of `alertIds` are acknowledged, and the notified items' ids. */
async function loadNotificationContext(
  client: pg.ClientBase,
  organizationId: string,
  from: Date,
  to: Date,
  alertIds: string[],
  keys: string[],
): Promise<NotificationContext> {
  const { rows } = await client.query<{
    kind: "silence" | "webhook" | "acknowledged" | "organization" | "item";
    id: string;
    name: string | null;
    matchers: unknown;
    starts_at: Date | null;
    ends_at: Date | null;
    receiver_kind: string | null;
    repeat: number | null;
  }>(
    `SELECT 'silence' AS kind, id, NULL AS name, matchers, starts_at, ends_at, NULL AS receiver_kind, NULL::int AS repeat FROM silences
       WHERE organization_id = $1 AND ends_at > $2 AND starts_at <= $3
     UNION ALL
     SELECT 'webhook', id, name, matchers, NULL, NULL, kind, repeat_interval_seconds FROM webhooks WHERE organization_id = $1 AND enabled
     UNION ALL
     SELECT 'acknowledged', id, NULL, NULL, NULL, NULL, NULL, NULL FROM alerts
       WHERE organization_id = $1 AND id = ANY($4::uuid[]) AND acknowledged_at IS NOT NULL
     UNION ALL
     SELECT 'organization', id, slug, NULL, NULL, NULL, NULL, NULL FROM organizations WHERE id = $1
     UNION ALL
     SELECT 'item', id, series_key, NULL, NULL, NULL, NULL, NULL FROM service_items WHERE organization_id = $1 AND series_key = ANY($5::text[])`,
    [organizationId, from, to, alertIds, keys],
  );
  const context: NotificationContext = { silences: [], receivers: [], acknowledged: new Set(), organization: undefined, items: new Map() };
  for (const r of rows) {
    if (r.kind === "webhook")
      context.receivers.push(
        receiverPolicy({
          id: r.id,
          name: r.name ?? "",
          kind: r.receiver_kind ?? "webhook",
          matchers: r.matchers,
          repeatIntervalSeconds: r.repeat,
        }),
      );
    else if (r.kind === "acknowledged") context.acknowledged.add(r.id);
    else if (r.kind === "organization") context.organization = r.name ?? undefined;
    else if (r.kind === "item") context.items.set(r.name ?? "", r.id);
    else {
      const matchers = silenceMatchersSchema.safeParse(r.matchers);
      if (matchers.success && r.starts_at && r.ends_at)
        context.silences.push({ id: r.id, matchers: matchers.data, startsAt: r.starts_at, endsAt: r.ends_at });
    }
  }
  return context;
}

/**
 * Standalone: runs results through the alert state machine in a transaction of its own (given
 * the Database) or inside the caller's (given a client: on the embedded server an open
 * transaction blocks every other connection, so a second connection there would wait forever),
 * either way under the organisation's evaluation lock. Results of series outside the
 * organisation are ignored. A worker's remembered alert memory of the organisation is
 * invalidated: it no longer matches what is written here.
 */
export async function applyEvaluations(
  target: Database | pg.ClientBase,
  organizationId: string,
  outcomes: EvaluationOutcome[],
  options: ApplyEvaluationsOptions = {},
): Promise<ApplyEvaluationsSummary> {
  if (outcomes.length === 0) return { opened: 0, closed: 0, events: 0, deliveries: 0 };
  const apply = async (client: pg.ClientBase) => {
    const statement = new WriteStatement();
    const plan = await planAlerts(client, organizationId, outcomes, new Map(), statement, options);
    statement.with("forget", `DELETE FROM evaluation_cursors WHERE organization_id = ${statement.param(organizationId, "uuid")}`);
    await statement.run(client);
    return plan.summary;
  };
  if (!("pool" in target)) return apply(target);
  const client = await target.pool.connect();
  try {
    // Durable commit: unlike the worker's evaluation, nothing would replay these results.
    await beginUnderEvaluationLock(client, organizationId);
    const summary = await apply(client);
    await client.query("COMMIT");
    return summary;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Runs the results through the alert state machine and adds the alerts, their events, the
 * machines' memory and the queued deliveries (one per enabled webhook for each notification that
 * is neither silenced, acknowledged nor held for flapping) to `statement`. `remembered` is what
 * the caller knows of series from earlier batches; the rest is read here. The caller runs the
 * statement inside its transaction and keeps the returned memory once that commits.
 */
export async function planAlerts(
  client: pg.ClientBase,
  organizationId: string,
  outcomes: EvaluationOutcome[],
  remembered: AlertMemoryLookup,
  statement: WriteStatement,
  options: ApplyEvaluationsOptions = {},
): Promise<AlertPlan> {
  const summary: ApplyEvaluationsSummary = { opened: 0, closed: 0, events: 0, deliveries: 0 };
  const externalUrl = options.externalUrl ?? process.env.TIDEMARK_PUBLIC_URL ?? "http://localhost:3000";
  const bySeries = new Map<number, EvaluationOutcome[]>();
  const unknown: number[] = [];
  for (const o of outcomes) {
    const list = bySeries.get(o.seriesId);
    if (list) list.push(o);
    else {
      bySeries.set(o.seriesId, [o]);
      if (!remembered.has(o.seriesId)) unknown.push(o.seriesId);
    }
  }
  const loaded = unknown.length > 0 ? await loadAlertMemory(client, organizationId, unknown) : new Map<number, SeriesAlertMemory>();

  const machines: { seriesId: number; before: SeriesAlertMemory; track: AlertTrack; steps: AlertStep[] }[] = [];
  const dueOnExisting: string[] = [];
  const notifiedKeys = new Set<string>();
  let notifying = false;
  let minTs = Number.POSITIVE_INFINITY;
  let maxTs = Number.NEGATIVE_INFINITY;
  for (const [seriesId, list] of bySeries) {
    const before = remembered.get(seriesId) ?? loaded.get(seriesId);
    if (!before) continue;
    const { track, steps } = runAlertMachine(before.track, list, before.settings);
    if (steps.length === 0) continue;
    machines.push({ seriesId, before, track, steps });
    for (const step of steps) {
      if (!step.notify) continue;
      notifying = true;
      notifiedKeys.add(before.key);
      minTs = Math.min(minTs, step.outcome.ts.getTime());
      maxTs = Math.max(maxTs, step.outcome.ts.getTime());
      if (before.openAlert) dueOnExisting.push(before.openAlert.id);
    }
  }
  const context = notifying
    ? await loadNotificationContext(
        client,
        organizationId,
        new Date(minTs),
        new Date(maxTs),
        [...new Set(dueOnExisting)],
        [...notifiedKeys],
      )
    : NO_NOTIFICATIONS;

  const tracks: TrackRow[] = [];
  const alerts = new Map<string, AlertRow>();
  const events: EventRow[] = [];
  const deliveries: DeliveryRow[] = [];
  const memory = new Map<number, SeriesAlertMemory>();

  for (const { seriesId, before, track, steps } of machines) {
    const key = before.key;
    tracks.push({ seriesId, track, flapPercent: (steps[steps.length - 1] as AlertStep).flapPercent });
    let current: AlertRow | null =
      before.openAlert && before.track.open
        ? {
            id: before.openAlert.id,
            isNew: false,
            seriesId,
            key,
            severity: before.track.open.severity,
            peakSeverity: before.track.open.peakSeverity,
            openedAt: before.track.open.openedAt,
            closedAt: null,
            flapping: before.track.open.flapping,
            notifiedAt: before.openAlert.notifiedAt,
            opening: null,
          }
        : null;
    for (const step of steps) {
      const { outcome } = step;
      for (const t of step.transitions) {
        if (t.kind === "opened") {
          current = {
            id: randomUUID(),
            isNew: true,
            seriesId,
            key,
            severity: t.severity,
            peakSeverity: t.severity,
            openedAt: t.at,
            closedAt: null,
            flapping: false,
            notifiedAt: null,
            opening: outcome,
          };
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
      alerts.set(alert.id, alert);
      alert.severity = step.alert.severity;
      alert.peakSeverity = step.alert.peakSeverity;
      alert.flapping = step.alert.flapping;
      alert.closedAt = step.alert.closedAt;

      const due = step.notify;
      const silence = due === "firing" ? context.silences.find((s) => silenceCovers(s, key, outcome.ts)) : undefined;
      const decision: ReturnType<typeof notificationAction> | null =
        due || step.heldForFlapping
          ? notificationAction({
              due: due || "firing",
              heldForFlapping: step.heldForFlapping,
              acknowledged: context.acknowledged.has(alert.id),
              silencedBy: silence?.id ?? null,
              firingWasSent: alert.notifiedAt !== null,
            })
          : null;
      if (decision?.action === "hold") {
        events.push({
          alertId: alert.id,
          ts: outcome.ts,
          kind: "notification-held",
          severity: alert.severity,
          outcome,
          detail: `notification held: ${decision.reason}`,
        });
      } else if (due && decision?.action === "send") {
        // A resolution goes to the receivers that could have been told it fired (at its worst severity).
        const severity = due === "firing" ? alert.severity : alert.peakSeverity;
        const receivers = context.receivers.filter((r) => receiverWants(r, key, severity));
        for (const r of receivers) {
          deliveries.push({
            webhookId: r.id,
            alertId: alert.id,
            payload: alertmanagerPayload({
              receiver: r.name,
              externalUrl,
              organization: context.organization,
              alert: {
                id: alert.id,
                key,
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
                itemId: context.items.get(key) ?? null,
              },
            }),
          });
        }
        if (due === "firing" && receivers.length > 0) alert.notifiedAt ??= outcome.ts;
      }
      if (alert.closedAt) {
        summary.closed++;
        current = null;
      }
    }
    memory.set(seriesId, {
      key,
      settings: before.settings,
      track,
      openAlert: current ? { id: current.id, notifiedAt: current.notifiedAt } : null,
    });
  }

  addTrackWrites(statement, tracks);
  addAlertWrites(statement, organizationId, [...alerts.values()]);
  addEventWrites(statement, events);
  addDeliveryWrites(statement, deliveries);
  summary.events = events.length;
  summary.deliveries = deliveries.length;
  return { summary, memory };
}

function iso(d: Date | null): string | null {
  return d?.toISOString() ?? null;
}

function addTrackWrites(statement: WriteStatement, tracks: TrackRow[]) {
  if (tracks.length === 0) return;
  const rows = statement.unnest([
    [tracks.map((t) => t.seriesId), "bigint[]"],
    [tracks.map((t) => t.track.recentStates.map((s) => STATE_LETTER[s]).join("")), "text[]"],
    [tracks.map((t) => t.track.flapping), "bool[]"],
    [tracks.map((t) => t.flapPercent), "float8[]"],
    // Instants as epoch milliseconds: formatting 2 × 30 000 ISO strings per batch showed in profiles.
    [tracks.map((t) => t.track.recoveringSince?.getTime() ?? null), "float8[]"],
    [tracks.map((t) => t.track.lastTs?.getTime() ?? null), "float8[]"],
  ]);
  statement.with(
    "alert_tracks_written",
    `INSERT INTO alert_tracks (series_id, recent_states, flapping, flap_percent, recovering_since, last_ts)
     SELECT series_id, recent_states, flapping, flap_percent, to_timestamp(recovering_ms / 1000), to_timestamp(last_ms / 1000)
     FROM ${rows} AS t(series_id, recent_states, flapping, flap_percent, recovering_ms, last_ms)
     ON CONFLICT (series_id) DO UPDATE SET recent_states = excluded.recent_states, flapping = excluded.flapping,
       flap_percent = excluded.flap_percent, recovering_since = excluded.recovering_since, last_ts = excluded.last_ts`,
  );
}

function addAlertWrites(statement: WriteStatement, organizationId: string, alerts: AlertRow[]) {
  const created = alerts.filter((a) => a.isNew);
  const updated = alerts.filter((a) => !a.isNew);
  if (updated.length > 0) {
    const rows = statement.unnest([
      [updated.map((a) => a.id), "uuid[]"],
      [updated.map((a) => a.severity), "check_state[]"],
      [updated.map((a) => a.peakSeverity), "check_state[]"],
      [updated.map((a) => iso(a.closedAt)), "timestamptz[]"],
      [updated.map((a) => a.flapping), "bool[]"],
      [updated.map((a) => iso(a.notifiedAt)), "timestamptz[]"],
    ]);
    statement.with(
      "alerts_updated",
      `UPDATE alerts a SET severity = u.severity, peak_severity = u.peak_severity, closed_at = u.closed_at,
                           flapping = u.flapping, notified_at = u.notified_at
       FROM ${rows} AS u(id, severity, peak_severity, closed_at, flapping, notified_at)
       WHERE a.id = u.id AND a.organization_id = ${statement.param(organizationId, "uuid")}
       RETURNING 1`,
    );
  }
  if (created.length > 0) {
    const rows = statement.unnest([
      [created.map((a) => a.id), "uuid[]"],
      [created.map((a) => a.seriesId), "bigint[]"],
      [created.map((a) => a.severity), "check_state[]"],
      [created.map((a) => a.peakSeverity), "check_state[]"],
      [created.map((a) => a.openedAt.toISOString()), "timestamptz[]"],
      [created.map((a) => iso(a.closedAt)), "timestamptz[]"],
      [created.map((a) => a.flapping), "bool[]"],
      [created.map((a) => a.opening?.value ?? null), "float8[]"],
      [created.map((a) => a.opening?.threshold ?? null), "float8[]"],
      [created.map((a) => a.opening?.warning ?? null), "float8[]"],
      [created.map((a) => a.opening?.critical ?? null), "float8[]"],
      [created.map((a) => a.opening?.explanation ?? ""), "text[]"],
      [created.map((a) => iso(a.notifiedAt)), "timestamptz[]"],
    ]);
    // An alert closed in this batch frees its series for one opened in it (one open alert per
    // series is a unique index): the join on the update's row count makes the insert wait for
    // the update to finish, since an aggregate yields nothing before it has read all its input.
    statement.with(
      "alerts_created",
      `INSERT INTO alerts (id, organization_id, series_id, severity, peak_severity, opened_at, closed_at, flapping,
                           value, threshold, warning, critical, explanation, notified_at)
       SELECT id, ${statement.param(organizationId, "uuid")}, series_id, severity, peak_severity, opened_at, closed_at, flapping,
              value, threshold, warning, critical, explanation, notified_at
       FROM ${rows} AS u(id, series_id, severity, peak_severity, opened_at, closed_at, flapping, value, threshold, warning, critical, explanation, notified_at)
       ${updated.length > 0 ? "CROSS JOIN (SELECT count(*) FROM alerts_updated) AS after_updates" : ""}`,
    );
  }
}

function addEventWrites(statement: WriteStatement, events: EventRow[]) {
  if (events.length === 0) return;
  const rows = statement.unnest([
    [events.map((e) => e.alertId), "uuid[]"],
    [events.map((e) => e.ts.toISOString()), "timestamptz[]"],
    [events.map((e) => e.kind), "text[]"],
    [events.map((e) => e.severity), "check_state[]"],
    [events.map((e) => e.outcome?.value ?? null), "float8[]"],
    [events.map((e) => e.outcome?.threshold ?? null), "float8[]"],
    [events.map((e) => e.outcome?.warning ?? null), "float8[]"],
    [events.map((e) => e.outcome?.critical ?? null), "float8[]"],
    [events.map((e) => e.detail), "text[]"],
  ]);
  statement.with(
    "alert_events_written",
    `INSERT INTO alert_events (alert_id, ts, kind, severity, value, threshold, warning, critical, detail) SELECT * FROM ${rows}`,
  );
}

function addDeliveryWrites(statement: WriteStatement, deliveries: DeliveryRow[]) {
  if (deliveries.length === 0) return;
  const rows = statement.unnest([
    [deliveries.map((d) => d.webhookId), "uuid[]"],
    [deliveries.map((d) => d.alertId), "uuid[]"],
    [deliveries.map((d) => JSON.stringify(d.payload)), "jsonb[]"],
  ]);
  statement.with(
    "deliveries_queued",
    `INSERT INTO notification_deliveries (webhook_id, alert_id, payload, status)
     SELECT webhook_id, alert_id, payload, 'pending' FROM ${rows} AS u(webhook_id, alert_id, payload)`,
  );
}
