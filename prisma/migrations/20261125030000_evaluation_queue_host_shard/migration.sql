-- Fences out the version before shards followed the host (20261125020000_evaluation_shard_by_host).
-- A web or worker process of that version still running through the upgrade (a rolling
-- `docker compose up` replaces containers one by one) would go on queueing points into
-- "shard" by series_id % 8 and evaluating them by it: a series would then have two shards, and
-- two deciders. With the column renamed, that version's ingest and its claims fail from here on;
-- nothing is lost (its statements change nothing when they fail, agents keep their results and
-- resend them, Prometheus retries), and only this version queues and evaluates.
--
-- Rows that version queued between the two migrations are split by their series' shards first,
-- under the lock the rename needs anyway: every row goes again, in its order, as in the migration
-- before (moving only the stray rows would put them after newer ones). A point whose series is
-- gone stays in its row's shard; the evaluator skips it.
LOCK TABLE "evaluation_queue" IN ACCESS EXCLUSIVE MODE;

WITH old AS (DELETE FROM "evaluation_queue" RETURNING *)
INSERT INTO "evaluation_queue" ("organization_id", "shard", "series_ids", "timestamps", "values", "statuses", "outputs", "created_at", "claimed_until", "attempts")
SELECT o."organization_id", coalesce(s."shard", o."shard"), array_agg(u.series_id ORDER BY u.n), array_agg(u.ts ORDER BY u.n),
       array_agg(u.value ORDER BY u.n), CASE WHEN count(u.status) > 0 THEN array_agg(u.status ORDER BY u.n) END,
       CASE WHEN count(u.output) > 0 THEN array_agg(u.output ORDER BY u.n) END,
       min(o."created_at"), min(o."claimed_until"), min(o."attempts")
FROM old o CROSS JOIN LATERAL unnest(o."series_ids", o."timestamps", o."values", o."statuses", o."outputs")
  WITH ORDINALITY AS u(series_id, ts, value, status, output, n)
  LEFT JOIN "series" s ON s."organization_id" = o."organization_id" AND s."id" = u.series_id
GROUP BY o."id", o."organization_id", coalesce(s."shard", o."shard")
ORDER BY o."id", coalesce(s."shard", o."shard");

ALTER TABLE "evaluation_queue" RENAME COLUMN "shard" TO "host_shard";
