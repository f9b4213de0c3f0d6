-- The queue's instants as epoch milliseconds, as ingest receives them and the worker's claim
-- sends them: the claim wrote each timestamptz as text, one function call and an ordered
-- aggregate a point, 63–85 ms of PostgreSQL per 60 000 points claimed against about 10 for
-- writing a bigint[] as text (issue 22, docs/scaling.md, "Twenty-seventh round").
ALTER TABLE "evaluation_queue" ADD COLUMN "timestamps_ms" BIGINT[];
UPDATE "evaluation_queue" q SET "timestamps_ms" = (
  SELECT array_agg((date_part('epoch', t.ts) * 1000)::bigint ORDER BY t.n) FROM unnest(q."timestamps") WITH ORDINALITY AS t(ts, n)
);
ALTER TABLE "evaluation_queue" DROP COLUMN "timestamps";
ALTER TABLE "evaluation_queue" ALTER COLUMN "timestamps_ms" SET NOT NULL;
