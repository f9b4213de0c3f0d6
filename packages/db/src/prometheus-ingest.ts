import type { IngestResponse } from "@tidemark/protocol";
import { type AuditActor, type Audited, recordAuditedSql } from "./audit.ts";
import { type Database, poolOf } from "./database.ts";
import { ingestBatch } from "./ingest.ts";
import { inSqlTransaction } from "./sql-transaction.ts";
import { analyzeAfterBulkWrite } from "./statistics.ts";

/**
 * Prometheus remote write into the same store as the agents' batches: the mapped series are
 * created on first sight when the organisation allows it, then the samples go through
 * `ingestBatch` (one statement, idempotent per batch id, queued for evaluation).
 */

export interface RemoteWriteSeries {
  host: string;
  service: string;
  item: string;
  key: string;
}

export interface RemoteWriteInput {
  organizationId: string;
  /** Who writes (the agent, or the API token, by name): the audit log's actor for the series it creates. */
  writer: AuditActor;
  agentId: string | null;
  /** Derived from the request body, so that Prometheus retrying a request stores nothing twice. */
  batchId: string;
  results: { key: string; ts: number; value: number | null }[];
  series: RemoteWriteSeries[];
}

export interface RemoteWriteOutcome extends IngestResponse {
  /** Items created by this request (0 when the organisation does not create series on first sight). */
  created: number;
}

/** Services created by remote write: Prometheus scrapes, so no agent runs them and the renderer skips them. */
export const PROMETHEUS_SERVICE_URL = "prometheus://remote-write";
/** Nominal: Prometheus' default scrape interval, used by the rule export when nothing better is known. */
const PROMETHEUS_SCHEDULE = "1M";

export async function prometheusCreatesSeries(db: Database, organizationId: string): Promise<boolean> {
  const { rows } = await poolOf(db).query<{ on: boolean }>(`SELECT prometheus_creates_series AS on FROM organizations WHERE id = $1`, [
    organizationId,
  ]);
  return rows[0]?.on ?? false;
}

/**
 * Creates the hosts, services and items of series the organisation has no item for, with their
 * audit entry by `writer`, in one transaction. Each level is one INSERT … ON CONFLICT DO NOTHING,
 * so concurrent requests naming the same new series both succeed and create it once. Returns how
 * many items were created.
 */
export async function createMissingSeries(db: Database, writer: AuditActor, series: readonly RemoteWriteSeries[]): Promise<number> {
  const { organizationId } = writer;
  if (!series.length) return 0;
  const keys = series.map((s) => s.key);
  const { rows: missing } = await poolOf(db).query<{ key: string }>(
    `SELECT unnest($2::text[]) AS key EXCEPT SELECT series_key FROM service_items WHERE organization_id = $1 AND series_key = ANY($2::text[])`,
    [organizationId, keys],
  );
  if (!missing.length) return 0;
  const wanted = new Set(missing.map((m) => m.key));
  const input = JSON.stringify(series.filter((s) => wanted.has(s.key)));
  const recordset = `json_to_recordset($2::json) AS i(host text, service text, item text, key text)`;
  const createdItems = await inSqlTransaction(db, async (client) => {
    await client.query(
      `INSERT INTO hosts (organization_id, name, description)
     SELECT DISTINCT $1::uuid, i.host, 'created by Prometheus remote write' FROM ${recordset}
     ON CONFLICT DO NOTHING`,
      [organizationId, input],
    );
    await client.query(
      `INSERT INTO services (organization_id, host_id, name, description, schedules, url)
     SELECT DISTINCT $1::uuid, h.id, i.service, 'created by Prometheus remote write', ARRAY[$3::text], $4
     FROM ${recordset} JOIN hosts h ON h.organization_id = $1 AND h.name = i.host
     ON CONFLICT DO NOTHING`,
      [organizationId, input, PROMETHEUS_SCHEDULE, PROMETHEUS_SERVICE_URL],
    );
    const { rows: created } = await client.query<{ series_key: string }>(
      `INSERT INTO service_items (organization_id, service_id, name, description, exec_statement, series_key)
     SELECT $1::uuid, s.id, i.item, 'created by Prometheus remote write', i.item, i.key
     FROM ${recordset}
     JOIN hosts h ON h.organization_id = $1 AND h.name = i.host
     JOIN services s ON s.host_id = h.id AND s.name = i.service
     ON CONFLICT DO NOTHING RETURNING series_key`,
      [organizationId, input],
    );
    await recordAuditedSql(
      client,
      seriesCreated(writer),
      created.map((c) => c.series_key),
    );
    return created.length;
  });
  // A Prometheus server's first write can name thousands of new series.
  await analyzeAfterBulkWrite(db, createdItems, ["hosts", "services", "service_items"]);
  return createdItems;
}

/** The audit entry of items created by remote write (none when nothing was new); at most 50 keys are listed. */
function seriesCreated(writer: AuditActor): Audited<string[]> {
  return {
    actor: writer,
    describe: (keys) =>
      keys.length === 0
        ? null
        : {
            action: "item.remote-write-create",
            targetType: "service_item",
            targetId: null,
            after: { items: keys.length, series: keys.slice(0, 50) },
          },
  };
}

export async function storeRemoteWrite(db: Database, input: RemoteWriteInput): Promise<RemoteWriteOutcome> {
  const created = (await prometheusCreatesSeries(db, input.organizationId)) ? await createMissingSeries(db, input.writer, input.series) : 0;
  if (!input.results.length) return { batchId: input.batchId, accepted: 0, duplicate: false, unknownSeries: [], created };
  const stored = await ingestBatch(db, {
    organizationId: input.organizationId,
    agentId: input.agentId,
    batch: { batchId: input.batchId, results: input.results },
  });
  return { ...stored, created };
}

/** Turns create-on-first-sight on or off; the value before, or null when the organisation does not exist. */
export async function setPrometheusCreatesSeries(
  db: Database,
  organizationId: string,
  on: boolean,
  audit?: Audited<{ before: boolean; after: boolean }>,
): Promise<boolean | null> {
  return inSqlTransaction(db, async (client) => {
    const { rows } = await client.query<{ before: boolean }>(
      `UPDATE organizations o SET prometheus_creates_series = $2 FROM organizations b
     WHERE o.id = $1 AND b.id = o.id RETURNING b.prometheus_creates_series AS before`,
      [organizationId, on],
    );
    const before = rows[0]?.before;
    if (before === undefined) return null;
    await recordAuditedSql(client, audit, { before, after: on });
    return before;
  });
}
