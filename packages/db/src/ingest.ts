import type { IngestBatch, IngestResponse } from "@tidemark/protocol";
import type pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import type { Database } from "./database.ts";

/**
 * Stores one agent batch: the points of known series, once (a retried batch id stores nothing
 * again), together with the work item that has the worker evaluate exactly the new points — all
 * in one transaction, so an acknowledged point is never lost nor left unevaluated.
 */

export interface IngestInput {
  organizationId: string;
  agentId: string | null;
  batch: IngestBatch;
}

/** Known keys (those of the organisation's service items) → series ids, creating missing series. */
async function resolveSeries(client: pg.ClientBase, organizationId: string, keys: string[]): Promise<Map<string, number>> {
  const { rows } = await client.query<{ id: number; key: string }>(
    `WITH known AS (
       SELECT series_key AS key FROM service_items WHERE organization_id = $1 AND series_key = ANY($2::text[])
     ), created AS (
       INSERT INTO series (organization_id, key) SELECT $1, key FROM known ON CONFLICT DO NOTHING RETURNING id, key
     )
     SELECT id, key FROM created
     UNION ALL
     SELECT s.id, s.key FROM series s JOIN known k ON k.key = s.key WHERE s.organization_id = $1`,
    [organizationId, keys],
  );
  return new Map(rows.map((r) => [r.key, r.id]));
}

interface Columns {
  seriesIds: number[];
  timestamps: string[];
  values: (number | null)[];
}

// Inserted rows go straight into the evaluation queue in the same statement.
const QUEUE_INSERTED = `
  INSERT INTO evaluation_queue (organization_id, series_ids, timestamps, "values")
  SELECT $1, array_agg(series_id), array_agg(ts), array_agg(value) FROM inserted HAVING count(*) > 0
  RETURNING cardinality(series_ids) AS n`;

/** Multi-row INSERT from three arrays: the embedded server cannot take COPY FROM STDIN. */
async function insertByArrays(client: pg.ClientBase, organizationId: string, c: Columns): Promise<number> {
  const { rows } = await client.query<{ n: number }>(
    `WITH inserted AS (
       INSERT INTO metric_points (series_id, ts, value)
       SELECT * FROM unnest($2::bigint[], $3::timestamptz[], $4::float8[])
       ON CONFLICT DO NOTHING RETURNING series_id, ts, value
     ) ${QUEUE_INSERTED}`,
    [organizationId, c.seriesIds, c.timestamps, c.values],
  );
  return rows[0]?.n ?? 0;
}

/** COPY into a per-session staging table, then one INSERT … ON CONFLICT: real PostgreSQL's fastest path. */
async function insertByCopy(client: pg.ClientBase, organizationId: string, c: Columns): Promise<number> {
  await client.query(
    `CREATE TEMP TABLE IF NOT EXISTS ingest_stage (series_id bigint, ts timestamptz, value float8) ON COMMIT DELETE ROWS`,
  );
  let text = "";
  for (let i = 0; i < c.seriesIds.length; i++) text += `${c.seriesIds[i]}\t${c.timestamps[i]}\t${c.values[i] ?? "\\N"}\n`;
  const stream = client.query(copyFrom("COPY ingest_stage (series_id, ts, value) FROM STDIN"));
  await new Promise<void>((resolve, reject) => {
    stream.on("finish", resolve);
    stream.on("error", reject);
    stream.end(text);
  });
  const { rows } = await client.query<{ n: number }>(
    `WITH inserted AS (
       INSERT INTO metric_points (series_id, ts, value) SELECT series_id, ts, value FROM ingest_stage
       ON CONFLICT DO NOTHING RETURNING series_id, ts, value
     ) ${QUEUE_INSERTED}`,
    [organizationId],
  );
  return rows[0]?.n ?? 0;
}

export async function ingestBatch(db: Database, input: IngestInput): Promise<IngestResponse> {
  const { batch, organizationId } = input;
  const keys = [...new Set(batch.results.map((r) => r.key))];
  const client = await db.pool.connect();
  try {
    const seriesIds = await resolveSeries(client, organizationId, keys);
    const unknownSeries = keys.filter((k) => !seriesIds.has(k));
    const columns: Columns = { seriesIds: [], timestamps: [], values: [] };
    for (const r of batch.results) {
      const id = seriesIds.get(r.key);
      if (id === undefined) continue;
      columns.seriesIds.push(id);
      columns.timestamps.push(new Date(r.ts).toISOString());
      columns.values.push(r.value);
    }
    await client.query("BEGIN");
    try {
      const claimed = await client.query(
        `INSERT INTO ingest_batches (organization_id, batch_id, agent_id, point_count) VALUES ($1, $2, $3, $4)
         ON CONFLICT DO NOTHING RETURNING batch_id`,
        [organizationId, batch.batchId, input.agentId, columns.seriesIds.length],
      );
      if (claimed.rowCount === 0) {
        await client.query("ROLLBACK");
        return { batchId: batch.batchId, accepted: 0, duplicate: true, unknownSeries };
      }
      const accepted =
        columns.seriesIds.length === 0
          ? 0
          : db.info.embedded
            ? await insertByArrays(client, organizationId, columns)
            : await insertByCopy(client, organizationId, columns);
      await client.query("COMMIT");
      return { batchId: batch.batchId, accepted, duplicate: false, unknownSeries };
    } catch (error) {
      await client.query("ROLLBACK");
      throw error;
    }
  } finally {
    client.release();
  }
}
