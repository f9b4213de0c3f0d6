-- Every tenant table carries its organisation (issue 22): metric_points too, so that the schema
-- can be distributed by organization_id (Citus) without a join to series for every point, and
-- queries on points are scoped by it directly. Ingest writes it from the batch's organisation.
-- No foreign key of its own: series_id's already ties a point to its series (and its
-- organisation, whose deletion cascades through series), and a second per-row check would cost
-- every insert.
ALTER TABLE "metric_points" ADD COLUMN "organization_id" UUID;

-- Compressed chunks are rewritten by the backfill: decompressed first (the compression policy
-- compresses them again on its next run).
-- tidemark:section timescaledb
SELECT decompress_chunk(c, if_compressed => true) FROM show_chunks('metric_points') c;

-- tidemark:section always
UPDATE "metric_points" p SET "organization_id" = s."organization_id" FROM "series" s WHERE s."id" = p."series_id";
ALTER TABLE "metric_points" ALTER COLUMN "organization_id" SET NOT NULL;

-- The series' newest point is read when the worker's freshness watch and the API need it, instead
-- of being written onto the series by every ingested batch (one UPDATE per series per batch).
ALTER TABLE "series" DROP COLUMN "last_ts";
