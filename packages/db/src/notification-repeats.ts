import { receiverPolicy, repeatDue, silenceCovers, silenceMatchersSchema } from "@tidemark/alerts";
import { type Database, poolOf } from "./database.ts";

/** One key for the advisory lock, so that of several notifiers only one queues repeats at a time. */
const REPEAT_LOCK = 1_800_018;

interface Candidate {
  webhook_id: string;
  name: string;
  kind: string;
  matchers: unknown;
  repeat: number | null;
  alert_id: string;
  organization_id: string;
  key: string;
  acknowledged: boolean;
  last_sent_at: Date;
  payload: unknown;
}

/**
 * Queues the firing alerts due again: to receivers with a repeat interval and to Alertmanagers
 * (which forget an alert not resent), each getting the last firing notification it was sent while
 * the alert stays open. The decision is `repeatDue`'s; a silence is judged now. Returns how many
 * were queued.
 */
export async function queueRepeats(db: Database, now: Date): Promise<number> {
  // Most installations have no repeating receiver: one cheap look, and no transaction (which on the
  // embedded server would hold up every other connection) every few seconds for nothing.
  const { rows: any } = await poolOf(db).query<{ some: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM webhooks WHERE enabled AND (kind = 'alertmanager' OR repeat_interval_seconds IS NOT NULL)) AS some`,
  );
  if (!any[0]?.some) return 0;
  const client = await poolOf(db).connect();
  try {
    await client.query("BEGIN");
    const { rows: lock } = await client.query<{ ok: boolean }>(`SELECT pg_try_advisory_xact_lock($1) AS ok`, [REPEAT_LOCK]);
    if (!lock[0]?.ok) {
      await client.query("ROLLBACK");
      return 0;
    }
    const { rows } = await client.query<Candidate>(
      `SELECT w.id AS webhook_id, w.name, w.kind, w.matchers, w.repeat_interval_seconds AS repeat,
              a.id AS alert_id, a.organization_id, s.key, a.acknowledged_at IS NOT NULL AS acknowledged,
              last.created_at AS last_sent_at, last.payload
       FROM webhooks w
       JOIN alerts a ON a.organization_id = w.organization_id AND a.closed_at IS NULL AND a.notified_at IS NOT NULL
       JOIN series s ON s.id = a.series_id
       JOIN LATERAL (
         SELECT d.created_at, d.payload FROM notification_deliveries d
         WHERE d.webhook_id = w.id AND d.alert_id = a.id ORDER BY d.created_at DESC LIMIT 1
       ) last ON last.payload->>'status' = 'firing'
       WHERE w.enabled AND (w.kind = 'alertmanager' OR w.repeat_interval_seconds IS NOT NULL)`,
    );
    if (!rows.length) {
      await client.query("COMMIT");
      return 0;
    }
    const organizations = [...new Set(rows.map((r) => r.organization_id))];
    const { rows: silenceRows } = await client.query<{
      id: string;
      organization_id: string;
      matchers: unknown;
      starts_at: Date;
      ends_at: Date;
    }>(
      `SELECT id, organization_id, matchers, starts_at, ends_at FROM silences WHERE organization_id = ANY($1::uuid[]) AND ends_at > $2 AND starts_at <= $2`,
      [organizations, now],
    );
    const silences = silenceRows.flatMap((r) => {
      const matchers = silenceMatchersSchema.safeParse(r.matchers);
      return matchers.success
        ? [{ organizationId: r.organization_id, matchers: matchers.data, startsAt: r.starts_at, endsAt: r.ends_at }]
        : [];
    });
    const due = rows.filter((r) =>
      repeatDue({
        receiver: receiverPolicy({ id: r.webhook_id, name: r.name, kind: r.kind, matchers: r.matchers, repeatIntervalSeconds: r.repeat }),
        lastSentAt: r.last_sent_at,
        now,
        acknowledged: r.acknowledged,
        silenced: silences.some((s) => s.organizationId === r.organization_id && silenceCovers(s, r.key, now)),
      }),
    );
    if (due.length) {
      await client.query(
        `INSERT INTO notification_deliveries (organization_id, webhook_id, alert_id, payload, status, created_at)
         SELECT organization_id, webhook_id, alert_id, payload, 'pending', $5
         FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::jsonb[]) AS u(organization_id, webhook_id, alert_id, payload)`,
        [
          due.map((r) => r.organization_id),
          due.map((r) => r.webhook_id),
          due.map((r) => r.alert_id),
          due.map((r) => JSON.stringify(r.payload)),
          now,
        ],
      );
    }
    await client.query("COMMIT");
    return due.length;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
