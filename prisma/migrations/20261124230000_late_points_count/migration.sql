-- How many late points (older than the newest one its window held) each shard's evaluations have
-- put into their worker's window. A worker catches a window up with what is newer than its newest
-- point; one taking a shard back whose count moved since it left loads the shard's series afresh.
ALTER TABLE "evaluation_cursors" ADD COLUMN "late_points" BIGINT NOT NULL DEFAULT 0;
