-- Several workers share one organisation: its series are split into evaluation shards
-- (series_id % 8, see EVALUATION_SHARDS in packages/db/src/evaluation.ts). Each queue row holds
-- the points of one shard, one worker at a time evaluates a shard (an advisory lock per
-- organisation and shard), so a series' points are still evaluated in time order by one decider.
ALTER TABLE "evaluation_queue" ADD COLUMN "shard" INTEGER NOT NULL DEFAULT 0;

-- Rows queued before the upgrade hold series of every shard: each is split into one row per
-- shard, in the old order, so that no series ever has two deciders.
WITH old AS (DELETE FROM "evaluation_queue" RETURNING *)
INSERT INTO "evaluation_queue" ("organization_id", "shard", "series_ids", "timestamps", "values", "statuses", "outputs", "created_at", "claimed_until", "attempts")
SELECT o."organization_id", (u.series_id % 8)::int, array_agg(u.series_id ORDER BY u.n), array_agg(u.ts ORDER BY u.n),
       array_agg(u.value ORDER BY u.n), CASE WHEN count(u.status) > 0 THEN array_agg(u.status ORDER BY u.n) END,
       CASE WHEN count(u.output) > 0 THEN array_agg(u.output ORDER BY u.n) END,
       min(o."created_at"), min(o."claimed_until"), min(o."attempts")
FROM old o CROSS JOIN LATERAL unnest(o."series_ids", o."timestamps", o."values", o."statuses", o."outputs")
  WITH ORDINALITY AS u(series_id, ts, value, status, output, n)
GROUP BY o."id", o."organization_id", u.series_id % 8
ORDER BY o."id", u.series_id % 8;

-- The last evaluator is remembered per shard.
ALTER TABLE "evaluation_cursors" ADD COLUMN "shard" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "evaluation_cursors" DROP CONSTRAINT "evaluation_cursors_pkey";
ALTER TABLE "evaluation_cursors" ADD CONSTRAINT "evaluation_cursors_pkey" PRIMARY KEY ("organization_id", "shard");
