import * as z from "zod";

/**
 * Agent → server: results shipped in batches to `POST /api/ingest`
 * (`Authorization: Bearer <agent token>`, JSON, at most MAX_INGEST_BYTES).
 * A batch id makes retries safe: a batch already accepted is acknowledged again and stored once.
 */

export const MAX_INGEST_BYTES = 4 * 1024 * 1024;
export const MAX_INGEST_RESULTS = 20_000;

/** Nagios plugin exit codes: 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN. */
export const pluginStatusSchema = z.number().int().min(0).max(3);

export const checkResultSchema = z.object({
  /** `host-service-item`, Bischeck's series key. */
  key: z.string().min(3).max(400),
  /** Epoch milliseconds when the check ran. */
  ts: z.number().int().min(946_684_800_000).max(4_102_444_800_000),
  /** The measured value; null when the check produced none (timeout, no perfdata). */
  value: z.number().finite().nullable(),
  status: pluginStatusSchema.optional(),
  /** First line of the plugin's output, for people (NUL characters, which PostgreSQL cannot store, are dropped). */
  output: z
    .string()
    .max(1024)
    .transform((s) => s.replaceAll("\u0000", ""))
    .optional(),
});
export type CheckResult = z.infer<typeof checkResultSchema>;

export const ingestBatchSchema = z.object({
  batchId: z
    .string()
    .min(8)
    .max(128)
    .regex(/^[\w.:-]+$/, "letters, digits, _ . : - only"),
  /** The configuration version the agent runs, so the server can tell what it applied. */
  configVersion: z.number().int().nonnegative().nullable().optional(),
  results: z.array(checkResultSchema).min(1).max(MAX_INGEST_RESULTS),
});
export type IngestBatch = z.infer<typeof ingestBatchSchema>;

export const ingestResponseSchema = z.object({
  batchId: z.string(),
  /** Results stored by this request (0 when the batch was a retry of an accepted one). */
  accepted: z.number().int(),
  duplicate: z.boolean(),
  /** Keys the organisation has no service item for: reported, not stored. */
  unknownSeries: z.array(z.string()),
});
export type IngestResponse = z.infer<typeof ingestResponseSchema>;

/**
 * How far past the server's clock a point may be stamped: agents' clocks drift a little. A point
 * from further ahead would be the newest of its series until that time came, so it is refused.
 */
export const MAX_FUTURE_SKEW_MS = 5 * 60_000;

/**
 * The points stamped more than MAX_FUTURE_SKEW_MS after `now`, as `path: message` issues (at most
 * 20): the one rule for every way points come in (agents' batches, Prometheus remote write).
 * `sender` names whose clock to check.
 */
export function futurePointIssues(
  batch: { results: readonly { key: string; ts: number }[] },
  now: number,
  sender = "the agent",
): { path: string; message: string }[] {
  const latest = now + MAX_FUTURE_SKEW_MS;
  const issues: { path: string; message: string }[] = [];
  batch.results.forEach((result, index) => {
    if (result.ts > latest) {
      issues.push({
        path: `results.${index}.ts`,
        message: `${result.key}: ${new Date(result.ts).toISOString()} is ${Math.round((result.ts - now) / 60_000)} min ahead of the server's clock (${new Date(now).toISOString()}); at most ${MAX_FUTURE_SKEW_MS / 60_000} min is accepted: check ${sender}'s clock`,
      });
    }
  });
  return issues.slice(0, 20);
}
