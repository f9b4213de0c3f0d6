-- The organisation's time zone: cron schedules are read in it, by the agents and by the worker.
ALTER TABLE "organizations" ADD COLUMN "time_zone" TEXT NOT NULL DEFAULT 'UTC';

-- Plugin states: each result's Nagios exit code (0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN) and the
-- first line of its output are kept with the point and travel with it to the evaluator (null
-- for calculations and results that carry none). Nullable columns without a default: adding
-- them to a compressed hypertable rewrites nothing.
ALTER TABLE "metric_points" ADD COLUMN "status" INTEGER;
ALTER TABLE "metric_points" ADD COLUMN "output" TEXT;
ALTER TABLE "evaluation_queue" ADD COLUMN "statuses" INTEGER[];
ALTER TABLE "evaluation_queue" ADD COLUMN "outputs" TEXT[];

-- Where an item's state comes from: its threshold (Bischeck's habit), the plugin's exit code
-- (Nagios's), or the worse of the two (the default: neither signal is lost). And after how many
-- of its intervals without data an item is stale.
ALTER TABLE "service_items" ADD COLUMN "state_source" TEXT NOT NULL DEFAULT 'worst'
  CHECK ("state_source" IN ('threshold', 'plugin', 'worst'));
ALTER TABLE "service_items" ADD COLUMN "stale_after_intervals" INTEGER NOT NULL DEFAULT 3
  CHECK ("stale_after_intervals" BETWEEN 1 AND 1000);

-- Freshness: when each series last stored a point (kept by ingest), so that the worker can tell
-- an item that stopped reporting without reading the hypertable, and the API can show ages.
ALTER TABLE "series" ADD COLUMN "last_ts" TIMESTAMPTZ(3);
UPDATE "series" s SET "last_ts" = (SELECT max(p."ts") FROM "metric_points" p WHERE p."series_id" = s."id");
