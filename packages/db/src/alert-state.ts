import { randomUUID } from "node:crypto";
import {
  type AlertMemoryLookup,
  type AlertPlanSummary,
  type AlertTrack,
  EMPTY_TRACK,
  type EvaluationOutcome,
  machineSettings,
  NO_NOTIFICATION_CONTEXT,
  type NotificationContext,
  type NotificationNeeds,
  type PlannedAlert,
  type PlannedDelivery,
  type PlannedEvent,
  type PlannedTrack,
  planNotifications,
  type ReceiverPolicy,
  receiverPolicy,
  runSeriesMachines,
  type SeriesAlertMemory,
  type SeriesRun,
  type SilenceWindow,
  seriesToLoad,
  silenceMatchersSchema,
} from "@tidemark/alerts";
import type { State } from "@tidemark/thresholds";
import type pg from "pg";
import { type Database, isDatabase } from "./database.ts";
import {
  addEvaluationWrites,
  addForgetEvaluators,
  beginOrganizationEvaluation,
  type EvaluationRecord,
  type Transaction,
} from "./evaluation.ts";
import { organizationParam, WriteStatement } from "./write-statement.ts";

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

/** Where the notification step's context comes from when a notification is due. */
export type NotificationContextSource = (needs: NotificationNeeds) => Promise<NotificationContext>;

export interface ApplyEvaluationsOptions {
  /** The dashboard's public URL, for the webhook payload's links; the app reads it from its configuration. */
  externalUrl?: string;
  /** The notification context (default: loadNotificationContext on the caller's connection, at every call that needs one). */
  notificationContext?: NotificationContextSource;
  /** The evaluations the outcomes come from: their states and state changes are written in the same statement, as the worker does. */
  records?: EvaluationRecord[];
}

/** Links in notifications queued by callers that name no public URL (tests, seeds, benchmarks). */
const DEFAULT_PUBLIC_URL = "http://localhost:3000";

export interface StoredAlertPlan {
  summary: AlertPlanSummary;
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
    settings: machineSettings({ recoveryMarginPercent: row.recovery_margin, minimumDurationSeconds: row.min_duration_seconds }),
    track,
    openAlert: open && row.alert_id ? { id: row.alert_id, notifiedAt: row.notified_at } : null,
  };
}

/**
 * The alert memory of the organisation's series among `seriesIds` (others are left out). A
 * retired series (retired_series) not deployed again is left out too unless `retired` is
 * "include": results of it still queued open no alert that nothing would close.
 */
export async function loadAlertMemory(
  client: pg.ClientBase,
  organizationId: string,
  seriesIds: number[],
  retired: "leave out" | "include" = "leave out",
): Promise<Map<number, SeriesAlertMemory>> {
  const { rows } = await client.query<SeriesRow>(
    `SELECT s.id::float8 AS id, s.key, i.alert_recovery_margin AS recovery_margin, i.alert_min_duration_seconds AS min_duration_seconds,
            t.recent_states, t.flapping, t.recovering_since, t.last_ts,
            a.id AS alert_id, a.severity, a.peak_severity, a.opened_at, a.flapping AS alert_flapping, a.notified_at
     FROM series s
     LEFT JOIN deployed_items i ON i.organization_id = s.organization_id AND i.series_key = s.key
     LEFT JOIN alert_tracks t ON t.organization_id = s.organization_id AND t.series_id = s.id
     LEFT JOIN alerts a ON a.series_id = s.id AND a.closed_at IS NULL
     WHERE s.organization_id = $1 AND s.id = ANY($2::bigint[])
       AND ($3 OR i.series_key IS NOT NULL
            OR NOT EXISTS (SELECT 1 FROM retired_series r WHERE r.organization_id = s.organization_id AND r.series_id = s.id))`,
    [organizationId, seriesIds, retired === "include"],
  );
  return new Map(rows.map((r) => [r.id, memoryFrom(r)]));
}

interface ContextRow {
  kind: "silence" | "webhook" | "acknowledged" | "organization" | "item";
  id: string;
  name: string | null;
  matchers: unknown;
  starts_at: Date | null;
  ends_at: Date | null;
  receiver_kind: string | null;
  repeat: number | null;
}

const WEBHOOK_AND_ORGANIZATION_ROWS = `
     SELECT 'webhook', id, name, matchers, NULL, NULL, kind, repeat_interval_seconds FROM webhooks WHERE organization_id = $1 AND enabled
     UNION ALL
     SELECT 'organization', id, slug, NULL, NULL, NULL, NULL, NULL FROM organizations WHERE id = $1`;

/** Silences in force over the batch, enabled receivers, which of `alertIds` are acknowledged, and the notified items' ids. */
export async function loadNotificationContext(
  client: pg.ClientBase,
  organizationId: string,
  { from, to, alertIds, keys }: NotificationNeeds,
): Promise<NotificationContext> {
  const { rows } = await client.query<ContextRow>(
    `SELECT 'silence' AS kind, id, NULL AS name, matchers, starts_at, ends_at, NULL AS receiver_kind, NULL::int AS repeat FROM silences
       WHERE organization_id = $1 AND ends_at > $2 AND starts_at <= $3
     UNION ALL ${WEBHOOK_AND_ORGANIZATION_ROWS}
     UNION ALL
     SELECT 'acknowledged', id, NULL, NULL, NULL, NULL, NULL, NULL FROM alerts
       WHERE organization_id = $1 AND id = ANY($4::uuid[]) AND acknowledged_at IS NOT NULL
     UNION ALL
     SELECT 'item', id, series_key, NULL, NULL, NULL, NULL, NULL FROM service_items WHERE organization_id = $1 AND series_key = ANY($5::text[])`,
    [organizationId, from, to, alertIds, keys],
  );
  return notificationContextOf(rows);
}

/**
 * The notification context of every call of one evaluation batch, read on its transaction once,
 * at the first call that needs it (again only should a later call need silences from before
 * that call's first instant): the silences that end after it (whenever they start), the enabled
 * receivers, the organisation's open alerts that are acknowledged — a superset of what each
 * call's needs ask, which the notification step narrows down itself (a silence by instant and
 * key, an acknowledgement by alert) — and item ids from `items` (the caller's configuration),
 * not read.
 *
 * The worker plans a batch's alerts slice by slice, each slice's writes sent while the next is
 * evaluated: a read at every slice waited on the connection behind the writes already sent
 * (docs/scaling.md, "Twenty-fifth round"). Only the batch's first slice with a notification due
 * reads now, behind what was sent before it.
 */
export function notificationContextOnce(
  client: pg.ClientBase,
  organizationId: string,
  items: NotificationContext["items"],
): NotificationContextSource {
  let read: { fromMs: number; context: Promise<NotificationContext> } | undefined;
  return (needs) => {
    if (read === undefined || needs.from.getTime() < read.fromMs)
      read = { fromMs: needs.from.getTime(), context: loadStandingNotificationContext(client, organizationId, needs.from, items) };
    return read.context;
  };
}

async function loadStandingNotificationContext(
  client: pg.ClientBase,
  organizationId: string,
  from: Date,
  items: NotificationContext["items"],
): Promise<NotificationContext> {
  const { rows } = await client.query<ContextRow>(
    `SELECT 'silence' AS kind, id, NULL AS name, matchers, starts_at, ends_at, NULL AS receiver_kind, NULL::int AS repeat FROM silences
       WHERE organization_id = $1 AND ends_at > $2
     UNION ALL ${WEBHOOK_AND_ORGANIZATION_ROWS}
     UNION ALL
     SELECT 'acknowledged', id, NULL, NULL, NULL, NULL, NULL, NULL FROM alerts
       WHERE organization_id = $1 AND closed_at IS NULL AND acknowledged_at IS NOT NULL`,
    [organizationId, from],
  );
  return { ...notificationContextOf(rows), items };
}

/** The context's rows as the notification step takes them (items only from 'item' rows). */
function notificationContextOf(rows: ContextRow[]): NotificationContext {
  const silences: (SilenceWindow & { id: string })[] = [];
  const receivers: ReceiverPolicy[] = [];
  const acknowledged = new Set<string>();
  const items = new Map<string, string>();
  let organization: string | undefined;
  for (const r of rows) {
    if (r.kind === "webhook")
      receivers.push(
        receiverPolicy({
          id: r.id,
          name: r.name ?? "",
          kind: r.receiver_kind ?? "webhook",
          matchers: r.matchers,
          repeatIntervalSeconds: r.repeat,
        }),
      );
    else if (r.kind === "acknowledged") acknowledged.add(r.id);
    else if (r.kind === "organization") organization = r.name ?? undefined;
    else if (r.kind === "item") items.set(r.name ?? "", r.id);
    else {
      const matchers = silenceMatchersSchema.safeParse(r.matchers);
      if (matchers.success && r.starts_at && r.ends_at)
        silences.push({ id: r.id, matchers: matchers.data, startsAt: r.starts_at, endsAt: r.ends_at });
    }
  }
  return { silences, receivers, acknowledged, organization, items };
}

/**
 * Evaluations made outside the worker (tests, seeds, benches), written the way the worker writes
 * a batch: the results' states and state changes (given `records`) and what the alert state
 * machine makes of them (planAlerts) in one statement — in a transaction of its own (given
 * the Database) or inside the caller's (given its transaction: on the embedded server an open
 * transaction blocks every other connection, so a second connection there would wait forever),
 * either way under the organisation's evaluation lock. Results of series outside the
 * organisation are ignored. A worker's remembered alert memory of the organisation is
 * invalidated: it no longer matches what is written here.
 */
export async function applyEvaluations(
  target: Database | Transaction,
  organizationId: string,
  outcomes: EvaluationOutcome[],
  options: ApplyEvaluationsOptions = {},
): Promise<AlertPlanSummary> {
  if (outcomes.length === 0 && !options.records?.length) return { opened: 0, closed: 0, events: 0, deliveries: 0 };
  const plan = async (client: Transaction, statement: WriteStatement) => {
    if (options.records) addEvaluationWrites(statement, organizationId, options.records);
    const { summary } = await planAlerts(client, organizationId, outcomes, new Map(), statement, options);
    addForgetEvaluators(statement, organizationId);
    return summary;
  };
  if (!isDatabase(target)) {
    const statement = new WriteStatement();
    const summary = await plan(target, statement);
    await statement.run(target);
    return summary;
  }
  const writes = await beginOrganizationEvaluation(target, organizationId);
  try {
    const statement = new WriteStatement();
    const summary = await plan(writes.transaction, statement);
    writes.send(statement);
    await writes.commit();
    return summary;
  } catch (error) {
    await writes.rollback();
    throw error;
  }
}

/**
 * Runs the results through the alert state machine and adds the alerts, their events, the
 * machines' memory and the queued deliveries to `statement` — what to write is
 * @tidemark/alerts' `planNotifications`; this loads what it needs. `remembered` is what the
 * caller knows of series from earlier batches; the rest is read here. The caller runs the
 * statement inside its transaction and keeps the returned memory once that commits.
 */
export async function planAlerts(
  client: pg.ClientBase,
  organizationId: string,
  outcomes: EvaluationOutcome[],
  remembered: AlertMemoryLookup,
  statement: WriteStatement,
  options: ApplyEvaluationsOptions = {},
): Promise<StoredAlertPlan> {
  const unknown = seriesToLoad(outcomes, remembered);
  const loaded = unknown.length > 0 ? await loadAlertMemory(client, organizationId, unknown) : new Map<number, SeriesAlertMemory>();
  const machines = runSeriesMachines(outcomes, (seriesId) => remembered.get(seriesId) ?? loaded.get(seriesId));
  return planRunsNotifications(client, organizationId, machines, statement, options);
}

/**
 * The runs' alerts, events, tracks and deliveries (@tidemark/alerts' planNotifications, with the
 * notification context loaded when `needs` says a notification is due), added to `statement`.
 */
export async function planRunsNotifications(
  client: pg.ClientBase,
  organizationId: string,
  { runs, needs }: { runs: SeriesRun[]; needs: NotificationNeeds | null },
  statement: WriteStatement,
  options: Pick<ApplyEvaluationsOptions, "externalUrl" | "notificationContext"> = {},
): Promise<StoredAlertPlan> {
  const context = !needs
    ? NO_NOTIFICATION_CONTEXT
    : options.notificationContext
      ? await options.notificationContext(needs)
      : await loadNotificationContext(client, organizationId, needs);
  const plan = planNotifications(runs, context, { publicUrl: options.externalUrl ?? DEFAULT_PUBLIC_URL, newId: randomUUID });
  addTrackWrites(statement, organizationId, plan.tracks);
  addAlertWrites(statement, organizationId, plan.alerts);
  addEventWrites(statement, organizationId, plan.events);
  addDeliveryWrites(statement, organizationId, plan.deliveries);
  return { summary: plan.summary, memory: plan.memory };
}

function iso(d: Date | null): string | null {
  return d?.toISOString() ?? null;
}

function addTrackWrites(statement: WriteStatement, organizationId: string, tracks: PlannedTrack[]) {
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
    `INSERT INTO alert_tracks (organization_id, series_id, recent_states, flapping, flap_percent, recovering_since, last_ts)
     SELECT ${organizationParam(statement, organizationId)}, series_id, recent_states, flapping, flap_percent, to_timestamp(recovering_ms / 1000), to_timestamp(last_ms / 1000)
     FROM ${rows} AS t(series_id, recent_states, flapping, flap_percent, recovering_ms, last_ms)
     ON CONFLICT (organization_id, series_id) DO UPDATE SET recent_states = excluded.recent_states, flapping = excluded.flapping,
       flap_percent = excluded.flap_percent, recovering_since = excluded.recovering_since, last_ts = excluded.last_ts`,
  );
}

function addAlertWrites(statement: WriteStatement, organizationId: string, alerts: PlannedAlert[]) {
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
       WHERE a.id = u.id AND a.organization_id = ${organizationParam(statement, organizationId)}
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
       SELECT id, ${organizationParam(statement, organizationId)}, series_id, severity, peak_severity, opened_at, closed_at, flapping,
              value, threshold, warning, critical, explanation, notified_at
       FROM ${rows} AS u(id, series_id, severity, peak_severity, opened_at, closed_at, flapping, value, threshold, warning, critical, explanation, notified_at)
       ${updated.length > 0 ? "CROSS JOIN (SELECT count(*) FROM alerts_updated) AS after_updates" : ""}`,
    );
  }
}

function addEventWrites(statement: WriteStatement, organizationId: string, events: PlannedEvent[]) {
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
    `INSERT INTO alert_events (organization_id, alert_id, ts, kind, severity, value, threshold, warning, critical, detail)
     SELECT ${organizationParam(statement, organizationId)}, e.* FROM ${rows} AS e`,
  );
}

function addDeliveryWrites(statement: WriteStatement, organizationId: string, deliveries: PlannedDelivery[]) {
  if (deliveries.length === 0) return;
  const rows = statement.unnest([
    [deliveries.map((d) => d.receiverId), "uuid[]"],
    [deliveries.map((d) => d.alertId), "uuid[]"],
    [deliveries.map((d) => JSON.stringify(d.payload)), "jsonb[]"],
  ]);
  statement.with(
    "deliveries_queued",
    `INSERT INTO notification_deliveries (organization_id, webhook_id, alert_id, payload, status)
     SELECT ${organizationParam(statement, organizationId)}, webhook_id, alert_id, payload, 'pending' FROM ${rows} AS u(webhook_id, alert_id, payload)`,
  );
}
