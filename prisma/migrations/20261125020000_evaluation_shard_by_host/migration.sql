-- A series' evaluation shard follows its host (issue 22), where it was series_id % 8. Bischeck's
-- thresholds and calculations read their own host's series ($$HOSTNAME$$); with shards by id such
-- a read crossed shards 7 times in 8, so a batch of one shard read the other series ahead of
-- their evaluation and had to take them back. A host's series now share a shard.
--
-- The host is the key's first part (up to the first '-' not escaped by '\', see seriesKey in
-- packages/expr/src/names.ts): the key is all a series row knows, and it never changes, so
-- neither does the shard. md5 spreads host names evenly over the eight shards (EVALUATION_SHARDS
-- in packages/db/src/evaluation.ts); the worker reads the column, it does not compute it.
CREATE FUNCTION evaluation_shard(series_key text) RETURNS integer
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT get_byte(decode(md5(substring(series_key FROM '^(?:[^\\-]|\\.)*')), 'hex'), 0) % 8 $$;

ALTER TABLE "series" ADD COLUMN "shard" INTEGER NOT NULL GENERATED ALWAYS AS (evaluation_shard("key")) STORED;

-- Rows queued before the upgrade are grouped by the old shards: each is split again by the new
-- ones, in its order, so that no series ever has two deciders. (A point whose series is gone is
-- kept, in shard 0; the evaluator skips it as before.)
WITH old AS (DELETE FROM "evaluation_queue" RETURNING *)
INSERT INTO "evaluation_queue" ("organization_id", "shard", "series_ids", "timestamps", "values", "statuses", "outputs", "created_at", "claimed_until", "attempts")
SELECT o."organization_id", coalesce(s."shard", 0), array_agg(u.series_id ORDER BY u.n), array_agg(u.ts ORDER BY u.n),
       array_agg(u.value ORDER BY u.n), CASE WHEN count(u.status) > 0 THEN array_agg(u.status ORDER BY u.n) END,
       CASE WHEN count(u.output) > 0 THEN array_agg(u.output ORDER BY u.n) END,
       min(o."created_at"), min(o."claimed_until"), min(o."attempts")
FROM old o CROSS JOIN LATERAL unnest(o."series_ids", o."timestamps", o."values", o."statuses", o."outputs")
  WITH ORDINALITY AS u(series_id, ts, value, status, output, n)
  LEFT JOIN "series" s ON s."organization_id" = o."organization_id" AND s."id" = u.series_id
GROUP BY o."id", o."organization_id", coalesce(s."shard", 0)
ORDER BY o."id", coalesce(s."shard", 0);

-- A shard holds other series now: no worker's memory of one is current.
UPDATE "evaluation_cursors" SET "worker_id" = '', "updated_at" = now();
