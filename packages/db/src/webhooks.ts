import { type Audited, recordAudited } from "./audit.ts";
import { type Database, poolOf, prismaOf } from "./database.ts";

/** Webhook receivers and the log of what was delivered to them. */

export interface WebhookView {
  id: string;
  name: string;
  url: string;
  enabled: boolean;
  createdAt: Date;
  kind: string;
  matchers: unknown;
  repeatIntervalSeconds: number | null;
  emailTo: string | null;
  emailFrom: string | null;
}

/** A receiver's policy fields, all optional: a plain webhook gets every alert once. */
export interface ReceiverFields {
  kind?: string;
  matchers?: { [name: string]: string | string[] | undefined };
  repeatIntervalSeconds?: number | null;
  emailTo?: string | null;
  emailFrom?: string | null;
}

export async function listWebhooks(db: Database, organizationId: string): Promise<WebhookView[]> {
  return prismaOf(db).webhook.findMany({ where: { organizationId }, orderBy: { createdAt: "asc" }, omit: { organizationId: true } });
}

export async function createWebhook(
  db: Database,
  organizationId: string,
  input: { name: string; url: string; enabled: boolean } & ReceiverFields,
  audit?: Audited<WebhookView>,
): Promise<WebhookView> {
  return prismaOf(db).$transaction(async (tx) => {
    const created = await tx.webhook.create({ data: { organizationId, ...input }, omit: { organizationId: true } });
    await recordAudited(tx, audit, created);
    return created;
  });
}

export async function updateWebhook(
  db: Database,
  organizationId: string,
  id: string,
  patch: Partial<{ name: string; url: string; enabled: boolean }> & ReceiverFields,
  audit?: Audited<{ before: WebhookView; after: WebhookView }>,
): Promise<{ before: WebhookView; after: WebhookView } | null> {
  return prismaOf(db).$transaction(async (tx) => {
    const before = await tx.webhook.findFirst({ where: { id, organizationId }, omit: { organizationId: true } });
    if (!before) return null;
    const after = await tx.webhook.update({ where: { id }, data: patch, omit: { organizationId: true } });
    await recordAudited(tx, audit, { before, after });
    return { before, after };
  });
}

export async function deleteWebhook(
  db: Database,
  organizationId: string,
  id: string,
  audit?: Audited<WebhookView>,
): Promise<WebhookView | null> {
  return prismaOf(db).$transaction(async (tx) => {
    const before = await tx.webhook.findFirst({ where: { id, organizationId }, omit: { organizationId: true } });
    if (!before) return null;
    await tx.webhook.delete({ where: { id } });
    await recordAudited(tx, audit, before);
    return before;
  });
}

export interface DeliveryView {
  id: string;
  webhookId: string;
  webhookName: string;
  alertId: string;
  status: string;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: Date;
  deliveredAt: Date | null;
  createdAt: Date;
  notification: string;
}

/** The delivery log, newest first; of one alert when given. */
export async function listDeliveries(
  db: Database,
  organizationId: string,
  opts: { alertId?: string; limit: number },
): Promise<DeliveryView[]> {
  const { rows } = await poolOf(db).query<DeliveryView>(
    `SELECT d.id, d.webhook_id AS "webhookId", w.name AS "webhookName", d.alert_id AS "alertId", d.status, d.attempts,
            d.last_error AS "lastError", d.next_attempt_at AS "nextAttemptAt", d.delivered_at AS "deliveredAt", d.created_at AS "createdAt",
            d.payload->>'status' AS notification
     FROM notification_deliveries d JOIN webhooks w ON w.id = d.webhook_id
     WHERE w.organization_id = $1 AND ($2::uuid IS NULL OR d.alert_id = $2)
     ORDER BY d.created_at DESC LIMIT $3`,
    [organizationId, opts.alertId ?? null, opts.limit],
  );
  return rows;
}

export interface DueDelivery {
  id: string;
  url: string;
  webhookEnabled: boolean;
  /** webhook, alertmanager, slack or email: what is sent and how. */
  kind: string;
  emailTo: string | null;
  emailFrom: string | null;
  payload: unknown;
  attempts: number;
}

/**
 * Claims deliveries that are due, across organisations: each claimed row's next attempt is
 * pushed out by the lease, so that a notifier that dies mid-send lets another retry it later and
 * two notifiers never send the same row at once.
 */
export async function claimDueDeliveries(db: Database, opts: { limit: number; leaseMs: number; now?: Date }): Promise<DueDelivery[]> {
  const now = opts.now ?? new Date();
  const { rows } = await poolOf(db).query<{
    id: string;
    url: string;
    enabled: boolean;
    kind: string;
    email_to: string | null;
    email_from: string | null;
    payload: unknown;
    attempts: number;
  }>(
    `UPDATE notification_deliveries d SET next_attempt_at = $2::timestamptz + make_interval(secs => $3::float8 / 1000)
     FROM webhooks w
     WHERE w.id = d.webhook_id AND d.id IN (
       SELECT id FROM notification_deliveries WHERE status = 'pending' AND next_attempt_at <= $2
       ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED)
     RETURNING d.id, w.url, w.enabled, w.kind, w.email_to, w.email_from, d.payload, d.attempts`,
    [opts.limit, now, opts.leaseMs],
  );
  return rows.map((r) => ({
    id: r.id,
    url: r.url,
    webhookEnabled: r.enabled,
    kind: r.kind,
    emailTo: r.email_to,
    emailFrom: r.email_from,
    payload: r.payload,
    attempts: r.attempts,
  }));
}

export type DeliveryResult =
  | { outcome: "delivered"; at: Date }
  | { outcome: "retry"; error: string; nextAttemptAt: Date }
  | { outcome: "failed"; error: string };

export async function recordDeliveryAttempt(db: Database, id: string, result: DeliveryResult): Promise<void> {
  switch (result.outcome) {
    case "delivered":
      await poolOf(db).query(
        `UPDATE notification_deliveries SET status = 'delivered', attempts = attempts + 1, delivered_at = $2, last_error = NULL WHERE id = $1`,
        [id, result.at],
      );
      return;
    case "retry":
      await poolOf(db).query(
        `UPDATE notification_deliveries SET attempts = attempts + 1, last_error = $2, next_attempt_at = $3 WHERE id = $1`,
        [id, result.error, result.nextAttemptAt],
      );
      return;
    case "failed":
      await poolOf(db).query(
        `UPDATE notification_deliveries SET status = 'failed', attempts = attempts + 1, last_error = $2 WHERE id = $1`,
        [id, result.error],
      );
      return;
  }
}
