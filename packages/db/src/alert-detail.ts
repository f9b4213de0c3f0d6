import { type ItemAlertSettings, itemAlertSettingsSchema } from "@tidemark/alerts";
import type { State } from "@tidemark/thresholds";
import type { z } from "zod";
import { type Audited, recordAudited, recordAuditedSql } from "./audit.ts";
import { type Database, poolOf, prismaOf } from "./database.ts";
import { inSqlTransaction } from "./sql-transaction.ts";

export interface AlertEventView {
  id: string;
  ts: Date;
  kind: string;
  severity: State;
  value: number | null;
  threshold: number | null;
  warning: number | null;
  critical: number | null;
  detail: string;
  actorName: string | null;
}

export interface AlertDetail {
  id: string;
  seriesId: number;
  key: string;
  itemId: string | null;
  settings: ItemAlertSettings | null;
  severity: State;
  peakSeverity: State;
  openedAt: Date;
  closedAt: Date | null;
  flapping: boolean;
  value: number | null;
  threshold: number | null;
  warning: number | null;
  critical: number | null;
  explanation: string;
  acknowledgedAt: Date | null;
  acknowledgedByName: string | null;
  ackComment: string | null;
  events: AlertEventView[];
  stateChanges: { ts: Date; state: State; hard: boolean; value: number | null; threshold: number | null; explanation: string }[];
}

/** One alert with its history: its own events and the series' state changes while it was open. */
export async function alertDetail(db: Database, organizationId: string, alertId: string): Promise<AlertDetail | null> {
  const { rows } = await poolOf(db).query(
    `SELECT a.id, a.series_id, s.key, i.id AS item_id, i.alert_recovery_margin, i.alert_min_duration_seconds,
            i.state_source, i.stale_after_intervals,
            a.severity, a.peak_severity, a.opened_at, a.closed_at, a.flapping, a.value, a.threshold, a.warning, a.critical,
            a.explanation, a.acknowledged_at, u.name AS acknowledged_by_name, a.ack_comment
     FROM alerts a JOIN series s ON s.id = a.series_id
     LEFT JOIN service_items i ON i.organization_id = a.organization_id AND i.series_key = s.key
     LEFT JOIN users u ON u.id = a.acknowledged_by
     WHERE a.organization_id = $1 AND a.id = $2`,
    [organizationId, alertId],
  );
  const a = rows[0];
  if (!a) return null;
  const [events, changes] = await Promise.all([
    poolOf(db).query(
      `SELECT e.id::text AS id, e.ts, e.kind, e.severity, e.value, e.threshold, e.warning, e.critical, e.detail, u.name AS actor_name
       FROM alert_events e LEFT JOIN users u ON u.id = e.actor_user_id WHERE e.alert_id = $1 ORDER BY e.ts, e.id`,
      [alertId],
    ),
    poolOf(db).query(
      `SELECT ts, state, hard, value, threshold, explanation FROM state_changes
       WHERE series_id = $1 AND ts >= $2 AND ts <= $3 ORDER BY ts LIMIT 1000`,
      [a.series_id, a.opened_at, a.closed_at ?? new Date()],
    ),
  ]);
  return {
    id: a.id,
    seriesId: Number(a.series_id),
    key: a.key,
    itemId: a.item_id,
    settings: a.item_id
      ? {
          recoveryMarginPercent: a.alert_recovery_margin,
          minimumDurationSeconds: a.alert_min_duration_seconds,
          stateSource: a.state_source,
          staleAfterIntervals: a.stale_after_intervals,
        }
      : null,
    severity: a.severity,
    peakSeverity: a.peak_severity,
    openedAt: a.opened_at,
    closedAt: a.closed_at,
    flapping: a.flapping,
    value: a.value,
    threshold: a.threshold,
    warning: a.warning,
    critical: a.critical,
    explanation: a.explanation,
    acknowledgedAt: a.acknowledged_at,
    acknowledgedByName: a.acknowledged_by_name,
    ackComment: a.ack_comment,
    events: events.rows.map((e) => ({
      id: e.id,
      ts: e.ts,
      kind: e.kind,
      severity: e.severity,
      value: e.value,
      threshold: e.threshold,
      warning: e.warning,
      critical: e.critical,
      detail: e.detail,
      actorName: e.actor_name,
    })),
    stateChanges: changes.rows,
  };
}

export class AlertAlreadyAcknowledgedError extends Error {
  constructor() {
    super("this alert is already acknowledged");
    this.name = "AlertAlreadyAcknowledgedError";
  }
}

/**
 * Acknowledges an alert with a comment (open or closed: a closed one can still be signed off).
 * Null when the organisation has no such alert; AlertAlreadyAcknowledgedError when it is signed off already.
 */
export async function acknowledgeAlert(
  db: Database,
  organizationId: string,
  alertId: string,
  userId: string,
  comment: string,
  now = new Date(),
  audit?: Audited<{ id: string; key: string; severity: State }>,
): Promise<{ id: string; key: string; severity: State } | null> {
  return inSqlTransaction(db, async (client) => {
    // Locked, so that two editors acknowledging at once get one success and one conflict.
    const { rows } = await client.query<{ key: string; severity: State; acknowledged: boolean }>(
      `SELECT s.key, a.severity, a.acknowledged_at IS NOT NULL AS acknowledged
       FROM alerts a JOIN series s ON s.id = a.series_id WHERE a.organization_id = $1 AND a.id = $2 FOR UPDATE OF a`,
      [organizationId, alertId],
    );
    const alert = rows[0];
    if (!alert) return null;
    if (alert.acknowledged) throw new AlertAlreadyAcknowledgedError();
    await client.query(`UPDATE alerts SET acknowledged_at = $2, acknowledged_by = $3, ack_comment = $4 WHERE id = $1`, [
      alertId,
      now,
      userId,
      comment,
    ]);
    await client.query(
      `INSERT INTO alert_events (organization_id, alert_id, ts, kind, severity, detail, actor_user_id) VALUES ($1, $2, $3, 'acknowledged', $4, $5, $6)`,
      [organizationId, alertId, now, alert.severity, comment, userId],
    );
    const acknowledged = { id: alertId, key: alert.key, severity: alert.severity };
    await recordAuditedSql(client, audit, acknowledged);
    return acknowledged;
  });
}

export async function updateItemAlertSettings(
  db: Database,
  organizationId: string,
  itemId: string,
  input: z.input<typeof itemAlertSettingsSchema>,
  audit?: Audited<{ before: ItemAlertSettings; after: ItemAlertSettings }>,
): Promise<{ before: ItemAlertSettings; after: ItemAlertSettings } | null> {
  // Settings left out take their defaults (where the state comes from, when the item is stale).
  const settings = itemAlertSettingsSchema.parse(input);
  return prismaOf(db).$transaction(async (tx) => {
    const item = await tx.serviceItem.findFirst({
      where: { id: itemId, organizationId },
      select: { alertRecoveryMargin: true, alertMinDurationSeconds: true, stateSource: true, staleAfterIntervals: true },
    });
    if (!item) return null;
    await tx.serviceItem.update({
      where: { id: itemId },
      data: {
        alertRecoveryMargin: settings.recoveryMarginPercent,
        alertMinDurationSeconds: settings.minimumDurationSeconds,
        stateSource: settings.stateSource,
        staleAfterIntervals: settings.staleAfterIntervals,
      },
    });
    const changed = {
      before: {
        recoveryMarginPercent: item.alertRecoveryMargin,
        minimumDurationSeconds: item.alertMinDurationSeconds,
        stateSource: item.stateSource as ItemAlertSettings["stateSource"],
        staleAfterIntervals: item.staleAfterIntervals,
      },
      after: settings,
    };
    await recordAudited(tx, audit, changed);
    return changed;
  });
}
